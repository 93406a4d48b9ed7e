package handlers

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"shipdesk/apperr"
	"shipdesk/cod"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/views"
	"shipdesk/workbench"
)

// RefundDesk is the returns desk's withdrawals and their refunds
// (workbench.Workbench).
type RefundDesk interface {
	RecordWithdrawal(ctx context.Context, commissionID int64, in workbench.WithdrawalInput) (storage.Withdrawal, error)
	MarkRefundPaid(ctx context.Context, st *identity.Staff, id int64) (storage.Withdrawal, error)
	RefundsDue(ctx context.Context, paid bool) ([]storage.Withdrawal, error)
	WithdrawalOf(ctx context.Context, commissionID int64) (storage.Withdrawal, bool, error)
}

// refundsPath is the managers' list of refunds.
const refundsPath = "/returns/refunds"

func refundPaidPath(id int64) string { return refundsPath + "/" + strconv.FormatInt(id, 10) + "/paid" }

// withdrawalFields are the withdrawal form's fields, in page order.
var withdrawalFields = []string{"amount", "currency", "account", "received", "shipment", "delivered", "note"}

// RecordWithdrawal records a customer's withdrawal from the purchase on a
// commission; a form with problems is shown again as typed.
func (h *Handlers) RecordWithdrawal(w http.ResponseWriter, r *http.Request) {
	id, ok := h.commissionPost(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	form := views.Form{Values: map[string]string{"key": r.PostFormValue("key")}}
	for _, f := range withdrawalFields {
		form.Values[f] = r.PostFormValue(f)
	}
	in := workbench.WithdrawalInput{Key: form.Value("key"), Amount: form.Value("amount"), Currency: form.Value("currency"),
		Account: form.Value("account"), Received: form.Value("received"), Shipment: form.Value("shipment"),
		Delivered: form.Value("delivered"), Note: form.Value("note"), By: h.userID(r)}
	_, err := h.Returns.RecordWithdrawal(ctx, id, in)
	if err == nil {
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "ok", Text: i18n.T(ctx, "wd.recorded")})
		redirect(w, r, commissionPath(id)+"#withdrawal")
		return
	}
	if apperr.CodeOf(err) == apperr.Internal || apperr.CodeOf(err) == apperr.NotFound {
		h.Fail(w, r, err)
		return
	}
	form.Errors, form.Message = apperr.FieldsOf(ctx, err), apperr.MessageOf(ctx, err, "")
	if stale := form.Errors["form"]; stale != "" {
		form.Message = stale // the form's key: no field of its own to show it on
	}
	form.Values = keptValues(form.Values)
	form.Focus = firstField(form, withdrawalFields)
	h.renderCommission(w, r, statusOf(apperr.CodeOf(err)), commissionForms{Withdrawal: form})
}

// keptValues are the typed values shown again: what cannot be shown (not
// UTF-8, control characters, far too long) is left out rather than echoed.
func keptValues(v map[string]string) map[string]string {
	out := make(map[string]string, len(v))
	for k, s := range v {
		if clean, problem := textin.Line(s, 2000); problem.IsZero() {
			out[k] = clean
		}
	}
	return out
}

// firstField is the first field with a problem, where the focus goes.
func firstField(f views.Form, fields []string) string {
	for _, name := range fields {
		if f.HasError(name) {
			return name
		}
	}
	return ""
}

// withdrawalView is the commission page's withdrawal section.
func (h *Handlers) withdrawalView(ctx context.Context, commissionID int64, form views.Form, now time.Time) (views.WithdrawalView, error) {
	st := identity.From(ctx)
	v := views.WithdrawalView{Manager: st != nil && st.Role.May(identity.Reports)}
	wd, found, err := h.Returns.WithdrawalOf(ctx, commissionID)
	if err != nil || !found {
		v.Form = withKey(form)
		if v.Form.Value("currency") == "" {
			v.Form.Values["currency"] = workbench.RefundCurrencies[0]
		}
		for _, c := range workbench.RefundCurrencies {
			v.Currencies = append(v.Currencies, views.Option{Value: c, Label: c})
		}
		return v, err
	}
	row := refundRow(ctx, wd, now)
	v.Recorded, v.ID, v.Amount, v.Account, v.Received, v.Late = true, wd.ID, row.Amount, row.Account, row.Received, row.Late
	v.Due, v.DaysLeft, v.Overdue, v.Soon, v.Paid, v.Note = row.Due, row.DaysLeft, row.Overdue, row.Soon, row.Paid, wd.Note
	if wd.DeliveredAt != nil {
		v.Delivered = i18n.Date(ctx, *wd.DeliveredAt)
	}
	return v, nil
}

