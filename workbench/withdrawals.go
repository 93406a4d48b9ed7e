package workbench

import (
	"context"
	"math"
	"time"

	"shipdesk/apperr"
	"shipdesk/cod"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/textin"
)

// WithdrawalDays is both periods of a withdrawal from a purchase, in
// calendar days (civil code §1829: the customer withdraws within 14 days of
// delivery; §1831: the shop refunds within 14 days of receiving it). A
// weekend or a holiday does not lengthen them here: the shop pays on time.
const WithdrawalDays = 14

// Limits of a withdrawal's fields.
const (
	MaxRefund    = 10_000_000 // the largest refund, in the currency's units
	MaxRefundKey = 40
	MaxNote      = 1000
)

// RefundCurrencies are the currencies a refund is paid in, the first the default.
var RefundCurrencies = []string{"CZK", "EUR"}

// WithdrawalInput is a withdrawal as the agent (or, later, the customer's
// claim page) gives it; text as typed, read here.
type WithdrawalInput struct {
	Key       string // the form's request key: a second post records nothing more
	Amount    string // "1 250", "1.250", "1250 Kč"
	Currency  string // CZK when empty
	Account   string // "[prefix-]number/bank" or an IBAN
	Received  string // the day it was received; empty: now
	Shipment  string // the purchase's tracking number, optional: its delivery comes from tracking
	Delivered string // the day the purchase was delivered, when tracking does not know it
	Note      string
	By        int64
}

// RecordWithdrawal records a customer's withdrawal on a commission and the
// refund it owes: due WithdrawalDays after it was received, marked late when
// received more than WithdrawalDays after the purchase was delivered. Every
// field's problem is said on its field; nothing is stored until all are good.
func (w *Workbench) RecordWithdrawal(ctx context.Context, commissionID int64, in WithdrawalInput) (storage.Withdrawal, error) {
	c, err := w.db.CommissionByID(ctx, commissionID)
	if err != nil {
		return storage.Withdrawal{}, err
	}
	if c.Type != Withdrawal { // a claim or a repair owes no refund of a withdrawal
		return storage.Withdrawal{}, apperr.New(apperr.Conflict, "wd.err.not_withdrawal")
	}
	now := w.now()
	rec, p := readWithdrawal(in, now)
	if len(p) == 0 {
		w.deliveryOf(ctx, &rec, in, p)
	}
	if len(p) > 0 {
		return storage.Withdrawal{}, apperr.Fields("wd.err.form", p)
	}
	rec.CommissionID, rec.CreatedAt, rec.CreatedBy = commissionID, now, storage.UserRef(in.By)
	rec.DueAt = RefundDue(rec.ReceivedAt)
	rec.Late = rec.DeliveredAt != nil && CalendarDays(*rec.DeliveredAt, rec.ReceivedAt) > WithdrawalDays
	out, _, err := w.db.RecordWithdrawal(ctx, rec)
	return out, err
}

// readWithdrawal reads the typed fields; the delivery is deliveryOf's.
func readWithdrawal(in WithdrawalInput, now time.Time) (storage.Withdrawal, apperr.Problems) {
	p := apperr.Problems{}
	var rec storage.Withdrawal
	key, problem := textin.Line(in.Key, MaxRefundKey)
	if key == "" || !problem.IsZero() {
		p.Add("form", "wd.err.stale_form")
	}
	rec.RequestKey = key
	rec.Amount, problem = refundAmount(in.Amount)
	p.Put("amount", problem)
	rec.Currency = in.Currency
	if rec.Currency == "" {
		rec.Currency = RefundCurrencies[0]
	}
	if rec.Currency != "CZK" && rec.Currency != "EUR" {
		p.Add("currency", "wd.err.currency")
	}
	account, problem := textin.Line(in.Account, 80)
	if problem.IsZero() {
		account, problem = cod.RefundAccount(account)
	}
	rec.Account = account
	p.Put("account", problem)
	rec.ReceivedAt, problem = receivedAt(in.Received, now)
	p.Put("received", problem)
	rec.Note, problem = textin.Lines(in.Note, MaxNote)
	p.Put("note", problem)
	return rec, p
}

// refundAmount reads a sum as Czech people type it: more than zero, at most
// MaxRefund, whole hundredths.
// RefundAmount is a refund's amount as typed (the claim page's), read by the
// rules RecordWithdrawal applies; ok false when they refuse it.
func RefundAmount(s string) (amount float64, ok bool) {
	x, problem := refundAmount(s)
	return x, problem.IsZero()
}

func refundAmount(s string) (float64, apperr.Text) {
	s, problem := textin.Line(s, 40)
	switch {
	case !problem.IsZero():
		return 0, problem
	case s == "":
		return 0, apperr.Msg("wd.err.amount_required")
	}
	x, problem := textin.Decimal(textin.Amount(s), textin.Range{Above: 0, Max: MaxRefund})
	if problem.IsZero() && math.Round(x*100) != x*100 {
		problem = apperr.Msg("wd.err.amount_cents")
	}
	return x, problem
}

