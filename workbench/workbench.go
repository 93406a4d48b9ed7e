// Package workbench is the returns desk: service orders (commissions) through the
// returns API, proofs of purchase checked by their content and kept locally,
// messages to the customer kept apart from internal notes, and the moves a
// commission may make.
//
// The returns API's wire types stay inside this package: callers see the
// desk's own types (Form, Customer, Detail, ProductType), converted in one
// place each.
package workbench

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/returns"
	"shipdesk/clock"
	"shipdesk/mail"
	"shipdesk/serviceerr"
	"shipdesk/storage"
)

// MaxUpload is the largest proof of purchase (the service takes 10 MiB).
const MaxUpload = 10 << 20

// WarrantyDays is the statutory period to settle a warranty claim.
const WarrantyDays = 30

// States are a commission's statuses at the service, in their order.
var States = returns.States

// Types are the kinds of service order.
var Types = returns.Types

// Moves are the changes an agent may ask for, by status; the others happen by
// themselves (goods delivered to the service → processing; delivered back →
// closed). "outgoing" is ordering the shipment back to the customer.
var Moves = map[string][]string{
	"new":               {"processing", "cancelled"},
	"waiting_for_goods": {"cancelled"},
	"processing":        {"outgoing", "closed", "cancelled"},
}

// Withdrawal is the kind of commission that records a customer's withdrawal
// from a purchase: the goods come back to stay, so nothing is repaired and
// nothing is sent back to the customer.
const Withdrawal = "withdrawal"

// MovesOf are the moves of a commission of kind in status: Moves, without
// sending the goods back for a withdrawal.
func MovesOf(kind, status string) []string {
	moves := Moves[status]
	if kind != Withdrawal {
		return moves
	}
	return slices.DeleteFunc(slices.Clone(moves), func(to string) bool { return to == "outgoing" })
}

// Workbench runs the returns desk.
type Workbench struct {
	db  *storage.DB
	api *returns.Client
	log *slog.Logger
	// clock is the dashboard's one clock (the simulator's against the
	// sandbox): what the workbench records and a claim's days are read on it.
	clock *clock.Clock
	// SyncEvery is how often open commissions are read again.
	SyncEvery time.Duration
	// MaxBackoff is the longest wait after failed reads in a row: the
	// pollers' (app.NewJobs sets it from their configuration).
	MaxBackoff time.Duration
	// CreateTimeout bounds one create call; the call goes on when the agent's
	// browser goes away.
	CreateTimeout time.Duration
	// Settle is how long after a create call's time limit the service may
	// still create the commission; only then may it be called missing.
	Settle time.Duration
	// Outbox mails each newly kept written confirmation to the customer;
	// nil sends no mail.
	Outbox *mail.Outbox
	// StatusLink is a customer's link to the claim's status page, for the
	// confirmation mails, made on tx (the transaction that keeps the
	// confirmation), and until when a mail carrying it is kept whole (the
	// link is the customer's key); nil, or "" for a commission, leaves the
	// line out.
	StatusLink func(ctx context.Context, tx *storage.DB, commissionID int64) (link string, keepUntil time.Time)
}

// New returns a workbench on the dashboard's clock.
func New(db *storage.DB, api *returns.Client, clk *clock.Clock, log *slog.Logger) *Workbench {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Workbench{db: db, api: api, log: log, clock: clk, SyncEvery: 10 * time.Minute,
		CreateTimeout: time.Minute, Settle: 3 * time.Minute}
}

// now is the time on the dashboard's clock.
func (w *Workbench) now() time.Time { return w.clock.Now() }

func invalid(p apperr.Problems) error {
	if len(p) == 0 {
		return nil
	}
	return apperr.Fields("form.see_fields", p)
}

// openClaim: a warranty claim not yet settled (sent back, closed or
// cancelled), so its 30 days run (counted from when the service took it).
func openClaim(c *returns.Commission) bool {
	return c.Type == "warranty" && !Settled(c.Status)
}

// NoAnswer, AnswerLost and Failed are desk's for the returns desk.
const (
	NoAnswer   = "ret.err.no_answer"
	AnswerLost = "ret.err.answer_lost"
	Failed     = "ret.err.failed"
)

// upstream maps the service's failures for the returns desk's forms.
var upstream = serviceerr.Mapper{Field: FormField, NoAnswer: NoAnswer, Lost: AnswerLost, Failed: Failed,
	NotFound: "ret.err.not_known",
	Refused:  "ret.err.refused"}

// mapError turns a failed call into a message on the form's fields.
func mapError(doing string, err error) error { return upstream.Map(doing, err) }

// FormField names the form field of a returns API field path.
func FormField(path string) string {
	switch {
	case strings.HasPrefix(path, "customer."):
		return "customer_" + strings.TrimPrefix(path, "customer.")
	case path == "product.type_id":
		return "type_id"
	case path == "product.model_id":
		return "model_id"
	case path == "product.fault":
		return "fault"
	case path == "product.purchase_date":
		return "purchase_date"
	case path == "product.serial_number":
		return "serial"
	case path == "invoice_file_token", path == "file":
		return "proof"
	case path == "type", path == "reference":
		return path
	case path == "text":
		return "text"
	}
	return "form"
}

// DaysLeft counts calendar days from today to the deadline's day (negative:
// overdue by that many days), as a person counts them.
func DaysLeft(deadline, now time.Time) int {
	day := func(t time.Time) time.Time {
		t = t.In(time.Local)
		return time.Date(t.Year(), t.Month(), t.Day(), 12, 0, 0, 0, time.UTC)
	}
	return int(day(deadline).Sub(day(now)).Hours() / 24)
}

// statusText is a commission's status in a message, "not created" before the
// service has it.
func statusText(s string) apperr.Text {
	if s == "" {
		return apperr.Msg("ret.err.not_created")
	}
	return apperr.Word("ret.status.", s)
}
