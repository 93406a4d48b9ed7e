package desk

import (
	"context"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/storage"
)

// labelProblem says why a shipment has no label to print, or nil.
func labelProblem(s storage.Shipment) error {
	switch {
	case s.State != storage.StateCreated:
		return apperr.New(apperr.Conflict, "ship.err.not_ordered", s.ID)
	case s.CancelledAt != nil:
		return apperr.New(apperr.Conflict, "ship.err.cancelled", s.ID)
	case s.LabelMode == shipping.LabelCarrier:
		return apperr.New(apperr.Conflict, "ship.err.courier_label", s.ID)
	case s.LabelStatus == shipping.LabelFailed:
		return apperr.New(apperr.Conflict, "ship.err.label_failed", s.ID)
	case s.LabelStatus != shipping.LabelReady:
		return apperr.New(apperr.Conflict, "ship.err.label_pending", s.ID)
	}
	return nil
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

// PrintBatch fetches one PDF with the labels of the shipments (one call) and
// marks them printed.
func (d *Desk) PrintBatch(ctx context.Context, ids []int64) ([]byte, error) {
	if len(ids) == 0 {
		return nil, apperr.Fields("ship.err.select_labels", apperr.Problems{"ids": apperr.Msg("ship.err.select_one")})
	}
	list, err := d.db.ShipmentsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	var numbers []string
	var printable []int64
	for _, s := range list {
		if labelProblem(s) == nil {
			numbers, printable = append(numbers, s.Tracking()), append(printable, s.ID)
		}
	}
	if len(numbers) == 0 {
		return nil, apperr.New(apperr.Conflict, "ship.err.none_ready")
	}
	pdf, err := d.ship.Label(ctx, numbers)
	if err != nil {
		return nil, UpstreamError("ship.doing.labels", err)
	}
	return pdf, d.db.MarkPrinted(ctx, printable, d.now())
}

// Manifest fetches the hand-over protocol of a day's shipments.
func (d *Desk) Manifest(ctx context.Context, day time.Time) ([]byte, int, error) {
	list, err := d.db.ShipmentsOfDay(ctx, day)
	if err != nil {
		return nil, 0, err
	}
	if len(list) == 0 {
		return nil, 0, apperr.New(apperr.NotFound, "ship.err.no_day", day.Format("2006-01-02"))
	}
	numbers := make([]string, 0, len(list))
	for _, s := range list {
		numbers = append(numbers, s.Tracking())
	}
	pdf, err := d.ship.Manifest(ctx, numbers)
	if err != nil {
		return nil, 0, UpstreamError("ship.doing.manifest", err)
	}
	return pdf, len(list), nil
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

// Cancelled says the shipment was cancelled, here or at the service.
func Cancelled(s storage.Shipment) bool {
	return s.CancelledAt != nil || s.Status == shipping.StatusCancelled
}

// CanCancel says a storno may still be asked for.
func CanCancel(s storage.Shipment) bool {
	return s.State == storage.StateCreated && !Cancelled(s) && s.Status != shipping.StatusDelivered
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
