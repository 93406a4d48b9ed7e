package workbench

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/returns"
	"shipdesk/client/transport"
	"shipdesk/i18n"
	"shipdesk/storage"
)

// Move asks for one of the moves the status allows; "outgoing" orders the
// shipment back to the customer. A move that settles the claim (sent back or
// closed) records its resolution first, so a lost answer never loses it; a
// move the service refuses forgets it again.
func (w *Workbench) Move(ctx context.Context, id int64, to string, res Resolution, by int64) (storage.Commission, error) {
	if !slices.Contains(States, to) {
		return storage.Commission{}, apperr.New(apperr.Invalid, "ret.err.move_unknown")
	}
	c, err := w.Refresh(ctx, id)
	if err != nil {
		return c, err
	}
	if c.RemoteID == nil || !slices.Contains(MovesOf(c.Type, c.Status), to) {
		return c, apperr.New(apperr.Conflict, "ret.err.move", cmp.Or(c.Number, fmt.Sprint(id)), statusText(c.Status), statusText(to))
	}
	if p := res.Check(ctx, to); len(p) > 0 {
		return c, apperr.Fields("ret.res.err.form", p)
	}
	settling := slices.Contains(Settling, to)
	if settling {
		at := w.now()
		r := storage.Resolution{Code: res.Code, Reason: res.Reason, At: at, By: by, SettledDays: DaysLeft(at, lodgedAt(c))}
		if err := w.db.SetResolution(ctx, id, r); err != nil {
			return c, err
		}
	}
	req := returns.EditRequest{ID: *c.RemoteID, Status: to}
	if to == "outgoing" {
		yes := true
		req.ShipmentToCustomer = &yes
	}
	edited, err := w.api.Edit(ctx, req)
	if err != nil {
		if settling && transport.IsRefused(err) {
			if cerr := w.db.ClearResolution(ctx, id); cerr != nil {
				return c, cerr
			}
		}
		return c, mapError("ret.doing.change", err)
	}
	if err := w.record(ctx, id, edited); err != nil {
		return c, err
	}
	c, err = w.db.CommissionByID(ctx, id)
	if err == nil && settling {
		w.confirmQuietly(ctx, c, w.IssueSettlement, by)
	}
	return c, err
}

// lodgedAt is when the service took a stored commission, on its clock; our
// record's creation when its answer does not say.
func lodgedAt(c storage.Commission) time.Time {
	var rc returns.Commission
	if len(c.Raw) > 0 && json.Unmarshal(c.Raw, &rc) == nil {
		if t := lodged(&rc); t != nil {
			return *t
		}
	}
	return c.CreatedAt
}

// StatusWord is a commission's status in words of the request's language
// ("čeká na zboží"), "not created" before the service has it; a status the
// catalog does not know yet stays as the service wrote it.
func StatusWord(ctx context.Context, status string) string {
	switch {
	case status == "":
		return i18n.T(ctx, "ret.state.missing")
	case i18n.Has("ret.status." + status):
		return i18n.T(ctx, "ret.status."+status)
	}
	return status
}
