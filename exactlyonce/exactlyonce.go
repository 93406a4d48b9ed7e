// Package exactlyonce is the one protocol by which shipdesk creates a thing
// at the service exactly once: a shipment (shipments/create) or a commission
// (returns create), each through an adapter of its own (Kind).
//
// The intent is recorded before the create call is sent, and so is every
// attempt, with its deadline: the call's time limit plus a settle window,
// because a slow service may still create the thing after we stopped
// waiting. "Not created" is concluded only when the service holds nothing
// under our reference after every deadline has passed; "again" asks the
// service once more under the record's lock before it sends, and adopts what
// is there. A late answer is always recorded; a second thing under one
// reference is kept as a duplicate to cancel.
package exactlyonce

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/transport"
	"shipdesk/clock"
	"shipdesk/storage"
)

// State is what the protocol reads of a local record.
type State struct {
	ID        int64
	State     string     // storage.StateOrdering, StateUnknown, StateMissing, …
	SettlesAt *time.Time // when its last attempt has settled at the service
}

// Kind is the adapter of one kind of record: R the local record, Q the create
// request, A the service's answer to a create, F what the service lists under
// our reference.
type Kind[R, Q, A, F any] struct {
	Name  string // for the log: "shipment", "commission"
	DB    *storage.DB
	Clock *clock.Clock
	Log   *slog.Logger
	// Timeout bounds one create call; Settle is how long after it the service
	// may still create the thing.
	Timeout, Settle time.Duration

	// The local record.
	StateOf     func(R) State
	Load        func(ctx context.Context, db *storage.DB, id int64) (R, error)
	Lock        func(ctx context.Context, tx *storage.DB, id int64) (R, error)
	Reopen      func(ctx context.Context, tx *storage.DB, r R, sent, deadline time.Time) (R, int64, error)
	DropIntent  func(ctx context.Context, id int64) error
	MarkMissing func(ctx context.Context, id int64, why apperr.Text, now time.Time) error
	MarkUnknown func(ctx context.Context, id int64, why apperr.Text) error
	Unsettled   func(ctx context.Context, now time.Time) ([]R, error)
	Request     func(R) (Q, error) // the create request the record keeps

	// The service.
	Create func(ctx context.Context, q Q) (A, error)
	Record func(ctx context.Context, id int64, a A) error // a created answer
	// Created, when set (Record is then not needed), does in one step what
	// Send does after a created answer: the attempt ended as created at at,
	// the answer recorded and the record read again (Load).
	Created func(ctx context.Context, id, attempt int64, a A, at time.Time) (R, error)
	Find    func(ctx context.Context, r R) ([]F, error) // under our reference, oldest first
	Adopt   func(ctx context.Context, db *storage.DB, r R, found []F) error

	// Words for a person.
	Failed  func(err error) error             // a failed call, for a person
	Refused apperr.Text                       // a refusal the service gave no words for
	Waiting func(until time.Time) apperr.Text // the answer was lost; sure after until
	Missing func(r R) apperr.Text             // proved not created
}

// recordTimeout bounds recording an outcome after the call.
const recordTimeout = 30 * time.Second

// Deadline is when an attempt sent at sent has settled at the service.
func (k *Kind[R, Q, A, F]) Deadline(sent time.Time) time.Time { return sent.Add(k.Timeout + k.Settle) }

// Detach gives contexts that outlive the person's request, because closing
// the tab must not cut off a call that was sent, nor the recording of its
// outcome: call bounds the upstream call (timeout), ctx (longer) what follows.
func Detach(parent context.Context, timeout time.Duration) (ctx, call context.Context, cancel func()) {
	ctx, cancelAll := context.WithTimeout(context.WithoutCancel(parent), timeout+recordTimeout)
	call, cancelCall := context.WithTimeout(ctx, timeout)
	return ctx, call, func() { cancelCall(); cancelAll() }
}

