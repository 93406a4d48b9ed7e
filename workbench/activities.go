package workbench

import (
	"context"
	"strings"

	"shipdesk/apperr"
	"shipdesk/client/returns"
	"shipdesk/client/transport"
	"shipdesk/exactlyonce"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/textin"
)

// AddNote adds an internal note: the customer never sees it. key is the
// form's request key: the same form posted again is not sent again.
func (w *Workbench) AddNote(ctx context.Context, id int64, key, text string, by int64) (storage.Commission, error) {
	return w.activity(ctx, id, key, false, text, by)
}

// SendMessage sends a public message to the customer, once per form.
func (w *Workbench) SendMessage(ctx context.Context, id int64, key, text string, by int64) (storage.Commission, error) {
	return w.activity(ctx, id, key, true, text, by)
}

// activity sends a note or a message as a recorded intent: recorded before the
// call, never sent twice by a repeated post; a lost answer is settled by
// reading the commission's activities back.
func (w *Workbench) activity(ctx context.Context, id int64, key string, public bool, text string, by int64) (storage.Commission, error) {
	field := "note_text"
	if public {
		field = "message_text"
	}
	text, problem := textin.Lines(text, 5000)
	switch {
	case textin.IsUnreadable(problem):
		return storage.Commission{}, invalid(apperr.Problems{field: problem})
	case !problem.IsZero() || text == "":
		return storage.Commission{}, invalid(apperr.Problems{field: apperr.Msg("ret.err.text")})
	}
	if !requestkey.Valid(key) {
		return storage.Commission{}, invalid(apperr.Problems{field: apperr.Msg("ret.err.damaged_commission")})
	}
	c, err := w.db.CommissionByID(ctx, id)
	if err != nil {
		return c, err
	}
	if c.RemoteID == nil {
		return c, apperr.New(apperr.Conflict, "ret.err.not_at_service", id)
	}
	a, fresh, err := w.db.BeginActivity(ctx, storage.Activity{RequestKey: key, CommissionID: id, Public: public, Text: text, CreatedAt: w.now()}, by)
	if err != nil {
		return c, err
	}
	if !fresh {
		if a.State == storage.ActivitySent {
			return c, nil // this form was sent already
		}
		return c, apperr.New(apperr.Conflict, "ret.err.sent_unconfirmed")
	}
	ctx, callCtx, cancel := exactlyonce.Detach(ctx, w.CreateTimeout)
	defer cancel()
	got, err := w.api.AddActivity(callCtx, *c.RemoteID, public, text)
	switch {
	case err == nil:
		if err := w.activitySent(ctx, a, got.ID); err != nil {
			return c, err
		}
	case transport.IsRefused(err):
		if derr := w.db.DropActivity(ctx, a.ID); derr != nil {
			return c, derr
		}
		return c, mapError("ret.doing.add_activity", err)
	default:
		w.log.Warn("activity outcome unknown", "commission", id, "activity", a.ID, "err", err)
		if err := w.db.ActivityLost(ctx, a.ID, err.Error()); err != nil {
			return c, err
		}
	}
	return w.Refresh(ctx, id)
}

// settleActivities marks open activities sent when the commission the service
// reports holds them (same kind and text), so a lost answer is never sent again.
func (w *Workbench) settleActivities(ctx context.Context, id int64, rc *returns.Commission) error {
	open, err := w.db.OpenActivities(ctx, id)
	if err != nil || len(open) == 0 {
		return err
	}
	taken := map[int64]bool{}
	for _, a := range open {
		for _, ra := range rc.Activities {
			if !taken[ra.ID] && ra.Public == a.Public && strings.TrimSpace(ra.Text) == a.Text {
				taken[ra.ID] = true
				if err := w.activitySent(ctx, a, ra.ID); err != nil {
					return err
				}
				break
			}
		}
	}
	return nil
}