// refundRow says a refund as the list and the section show it.
func refundRow(ctx context.Context, wd storage.Withdrawal, now time.Time) views.RefundRow {
	row := views.RefundRow{ID: wd.ID, CommissionID: wd.CommissionID, Commission: wd.CommissionNumber, Customer: wd.CustomerName,
		Amount: i18n.Money(ctx, wd.Amount, wd.Currency), Account: cod.FormatAccount(wd.Account),
		Received: i18n.Date(ctx, wd.ReceivedAt), Due: i18n.Date(ctx, wd.DueAt)}
	if wd.Late && wd.DeliveredAt != nil {
		row.Late = i18n.N(ctx, "wd.late", workbench.CalendarDays(*wd.DeliveredAt, wd.ReceivedAt))
	}
	if wd.PaidAt != nil {
		who := ""
		if wd.PaidByName != nil {
			who = *wd.PaidByName
		}
		row.Paid = i18n.T(ctx, "wd.paid_by", i18n.DateTime(ctx, *wd.PaidAt), who)
		return row
	}
	days := workbench.CalendarDays(now, wd.DueAt)
	row.DaysLeft, row.Overdue, row.Soon = daysToPay(ctx, days), days < 0, days >= 0 && days <= 3
	return row
}

// daysToPay says the days left to pay a refund: "in 3 days", "today",
// "2 days overdue".
func daysToPay(ctx context.Context, days int) string {
	switch {
	case days < 0:
		return i18n.N(ctx, "wd.days.overdue", -days)
	case days == 0:
		return i18n.T(ctx, "wd.days.today")
	}
	return i18n.N(ctx, "wd.days.left", days)
}

// refundDueWhy is the queue's sentence of a refund due: how much, by when.
func refundDueWhy(ctx context.Context, it storage.AttentionItem) string {
	amount, due := "", ""
	if it.Amount != nil {
		amount = i18n.Money(ctx, *it.Amount, it.Currency)
	}
	if it.Deadline != nil {
		due = i18n.Date(ctx, *it.Deadline)
	}
	return i18n.T(ctx, "attn.why.refund_due", amount, due, daysToPay(ctx, it.Days))
}

// Refunds is the managers' list of refunds: open ones, overdue first then
// the nearest due, or the paid ones (?show=paid).
func (h *Handlers) Refunds(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	v, ok := h.refundList(w, r)
	if !ok {
		return
	}
	h.render(w, r, http.StatusOK, views.RefundsPage(h.page(w, r, i18n.T(ctx, "wd.list.title"), identity.Returns), v))
}

// RefundsCSV downloads the list as it is filtered, through the reports' CSV writer.
func (h *Handlers) RefundsCSV(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	v, ok := h.refundList(w, r)
	if !ok {
		return
	}
	t := figTable{title: i18n.T(ctx, "wd.list.title")}
	for _, k := range []string{"due", "days", "amount", "account", "customer", "commission", "received", "late", "state"} {
		t.header = append(t.header, i18n.T(ctx, "wd.csv."+k))
	}
	for _, row := range v.Rows {
		t.rows = append(t.rows, []any{row.Due, row.DaysLeft, row.Amount, row.Account, row.Customer, row.Commission, row.Received,
			row.Late, row.Paid})
	}
	writeCSVTable(ctx, w, "refunds-"+v.Show+"-"+h.now().In(i18n.Prague).Format("20060102")+".csv", t)
}

func (h *Handlers) refundList(w http.ResponseWriter, r *http.Request) (views.RefundList, bool) {
	ctx := r.Context()
	v := views.RefundList{Show: "open"}
	if r.URL.Query().Get("show") == "paid" {
		v.Show = "paid"
	}
	list, err := h.Returns.RefundsDue(ctx, v.Show == "paid")
	if err != nil {
		h.Fail(w, r, err)
		return v, false
	}
	now := h.now()
	for _, wd := range list {
		v.Rows = append(v.Rows, refundRow(ctx, wd, now))
	}
	return v, true
}

// RefundPaidConfirm asks before a refund is marked paid: once marked, it
// stays so.
func (h *Handlers) RefundPaidConfirm(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	wd, err := h.ReturnsStore.WithdrawalByID(ctx, id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	row := refundRow(ctx, wd, h.now())
	if row.Paid != "" {
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "error", Text: i18n.T(ctx, "wd.already", row.Paid)})
		redirect(w, r, refundsPath)
		return
	}
	h.confirmPage(w, r, identity.Returns, views.Confirm{Heading: i18n.T(ctx, "wd.confirm.heading", row.Amount, row.Customer),
		Text:   []string{i18n.T(ctx, "wd.confirm.account", row.Account, row.Commission, row.Due), i18n.T(ctx, "wd.confirm.text")},
		Action: refundPaidPath(id), Button: i18n.T(ctx, "wd.pay"), Keep: i18n.T(ctx, "wd.confirm.keep"), Back: refundsPath + "#refund-" + strconv.FormatInt(id, 10)})
}

// RefundPaid marks a refund paid, once confirmed: who and when are recorded.
func (h *Handlers) RefundPaid(w http.ResponseWriter, r *http.Request) {
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	if h.unconfirmed(w, r, refundPaidPath(id)) {
		return
	}
	ctx := r.Context()
	wd, err := h.Returns.MarkRefundPaid(ctx, identity.From(ctx), id)
	h.finish(w, r, err, i18n.T(ctx, "wd.paid_done", i18n.Money(ctx, wd.Amount, wd.Currency), wd.CustomerName), refundsPath+"?show=paid#refund-"+strconv.FormatInt(id, 10))
}