// Send makes one recorded attempt and records what happened. first: the
// record's first attempt, whose refusal leaves nothing worth keeping (the
// intent is dropped and the zero record returned with the refusal).
func (k *Kind[R, Q, A, F]) Send(ctx context.Context, r R, attempt int64, q Q, first bool) (R, error) {
	st := k.StateOf(r)
	ctx, callCtx, cancel := Detach(ctx, k.Timeout)
	defer cancel()
	created, err := k.Create(callCtx, q)
	switch {
	case err == nil && k.Created != nil:
		rec, err := k.Created(ctx, st.ID, attempt, created, k.Clock.Now())
		if err != nil {
			return r, err
		}
		k.Log.Info(k.Name+" created", k.Name, st.ID)
		return rec, nil
	case err == nil:
		if err := k.DB.EndAttempt(ctx, attempt, storage.AttemptCreated, k.Clock.Now()); err != nil {
			k.Log.Warn("end attempt", "attempt", attempt, "err", err)
		}
		if err := k.Record(ctx, st.ID, created); err != nil {
			return r, err
		}
		k.Log.Info(k.Name+" created", k.Name, st.ID)
	case transport.IsRefused(err):
		if err := k.DB.EndAttempt(ctx, attempt, storage.AttemptRefused, k.Clock.Now()); err != nil {
			return r, err
		}
		if first {
			if err := k.DropIntent(ctx, st.ID); err != nil {
				return r, err
			}
			var none R
			return none, k.Failed(err)
		}
		// Earlier attempts settled without one; this one created none either.
		why := apperr.TextOf(k.Failed(err))
		if why.IsZero() {
			why = k.Refused
		}
		if err := k.MarkMissing(ctx, st.ID, why, k.Clock.Now()); err != nil {
			return r, err
		}
		return r, k.Failed(err)
	default:
		k.Log.Warn(k.Name+" outcome unknown", k.Name, st.ID, "err", err)
		if err := k.DB.EndAttempt(ctx, attempt, storage.AttemptUnknown, k.Clock.Now()); err != nil {
			return r, err
		}
		until := k.Deadline(k.Clock.Now())
		if st.SettlesAt != nil {
			until = *st.SettlesAt
		}
		if err := k.MarkUnknown(ctx, st.ID, k.Waiting(until)); err != nil {
			return r, err
		}
		if settled, rerr := k.Reconcile(ctx, st.ID); rerr == nil {
			return settled, nil
		}
	}
	return k.Load(ctx, k.DB, st.ID)
}

// Reconcile settles a record whose answer was lost by asking the service for
// what it holds under our reference: found means created (and any second one
// is a duplicate); none means missing, but only once every attempt's
// deadline has passed: before that the service may still create it.
func (k *Kind[R, Q, A, F]) Reconcile(ctx context.Context, id int64) (R, error) {
	r, err := k.Load(ctx, k.DB, id)
	if err != nil {
		return r, err
	}
	st := k.StateOf(r)
	if st.State != storage.StateUnknown && st.State != storage.StateOrdering {
		return r, nil
	}
	found, err := k.Find(ctx, r)
	if err != nil {
		return r, err
	}
	now := k.Clock.Now()
	switch {
	case len(found) > 0:
		if err := k.Adopt(ctx, k.DB, r, found); err != nil {
			return r, err
		}
		k.Log.Info(k.Name+" reconciled: created", k.Name, id)
	case st.SettlesAt != nil && now.Before(*st.SettlesAt):
		// Too early to say: an attempt may still be creating it.
	default:
		if err := k.MarkMissing(ctx, id, k.Missing(r), now); err != nil {
			return r, err
		}
		k.Log.Info(k.Name+" reconciled: missing", k.Name, id)
	}
	return k.Load(ctx, k.DB, id)
}

// ReconcileAll settles every record whose outcome is open, and those left
// "ordering" after their deadline (the process stopped during the call).
func (k *Kind[R, Q, A, F]) ReconcileAll(ctx context.Context) error {
	list, err := k.Unsettled(ctx, k.Clock.Now())
	if err != nil {
		return err
	}
	var errs []error
	for _, r := range list {
		if _, err := k.Reconcile(ctx, k.StateOf(r).ID); err != nil && !errors.Is(err, context.Canceled) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Again sends a record that reconciliation proved missing. Under the
// record's lock it asks the service by our reference once more, right before
// recording the new attempt: what is there after all is adopted, not created
// again. A record that is not missing is refused with the reason (Reopen says it).
func (k *Kind[R, Q, A, F]) Again(ctx context.Context, id int64) (R, error) {
	var (
		r       R
		attempt int64
		adopted bool
	)
	err := k.DB.InTx(ctx, func(tx *storage.DB) error {
		cur, err := k.Lock(ctx, tx, id)
		if err != nil {
			return err
		}
		if k.StateOf(cur).State != storage.StateMissing { // say why, without asking the service
			now := k.Clock.Now()
			_, _, err := k.Reopen(ctx, tx, cur, now, k.Deadline(now))
			return err
		}
		found, err := k.Find(ctx, cur)
		if err != nil {
			return err
		}
		if len(found) > 0 {
			adopted = true
			return k.Adopt(ctx, tx, cur, found)
		}
		now := k.Clock.Now()
		r, attempt, err = k.Reopen(ctx, tx, cur, now, k.Deadline(now))
		return err
	})
	switch {
	case err != nil:
		return r, err
	case adopted:
		return k.Load(ctx, k.DB, id)
	}
	q, err := k.Request(r)
	if err != nil {
		return r, err
	}
	return k.Send(ctx, r, attempt, q, false)
}
