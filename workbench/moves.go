package workbench

import (
	"context"
	"slices"

	"shipdesk/apperr"
	"shipdesk/client/returns"
	"shipdesk/storage"
)

// Move asks for one of the moves the status allows; "outgoing" orders the
// shipment back to the customer.
func (w *Workbench) Move(ctx context.Context, id int64, to string) (storage.Commission, error) {
	c, err := w.Refresh(ctx, id)
	if err != nil {
		return c, err
	}
	if c.RemoteID == nil || !slices.Contains(Moves[c.Status], to) {
		return c, apperr.New(apperr.Conflict, "ret.err.move", id, statusText(c.Status), statusText(to))
	}
	req := returns.EditRequest{ID: *c.RemoteID, Status: to}
	if to == "outgoing" {
		yes := true
		req.ShipmentToCustomer = &yes
	}
	edited, err := w.api.Edit(ctx, req)
	if err != nil {
		return c, mapError("ret.doing.change", err)
	}
	if err := w.record(ctx, id, edited); err != nil {
		return c, err
	}
	return w.db.CommissionByID(ctx, id)
}
