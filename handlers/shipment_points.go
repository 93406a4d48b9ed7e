package handlers

import (
	"context"
	"fmt"

	"shipdesk/desk"
	"shipdesk/storage"
	"shipdesk/views"
)

// shipmentPoints reads the points a shipment's order names (desk.Desk).
type shipmentPoints interface {
	ShipmentPoints(ctx context.Context, s storage.Shipment) (pickup, delivery *desk.ShipmentPoint)
}

// pointsOf are the shipment's hand-over and delivery points for its page.
func (h *Handlers) pointsOf(ctx context.Context, s storage.Shipment) []views.ShipmentPointRow {
	pickup, delivery := h.ShipDesk.ShipmentPoints(ctx, s)
	var out []views.ShipmentPointRow
	for _, p := range []struct {
		role string
		at   *desk.ShipmentPoint
	}{{"pickup", pickup}, {"delivery", delivery}} {
		if p.at == nil {
			continue
		}
		row := views.ShipmentPointRow{Role: p.role, Code: p.at.Code, Any: p.at.Any}
		if pt := p.at.Point; pt != nil {
			row.Known, row.Name, row.Address = true, pt.Name, fmt.Sprintf("%s, %s %s", pt.Street, pt.Zip, pt.City)
		}
		out = append(out, row)
	}
	return out
}
