package desk

import (
	"log/slog"
	"regexp"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/cart"
	"shipdesk/client/shipping"
	"shipdesk/clock"
	"shipdesk/mail"
	"shipdesk/serviceerr"
	"shipdesk/storage"
)

// Desk runs the shipping desk on the database and the service's clients.
type Desk struct {
	db   *storage.DB
	ship *shipping.Client
	cart *cart.Client
	log  *slog.Logger
	// clock is the dashboard's one clock: every time the desk records (when
	// the service was asked, deadlines, schedules) is read from it.
	clock *clock.Clock
	// OrderTimeout bounds one create call and what follows it; the call goes on
	// when the clerk's browser goes away, so its answer is never lost.
	OrderTimeout time.Duration
	// Settle is how long after a create call's time limit the service may
	// still create the order; only then may an order be called missing.
	Settle time.Duration

	// Outbox records the customers' mail of their parcels' steps (nil: none
	// is sent); PublicURL is the dashboard as customers reach it, which
	// the tracking link starts with; Zone is the shop's (nil: Prague).
	Outbox    *mail.Outbox
	PublicURL string
	Zone      *time.Location

	runs batchRuns // the batch workers this process runs
}

// now is the time on the dashboard's clock.
func (d *Desk) now() time.Time { return d.clock.Now() }

// DefaultSettle is the settle window when none is configured.
const DefaultSettle = 3 * time.Minute

// New returns a desk on the dashboard's clock.
func New(db *storage.DB, ship *shipping.Client, c *cart.Client, clk *clock.Clock, log *slog.Logger) *Desk {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Desk{db: db, ship: ship, cart: c, log: log, clock: clk, OrderTimeout: 60 * time.Second, Settle: DefaultSettle}
}

// invalid turns problems into an Invalid error the form shows field by field.
func invalid(p apperr.Problems) error {
	if len(p) == 0 {
		return nil
	}
	return apperr.Fields("form.see_fields", p)
}

// Texts (keys) a person reads when a call to the service failed: no answer in
// time, an answer lost after the request was sent, the service failing with a
// 5xx (serviceerr.Mapper chooses which); an order whose answer was lost
// (OutcomeUnknown). What exactly happened ("EOF", "connection reset", …) is
// for the log only; the transport logs every failed call with it.
const (
	NoAnswer       = "ship.err.no_answer"
	AnswerLost     = "ship.err.answer_lost"
	Failed         = "ship.err.failed"
	OutcomeUnknown = "ship.err.outcome_unknown"
)

// upstream maps the service's failures for the shipping desk's forms.
var upstream = serviceerr.Mapper{Field: FormField, NoAnswer: NoAnswer, Lost: AnswerLost, Failed: Failed,
	NotFound: "ship.err.not_known",
	Refused:  "ship.err.refused"}

// UpstreamError turns a failed call into a message for the clerk: the service's
// field errors onto the form's fields, its refusals into one sentence, and a
// failed link or a failing service into NoAnswer, AnswerLost or Failed.
func UpstreamError(doing string, err error) error { return upstream.Map(doing, err) }

var (
	shipmentPrefix = regexp.MustCompile(`^shipments\[\d+\]\.`)
	packagePath    = regexp.MustCompile(`^packages\[(\d+)\](?:\.(weight|length|width|height))?$`)
	servicePath    = regexp.MustCompile(`^services\[\d+\]\.data\.?(.*)$`)
)

// FormField names the form field of a field path in the service's answer.
func FormField(path string) string {
	path = shipmentPrefix.ReplaceAllString(path, "")
	if m := packagePath.FindStringSubmatch(path); m != nil {
		if m[2] == "" {
			return "packages"
		}
		return "pkg_" + m[2] + "_" + m[1]
	}
	if m := servicePath.FindStringSubmatch(path); m != nil {
		if m[1] == "" {
			return "cod"
		}
		return codField(m[1])
	}
	if field := customsField(path); field != "" {
		return field
	}
	switch {
	case strings.HasPrefix(path, "to."):
		return "to_" + strings.TrimPrefix(path, "to.")
	case strings.HasPrefix(path, "from"):
		return "sender"
	}
	switch path {
	case "label_less", "reference", "pickup_date", "note", "delivery_branch", "pickup_branch":
		return path
	case "pickup_branch_location":
		return "pickup_branch"
	case "delivery_branch_location":
		return "delivery_branch"
	case "type":
		return "handover"
	case "service_id", "carrier", "currency", "payment_type", "serviceId":
		return "offer"
	case "packages":
		return "packages"
	case "pickupBranch":
		return "pickup_branch"
	case "referenceNumber":
		return "reference"
	}
	return "form"
}
