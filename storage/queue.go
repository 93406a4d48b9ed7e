package storage

import (
	"context"
	"fmt"
	"time"
)

// A queue is a table of work recorded in the transaction of the change that
// causes it, once per event, and sent later by a worker: the mail outbox
// (mail_outbox) and the writes back to the shop (shop_writes). Each keeps the
// same columns for it: state (queued, sending, sent, failed), attempts,
// next_attempt_at, leased_until, leased_by, last_error and sent_at. This file
// is their one lease and their one way to settle an attempt.
type queue struct {
	table   string
	kind    string // names the lease's advisory lock
	columns string // what a lease returns
	due     string // more conditions on a due row (alias q), "" for none
}

// Queue states, the mail outbox's (MailQueued, …) under the names of any queue.
const (
	QueueQueued  = MailQueued
	QueueSending = MailSending
	QueueSent    = MailSent
	QueueFailed  = MailFailed
)

// lease takes due rows of the queue into dest, the way the pollers lease
// shipments: one lease of the queue after the other (an advisory lock), rows
// another writer holds passed over, each marked sending and held for the
// lease. A row still sending whose lease ran out was held by a worker that
// stopped mid-send: it is due again. Every lease counts as an attempt. then,
// when not nil, reads more in the lease's transaction.
func (db *DB) lease(ctx context.Context, q queue, c Lease, dest any, then func(tx *DB) error) error {
	due := ""
	if q.due != "" {
		due = " AND " + q.due
	}
	stmt := `
UPDATE ` + q.table + ` SET state = 'sending', attempts = attempts + 1,
    leased_until = $1::timestamptz + $2 * interval '1 microsecond', leased_by = $3
WHERE id IN (
    SELECT id FROM ` + q.table + ` q
    WHERE q.state IN ('queued', 'sending') AND q.next_attempt_at <= $1 AND (q.leased_until IS NULL OR q.leased_until < $1)` + due + `
    ORDER BY q.next_attempt_at, q.id
    LIMIT $4
    FOR UPDATE SKIP LOCKED)
RETURNING ` + q.columns
	err := db.InTx(ctx, func(tx *DB) error {
		if _, err := tx.x.ExecContext(ctx, `SELECT set_config('lock_timeout', $1, true)`, leaseWait); err != nil {
			return err
		}
		if _, err := tx.x.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockClassLease, q.kind); err != nil {
			return err
		}
		if err := sqlxSelect(ctx, tx, dest, stmt, c.Now, c.For.Microseconds(), c.Who, c.Limit); err != nil {
			return err
		}
		if then != nil {
			return then(tx)
		}
		return nil
	})
	return wrapf(err, "lease %s for %s", q.table, c.Who)
}

// Only the worker holding a row's lease settles its attempt; a worker whose
// lease was taken over records nothing (changed false).

// sent records that the row's attempt went through at now.
func (db *DB) sent(ctx context.Context, table string, id int64, who string, now time.Time) (bool, error) {
	res, err := db.x.ExecContext(ctx, `UPDATE `+table+` SET state = 'sent', sent_at = $3, leased_until = NULL, last_error = ''
WHERE id = $1 AND state = 'sending' AND leased_by = $2`, id, who, now)
	return rowChanged(res, err, "record %s %d sent", table, id)
}

// retry puts the row back to wait for its next attempt at next, with the
// reason (already cleaned of anything secret).
func (db *DB) retry(ctx context.Context, table string, id int64, who string, next time.Time, reason string) (bool, error) {
	res, err := db.x.ExecContext(ctx, `UPDATE `+table+` SET state = 'queued', next_attempt_at = $3, leased_until = NULL, last_error = $4
WHERE id = $1 AND state = 'sending' AND leased_by = $2`, id, who, next, reason)
	return rowChanged(res, err, "record %s %d to retry", table, id)
}

// gaveUp keeps the row as failed for good, with the reason.
func (db *DB) gaveUp(ctx context.Context, table string, id int64, who string, reason string) (bool, error) {
	res, err := db.x.ExecContext(ctx, `UPDATE `+table+` SET state = 'failed', leased_until = NULL, last_error = $3
WHERE id = $1 AND state = 'sending' AND leased_by = $2`, id, who, reason)
	return rowChanged(res, err, "record %s %d failed", table, id)
}

func rowChanged(res interface{ RowsAffected() (int64, error) }, err error, format string, args ...any) (bool, error) {
	if err != nil {
		return false, fmt.Errorf(format+": %w", append(args, err)...)
	}
	n, err := res.RowsAffected()
	return n == 1, wrapf(err, format, args...)
}