// receivedAt is when the withdrawal was received: now when no day is given
// or the day is today; noon of an earlier day in the shop's zone (a letter
// that came before it was recorded); never a day after today.
func receivedAt(s string, now time.Time) (time.Time, apperr.Text) {
	day, problem := typedDay(s)
	switch {
	case !problem.IsZero():
		return time.Time{}, problem
	case day.IsZero():
		return now, apperr.Text{}
	}
	today := pragueDay(now)
	switch {
	case day.After(today):
		return time.Time{}, apperr.Msg("wd.err.received_future")
	case day.Equal(today):
		return now, apperr.Text{}
	}
	return noonOf(day), apperr.Text{}
}

// deliveryOf finds when the purchase was delivered: from the tracking of
// its shipment when named and delivered, else the typed day.
func (w *Workbench) deliveryOf(ctx context.Context, rec *storage.Withdrawal, in WithdrawalInput, p apperr.Problems) {
	code, problem := textin.Line(in.Shipment, 64)
	if !problem.IsZero() {
		p.Put("shipment", problem)
		return
	}
	if code != "" {
		found, exact, err := w.db.Scan(ctx, code, 2)
		if err != nil || !exact || len(found) != 1 {
			p.Add("shipment", "wd.err.shipment_unknown", code)
			return
		}
		rec.ShipmentID = &found[0].ID
		at, err := w.db.DeliveredAt(ctx, found[0].ID)
		if err != nil {
			p.Add("shipment", "wd.err.shipment_unknown", code)
			return
		}
		if at != nil {
			rec.DeliveredAt = at
			return
		}
	}
	day, problem := typedDay(in.Delivered)
	switch {
	case !problem.IsZero():
		p.Put("delivered", problem)
	case day.IsZero():
	case day.After(pragueDay(rec.ReceivedAt)):
		p.Add("delivered", "wd.err.delivered_after")
	default:
		at := noonOf(day)
		rec.DeliveredAt = &at
	}
}

// MarkRefundPaid records that a manager paid a refund, with who and when;
// a refund already paid keeps its first record (a conflict naming it).
func (w *Workbench) MarkRefundPaid(ctx context.Context, st *identity.Staff, id int64) (storage.Withdrawal, error) {
	if st == nil || !st.Role.May(identity.Reports) {
		return storage.Withdrawal{}, apperr.New(apperr.Forbidden, "wd.err.managers_pay")
	}
	return w.db.MarkRefundPaid(ctx, id, st.ID, w.now())
}

// RefundsDue lists the refunds not yet paid, overdue first, then the nearest
// due; paid lists the paid ones instead, the latest first.
func (w *Workbench) RefundsDue(ctx context.Context, paid bool) ([]storage.Withdrawal, error) {
	return w.db.Refunds(ctx, storage.RefundFilter{Paid: paid, Limit: 500})
}

// WithdrawalOf is the withdrawal recorded on a commission; found is false
// when there is none.
func (w *Workbench) WithdrawalOf(ctx context.Context, commissionID int64) (storage.Withdrawal, bool, error) {
	wd, err := w.db.WithdrawalOfCommission(ctx, commissionID)
	if apperr.CodeOf(err) == apperr.NotFound {
		return wd, false, nil
	}
	return wd, err == nil, err
}

// RefundDue is when a withdrawal received at received must be refunded: the
// same time of day WithdrawalDays calendar days later in the shop's zone, so
// a change of summer time does not move it by an hour.
func RefundDue(received time.Time) time.Time {
	return received.In(i18n.Prague).AddDate(0, 0, WithdrawalDays)
}

// CalendarDays counts the calendar days from a's day to b's day in the
// shop's zone (negative when b's day is earlier).
func CalendarDays(a, b time.Time) int {
	return int(pragueDay(b).Sub(pragueDay(a)).Round(24*time.Hour) / (24 * time.Hour))
}

// pragueDay is t's day in Prague, where the law's days are counted.
func pragueDay(t time.Time) time.Time { return dayIn(i18n.Prague, t) }

// noonOf is noon of a day (a UTC midnight) in the shop's zone.
func noonOf(day time.Time) time.Time {
	return time.Date(day.Year(), day.Month(), day.Day(), 12, 0, 0, 0, i18n.Prague)
}

// typedDay reads a day typed the Czech way or as ISO; zero when empty.
func typedDay(s string) (time.Time, apperr.Text) {
	s, problem := textin.Line(s, 20)
	if !problem.IsZero() || s == "" {
		return time.Time{}, problem
	}
	return textin.Date(s)
}

// CheckRefund says what is wrong with a refund's amount and account as a
// customer types them on the claim page, by the rules RecordWithdrawal
// applies later; it returns the account as it will be kept.
func CheckRefund(amount, account string) (string, apperr.Problems) {
	p := apperr.Problems{}
	_, problem := refundAmount(amount)
	p.Put("refund_amount", problem)
	acct, problem := textin.Line(account, 80)
	if problem.IsZero() {
		acct, problem = cod.RefundAccount(acct)
	}
	p.Put("refund_account", problem)
	return acct, p
}
