package workbench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/returns"
	"shipdesk/client/transport"
	"shipdesk/storage"
	"shipdesk/textin"
)

// Creating a commission exactly once, as the shipping desk orders shipments:
// every create call is an attempt recorded before it is sent, with its
// deadline (the call's time limit plus a settle window); "not created" is
// concluded only after every deadline has passed; "create it again" asks the
// service by our reference under the commission's lock first; a late answer
// is always recorded; a second commission under our reference is kept as a
// duplicate for the agent to cancel.

// recordTimeout bounds recording an outcome after the call.
const recordTimeout = 30 * time.Second

// detach gives contexts that outlive the agent's request: call bounds the
// upstream call, ctx (longer) the recording of its outcome.
func (w *Workbench) detach(parent context.Context) (ctx, call context.Context, cancel func()) {
	ctx, cancelAll := context.WithTimeout(context.WithoutCancel(parent), w.CreateTimeout+recordTimeout)
	call, cancelCall := context.WithTimeout(ctx, w.CreateTimeout)
	return ctx, call, func() { cancelCall(); cancelAll() }
}

// deadline is when an attempt sent at sent has settled at the service.
func (w *Workbench) deadline(sent time.Time) time.Time { return sent.Add(w.CreateTimeout + w.Settle) }

// send makes one recorded attempt and stores what happened. first: the
// commission's first attempt, whose refusal leaves nothing worth keeping.
func (w *Workbench) send(ctx context.Context, c storage.Commission, attempt int64, req returns.CreateRequest, first bool) (storage.Commission, error) {
	ctx, callCtx, cancel := w.detach(ctx)
	defer cancel()
	created, err := w.api.Create(callCtx, req)
	switch {
	case err == nil:
		if err := w.db.EndAttempt(ctx, attempt, storage.AttemptCreated, w.now()); err != nil {
			w.log.Warn("end attempt", "attempt", attempt, "err", err)
		}
		if err := w.record(ctx, c.ID, created); err != nil {
			return c, err
		}
	case transport.IsRefused(err):
		if err := w.db.EndAttempt(ctx, attempt, storage.AttemptRefused, w.now()); err != nil {
			return c, err
		}
		if first {
			if err := w.db.DropCommissionIntent(ctx, c.ID); err != nil {
				return c, err
			}
			return storage.Commission{}, mapError("ret.doing.create", err)
		}
		why := apperr.TextOf(mapError("ret.doing.create", err))
		if why.IsZero() {
			why = apperr.Msg("ret.err.refused_commission")
		}
		if err := w.db.MarkCommissionMissing(ctx, c.ID, why, w.now()); err != nil {
			return c, err
		}
		return c, mapError("ret.doing.create", err)
	default:
		w.log.Warn("commission outcome unknown", "commission", c.ID, "err", err)
		if err := w.db.EndAttempt(ctx, attempt, storage.AttemptUnknown, w.now()); err != nil {
			return c, err
		}
		until := w.deadline(w.now())
		if c.SettlesAt != nil {
			until = *c.SettlesAt
		}
		why := apperr.Msg("ret.err.waiting", apperr.Deadline(until))
		if err := w.db.MarkCommissionOutcome(ctx, c.ID, storage.StateUnknown, why); err != nil {
			return c, err
		}
		if settled, rerr := w.Reconcile(ctx, c.ID); rerr == nil {
			return settled, nil
		}
	}
	return w.db.CommissionByID(ctx, c.ID)
}

// record stores a commission as the service reports it, with its deadline; a
// second commission under our reference is kept as a duplicate.
func (w *Workbench) record(ctx context.Context, id int64, c *returns.Commission) error {
	return w.recordOn(ctx, w.db, id, c)
}

func (w *Workbench) recordOn(ctx context.Context, db *storage.DB, id int64, c *returns.Commission) error {
	textin.FromService(c) // the service's text may hold what PostgreSQL cannot store
	raw, err := json.Marshal(c)
	if err != nil {
		return err
	}
	next := w.now().Add(w.SyncEvery)
	st := storage.CommissionState{RemoteID: c.ID, Number: c.Number, Status: c.Status, Raw: raw, Lodged: lodged(c)}
	if openClaim(c) {
		st.PeriodDays = WarrantyDays
	}
	duplicate, err := db.RecordCommission(ctx, id, st, w.now(), &next)
	if duplicate {
		w.log.Warn("duplicate commission at the service", "commission", id, "number", c.Number)
	}
	if err != nil || duplicate {
		return err
	}
	return w.settleActivities(ctx, id, c)
}

