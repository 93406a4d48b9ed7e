package desk

import (
	"context"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/storage"
)

// labelProblem says why a shipment has no label to print, or nil.
func labelProblem(s storage.Shipment) error {
	if why := noLabel(s); why != "" {
		return apperr.New(apperr.Conflict, "ship.err."+why, s.ID)
	}
	return nil
}

// noLabel says why a shipment has no label ready, as the suffix of its
// catalog keys; "" when it has one.
func noLabel(s storage.Shipment) string {
	switch {
	case s.State != storage.StateCreated:
		return "not_ordered"
	case Cancelled(s):
		return "cancelled"
	case s.Returned || s.Status == shipping.StatusDelivered:
		return "ended"
	case s.LabelMode == shipping.LabelCarrier:
		return "courier_label"
	case s.LabelStatus == shipping.LabelFailed:
		return "label_failed"
	case s.LabelStatus != shipping.LabelReady:
		return "label_pending"
	}
	return ""
}

// NoLabelToPrint says why a shipment's label does not go into a print, as a
// word for its catalog keys (not_ordered, cancelled, ended, courier_label,
// label_failed, label_pending, label_free); "" when it goes in.
func NoLabelToPrint(s storage.Shipment) string {
	if why := noLabel(s); why != "" {
		return why
	}
	if s.LabelMode == shipping.LabelCode {
		return "label_free"
	}
	return ""
}

// NotCancellable says why a shipment cannot be cancelled, as a word for its
// catalog keys (not_ordered, cancelled, with_carrier); "" when it can.
func NotCancellable(s storage.Shipment) string {
	switch {
	case CanCancel(s):
		return ""
	case s.State != storage.StateCreated:
		return "not_ordered"
	case Cancelled(s):
		return "cancelled"
	}
	return "with_carrier"
}

// Label fetches the label PDF of one shipment whose label is ready.
func (d *Desk) Label(ctx context.Context, id int64) ([]byte, error) {
	s, err := d.db.ShipmentByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := labelProblem(s); err != nil {
		return nil, err
	}
	pdf, err := d.ship.Label(ctx, []string{s.Tracking()})
	if err != nil {
		return nil, UpstreamError("ship.doing.label", err)
	}
	return pdf, nil
}

// Storno cancels a shipment at the service.
func (d *Desk) Storno(ctx context.Context, id int64) (storage.Shipment, error) {
	s, err := d.db.ShipmentByID(ctx, id)
	if err != nil {
		return s, err
	}
	if s.State != storage.StateCreated || s.CancelledAt != nil {
		return s, apperr.New(apperr.Conflict, "ship.err.not_active", id)
	}
	if err := d.ship.Storno(ctx, []string{s.Tracking()}); err != nil {
		return s, UpstreamError("ship.doing.cancel", err)
	}
	if err := d.db.MarkCancelled(ctx, id, d.now()); err != nil {
		return s, err
	}
	return d.db.ShipmentByID(ctx, id)
}

// What a shipment's page shows and may offer, from its stored state.

// NeedsRefresh says the label is still to come, so its page asks the service.
func NeedsRefresh(s storage.Shipment) bool {
	return s.State == storage.StateCreated && s.CancelledAt == nil && s.LabelStatus == shipping.LabelPending
}

// LabelShown is the label's status as the lists show it: none for a
// cancelled shipment, whose label is neither coming nor offered (a label
// stored as PENDING would read "being made").
func LabelShown(s storage.Shipment) string {
	return labelShown(s.Status, s.CancelledAt != nil, s.LabelStatus)
}

// ExportLabel is the label's status of an exported row as the lists show it
// (LabelShown), and whether it is a hand-over code rather than a label
// (CodeOnly).
func ExportLabel(r storage.ExportRow) (status string, code bool) {
	return labelShown(r.Status, false, r.LabelStatus), codeOnly(r.LabelMode, r.LabelLess)
}

func labelShown(status string, cancelledHere bool, label string) string {
	if cancelledHere || status == shipping.StatusCancelled {
		return ""
	}
	return label
}

func codeOnly(mode string, labelLess bool) bool {
	return mode == shipping.LabelCode || (mode == "" && labelLess)
}

// CodeOnly says the shipment is label-free: it is handed over with a code,
// so its pages speak of the code, never of a label. Before the service's
// answer names the label mode, the order's own label-free choice says it.
func CodeOnly(s storage.Shipment) bool {
	return codeOnly(s.LabelMode, s.LabelLess)
}

// Cancelled says the shipment was cancelled, here or at the service.
func Cancelled(s storage.Shipment) bool {
	return s.CancelledAt != nil || s.Status == shipping.StatusCancelled
}

// CanCancel says a storno may still be asked for: the service cancels a
// shipment only in CREATED and EXPORTED (or before we know its status), not
// once the courier is to pick it up (ONPICKUP) or has it. The shipment page,
// its confirm step and the list's bulk storno all ask this.
func CanCancel(s storage.Shipment) bool {
	if s.State != storage.StateCreated || Cancelled(s) || s.Returned {
		return false
	}
	switch s.Status {
	case "", shipping.StatusCreated, shipping.StatusExported:
		return true
	}
	return false
}

// COD is the amount the carrier collects, when it collects one.
func COD(s storage.Shipment) (Money, bool) {
	if s.CODValue == nil || s.CODCurrency == nil {
		return Money{}, false
	}
	return Money{Value: *s.CODValue, Currency: *s.CODCurrency}, true
}

// Insured is the insured value, when the shipment is insured; the shop insures in crowns.
func Insured(s storage.Shipment) (Money, bool) {
	if s.InsuredValue == nil {
		return Money{}, false
	}
	return Money{Value: *s.InsuredValue, Currency: "CZK"}, true
}
