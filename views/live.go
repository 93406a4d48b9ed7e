package views

import (
	"context"
	"time"

	"shipdesk/i18n"
)

// Pages that show a state that may still change ask for their live part
// again on these cadences (htmx "every"), re-reading the database; the
// pollers keep the records current.
const (
	LiveDetail = "every 4s"  // a shipment's or commission's page, a batch's progress
	LiveList   = "every 15s" // the lists of shipments and commissions
	LiveHome   = "every 30s" // the home page's counts
)

// Age says how long before now a record was last checked with the service:
// "checked 2 min ago", "ověřeno před 2 min". A time after now (clocks that
// differ by a little) reads as just now.
func Age(ctx context.Context, at *time.Time, now time.Time) string {
	if at == nil || at.IsZero() {
		return T(ctx, "live.age.never")
	}
	d := now.Sub(*at)
	switch {
	case d < time.Minute:
		return T(ctx, "live.age.now")
	case d < time.Hour:
		return i18n.N(ctx, "live.age.minutes", int(d/time.Minute))
	case d < 48*time.Hour:
		return i18n.N(ctx, "live.age.hours", int(d/time.Hour))
	}
	return i18n.N(ctx, "live.age.days", int(d/(24*time.Hour)))
}

// ShipmentState is a shipment's state in words, the one way every list and
// its page say it: our order's state until the service has it, then the
// service's status; and its label's state when it has one.
func ShipmentState(ctx context.Context, s ShipmentRow) (state, label string) {
	return ShipmentStateWords(ctx, s.State, s.Status), LabelState(ctx, s.LabelStatus, s.CodeOnly)
}

// stateBadge is the badge class of a shipment's state in words.
func stateBadge(s ShipmentRow) string {
	if s.State != "created" {
		return statusBadge(s.State)
	}
	return statusBadge(s.Status)
}

// stateStatus is the code a shipment's state badge carries (data-status).
func stateStatus(s ShipmentRow) string {
	if s.State != "created" {
		return s.State
	}
	return s.Status
}

// anyChanging says whether some shipment of a list may still change.
func anyChanging(rows []ShipmentRow) bool {
	for _, r := range rows {
		if r.Changing {
			return true
		}
	}
	return false
}

// anyCommissionChanging says whether some commission of a list may still
// change.
func anyCommissionChanging(rows []CommissionRow) bool {
	for _, r := range rows {
		if r.Changing {
			return true
		}
	}
	return false
}
