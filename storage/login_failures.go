package storage

import (
	"context"
	"fmt"
	"time"
)

// FailureCount is how many sign-ins failed recently for a key and when the last did.
type FailureCount struct {
	Count int        `db:"count"`
	Last  *time.Time `db:"last"`
}

const insertLoginFailure = `INSERT INTO login_failures (username, address) VALUES ($1, $2)`

// RecordLoginFailure remembers one failed sign-in.
func (db *DB) RecordLoginFailure(ctx context.Context, username, address string) error {
	if _, err := db.x.ExecContext(ctx, insertLoginFailure, truncate(username, 100), address); err != nil {
		return fmt.Errorf("record failed sign-in: %w", err)
	}
	return nil
}

const countFailuresByUser = `
SELECT count(*) AS count, max(at) AS last FROM login_failures
WHERE username = $1 AND at > now() - make_interval(secs => $2)`

const countFailuresByAddress = `
SELECT count(*) AS count, max(at) AS last FROM login_failures
WHERE address = $1 AND at > now() - make_interval(secs => $2)`

// LoginFailures counts failures within window for an account and for an address.
func (db *DB) LoginFailures(ctx context.Context, username, address string, window time.Duration) (byUser, byAddress FailureCount, err error) {
	if err = sqlxGet(ctx, db, &byUser, countFailuresByUser, truncate(username, 100), window.Seconds()); err != nil {
		return byUser, byAddress, fmt.Errorf("count failed sign-ins of %s: %w", username, err)
	}
	if err = sqlxGet(ctx, db, &byAddress, countFailuresByAddress, address, window.Seconds()); err != nil {
		return byUser, byAddress, fmt.Errorf("count failed sign-ins from %s: %w", address, err)
	}
	return byUser, byAddress, nil
}

const deleteFailuresOfUser = `DELETE FROM login_failures WHERE username = $1`

// ClearLoginFailures forgets an account's failures after a successful sign-in.
func (db *DB) ClearLoginFailures(ctx context.Context, username string) error {
	if _, err := db.x.ExecContext(ctx, deleteFailuresOfUser, username); err != nil {
		return fmt.Errorf("clear failed sign-ins of %s: %w", username, err)
	}
	return nil
}

const deleteOldFailures = `DELETE FROM login_failures WHERE at < now() - interval '1 day'`

// PruneLoginFailures deletes failures older than a day.
func (db *DB) PruneLoginFailures(ctx context.Context) error {
	if _, err := db.x.ExecContext(ctx, deleteOldFailures); err != nil {
		return fmt.Errorf("prune failed sign-ins: %w", err)
	}
	return nil
}
