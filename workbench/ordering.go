package workbench

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/returns"
	"shipdesk/exactlyonce"
	"shipdesk/storage"
	"shipdesk/textin"
)

// Creating a commission exactly once: the protocol is package exactlyonce's;
// the workbench supplies its adapter (creates): how a commission is recorded,
// created, found at the service by its reference and adopted.

// creates is the exactly-once protocol over the workbench's commissions.
func (w *Workbench) creates() *exactlyonce.Kind[storage.Commission, returns.CreateRequest, *returns.Commission, returns.Commission] {
	return &exactlyonce.Kind[storage.Commission, returns.CreateRequest, *returns.Commission, returns.Commission]{
		Name: "commission", DB: w.db, Clock: w.clock, Log: w.log, Timeout: w.CreateTimeout, Settle: w.Settle,
		StateOf: func(c storage.Commission) exactlyonce.State {
			return exactlyonce.State{ID: c.ID, State: c.State, SettlesAt: c.SettlesAt}
		},
		Load: func(ctx context.Context, db *storage.DB, id int64) (storage.Commission, error) {
			return db.CommissionByID(ctx, id)
		},
		Lock: func(ctx context.Context, tx *storage.DB, id int64) (storage.Commission, error) {
			return tx.LockCommission(ctx, id)
		},
		Reopen: func(ctx context.Context, tx *storage.DB, c storage.Commission, sent, deadline time.Time) (storage.Commission, int64, error) {
			return tx.ReopenCommission(ctx, c, sent, deadline)
		},
		DropIntent:  w.db.DropCommissionIntent,
		MarkMissing: w.db.MarkCommissionMissing,
		MarkUnknown: func(ctx context.Context, id int64, why apperr.Text) error {
			return w.db.MarkCommissionOutcome(ctx, id, storage.StateUnknown, why)
		},
		Unsettled: w.db.UnsettledCommissions,
		Request: func(c storage.Commission) (returns.CreateRequest, error) {
			var req returns.CreateRequest
			if err := json.Unmarshal(c.Request, &req); err != nil {
				return req, fmt.Errorf("decode stored commission %d: %w", c.ID, err)
			}
			return req, nil
		},
		Create:  w.api.Create,
		Created: w.created,
		Find:    w.atService,
		Adopt:   w.adopt,
		Failed:  func(err error) error { return mapError("ret.doing.create", err) },
		Refused: apperr.Msg("ret.err.refused_commission"),
		Waiting: func(until time.Time) apperr.Text { return apperr.Msg("ret.err.waiting", apperr.Deadline(until)) },
		Missing: func(c storage.Commission) apperr.Text { return apperr.Msg("ret.err.missing", c.Reference) },
	}
}

// deadline is when an attempt sent at sent has settled at the service.
func (w *Workbench) deadline(sent time.Time) time.Time { return w.creates().Deadline(sent) }

// record stores a later state of a commission as the service reports it;
// a second commission under our reference is kept as a duplicate.
func (w *Workbench) record(ctx context.Context, id int64, c *returns.Commission) error {
	st, next, err := w.stateOf(c)
	if err != nil {
		return err
	}
	duplicate, err := w.db.RecordCommission(ctx, id, st, w.now(), &next)
	return w.recorded(ctx, id, c, duplicate, err)
}

// created records the answer of a create call (exactlyonce.Kind.Created).
func (w *Workbench) created(ctx context.Context, id, attempt int64, c *returns.Commission, _ time.Time) (storage.Commission, error) {
	if err := w.recordCreated(ctx, w.db, id, attempt, c); err != nil {
		return storage.Commission{}, err
	}
	return w.db.CommissionByID(ctx, id)
}

// recordCreated records a commission found created, by its create's answer
// (attempt) or at the service (attempt 0), and in the same transaction a
// claim's intake confirmation with its mail: however the commission was
// created, the customer is confirmed once, and never without the record.
func (w *Workbench) recordCreated(ctx context.Context, db *storage.DB, id, attempt int64, c *returns.Commission) error {
	st, next, err := w.stateOf(c)
	if err != nil {
		return err
	}
	var duplicate bool
	err = db.InTx(ctx, func(tx *storage.DB) error {
		var err error
		duplicate, err = tx.RecordCreatedCommission(ctx, id, attempt, st, w.now(), &next)
		if err != nil || duplicate {
			return err
		}
		return w.confirmCreated(ctx, tx, id)
	})
	return w.recorded(ctx, id, c, duplicate, err)
}

// stateOf is what the service says of a commission as stored, and when it
// is read again.
func (w *Workbench) stateOf(c *returns.Commission) (storage.CommissionState, time.Time, error) {
	textin.FromService(c) // the service's text may hold what PostgreSQL cannot store
	raw, err := json.Marshal(c)
	if err != nil {
		return storage.CommissionState{}, time.Time{}, err
	}
	st := storage.CommissionState{RemoteID: c.ID, Number: c.Number, Status: c.Status, Raw: raw, Lodged: lodged(c)}
	if openClaim(c) {
		st.PeriodDays = WarrantyDays
	}
	return st, w.now().Add(w.SyncEvery), nil
}

// recorded follows a recorded answer: a duplicate is logged, the
// activities the answer lists are settled.
func (w *Workbench) recorded(ctx context.Context, id int64, c *returns.Commission, duplicate bool, err error) error {
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
	if err := w.recordCreated(ctx, db, c.ID, 0, full); err != nil {
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
// for the customer's commissions and ours is found by its reference
// (exactlyonce.Kind.Reconcile).
func (w *Workbench) Reconcile(ctx context.Context, id int64) (storage.Commission, error) {
	return w.creates().Reconcile(ctx, id)
}

// ReconcileAll settles every commission whose outcome is open.
func (w *Workbench) ReconcileAll(ctx context.Context) error { return w.creates().ReconcileAll(ctx) }

// CreateAgain sends a commission that reconciliation proved missing; one
// that is there after all is adopted (exactlyonce.Kind.Again).
func (w *Workbench) CreateAgain(ctx context.Context, id int64) (storage.Commission, error) {
	return w.creates().Again(ctx, id)
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