// atService lists the service's commissions that carry our reference, oldest first.
func (w *Workbench) atService(ctx context.Context, c storage.Commission) ([]returns.Commission, error) {
	var out []returns.Commission
	for page := 1; page <= 20; page++ {
		list, err := w.api.List(ctx, returns.ListQuery{Customer: c.CustomerEmail, Page: page, PerPage: 100})
		if err != nil {
			return nil, mapError("ret.doing.check", err)
		}
		for _, rc := range list.Commissions {
			if rc.Reference == c.Reference {
				out = append(out, rc)
			}
		}
		if page >= list.Pages {
			break
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// adopt binds a commission to the one the service holds (the one it has
// already, else the oldest) and keeps any other as a duplicate.
func (w *Workbench) adopt(ctx context.Context, db *storage.DB, c storage.Commission, found []returns.Commission) error {
	primary := 0
	for i, rc := range found {
		if c.RemoteID != nil && rc.ID == *c.RemoteID {
			primary = i
		}
	}
	full, err := w.api.Get(ctx, found[primary].ID)
	if err != nil {
		return mapError("ret.doing.read", err)
	}
	if err := w.recordOn(ctx, db, c.ID, full); err != nil {
		return err
	}
	for i, rc := range found {
		if i == primary {
			continue
		}
		if added, err := db.AddCommissionDuplicate(ctx, c.ID, rc.Number); err != nil {
			return err
		} else if added {
			w.log.Warn("duplicate commission at the service", "commission", c.ID, "reference", c.Reference, "number", rc.Number)
		}
	}
	return nil
}

// Reconcile settles a commission whose answer was lost: the service is asked
// for the customer's commissions and ours is found by its reference. None
// found means missing only once every attempt's deadline has passed.
func (w *Workbench) Reconcile(ctx context.Context, id int64) (storage.Commission, error) {
	c, err := w.db.CommissionByID(ctx, id)
	if err != nil || (c.State != storage.StateUnknown && c.State != storage.StateOrdering) {
		return c, err
	}
	found, err := w.atService(ctx, c)
	if err != nil {
		return c, err
	}
	now := w.now()
	switch {
	case len(found) > 0:
		if err := w.adopt(ctx, w.db, c, found); err != nil {
			return c, err
		}
	case c.SettlesAt != nil && now.Before(*c.SettlesAt):
		// Too early to say: an attempt may still be creating it.
	default:
		why := apperr.Msg("ret.err.missing", c.Reference)
		if err := w.db.MarkCommissionMissing(ctx, id, why, now); err != nil {
			return c, err
		}
	}
	return w.db.CommissionByID(ctx, id)
}

// ReconcileAll settles every commission whose outcome is open.
func (w *Workbench) ReconcileAll(ctx context.Context) error {
	list, err := w.db.UnsettledCommissions(ctx, w.now())
	if err != nil {
		return err
	}
	var errs []error
	for _, c := range list {
		if _, err := w.Reconcile(ctx, c.ID); err != nil && !errors.Is(err, context.Canceled) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// CreateAgain sends a commission that reconciliation proved missing. Under its
// lock the service is asked by our reference once more, right before the new
// attempt is recorded: one that is there after all is adopted.
func (w *Workbench) CreateAgain(ctx context.Context, id int64) (storage.Commission, error) {
	var (
		c       storage.Commission
		attempt int64
		adopted bool
	)
	err := w.db.InTx(ctx, func(tx *storage.DB) error {
		cur, err := tx.LockCommission(ctx, id)
		if err != nil {
			return err
		}
		if cur.State != storage.StateMissing { // say why, without asking the service
			_, _, err := tx.ReopenCommission(ctx, cur, w.now(), w.deadline(w.now()))
			return err
		}
		found, err := w.atService(ctx, cur)
		if err != nil {
			return err
		}
		if len(found) > 0 {
			adopted = true
			return w.adopt(ctx, tx, cur, found)
		}
		now := w.now()
		c, attempt, err = tx.ReopenCommission(ctx, cur, now, w.deadline(now))
		return err
	})
	switch {
	case err != nil:
		return c, err
	case adopted:
		return w.db.CommissionByID(ctx, id)
	}
	var req returns.CreateRequest
	if err := json.Unmarshal(c.Request, &req); err != nil {
		return c, fmt.Errorf("decode stored commission %d: %w", id, err)
	}
	return w.send(ctx, c, attempt, req, false)
}

// CancelDuplicate cancels an extra commission the service holds under our
// reference (by its number) and forgets it.
func (w *Workbench) CancelDuplicate(ctx context.Context, id int64, number string) (storage.Commission, error) {
	c, err := w.db.CommissionByID(ctx, id)
	if err != nil {
		return c, err
	}
	if !slices.Contains(c.Duplicates, number) {
		return c, invalid(apperr.Problems{"duplicate": apperr.Msg("ret.err.not_duplicate")})
	}
	found, err := w.atService(ctx, c)
	if err != nil {
		return c, err
	}
	for _, rc := range found {
		if rc.Number != number {
			continue
		}
		if _, err := w.api.Edit(ctx, returns.EditRequest{ID: rc.ID, Status: "cancelled"}); err != nil {
			return c, mapError("ret.doing.cancel_extra", err)
		}
		if err := w.db.DropCommissionDuplicate(ctx, id, number); err != nil {
			return c, err
		}
		w.log.Info("duplicate commission cancelled", "commission", id, "number", number)
		return w.db.CommissionByID(ctx, id)
	}
	// Not listed any more: gone at the service already.
	if err := w.db.DropCommissionDuplicate(ctx, id, number); err != nil {
		return c, err
	}
	return w.db.CommissionByID(ctx, id)
}
