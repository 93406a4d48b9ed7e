package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// FailureCount is how many sign-ins failed recently for a key and when the last did.
type FailureCount struct {
	Count int        `db:"count"`
	Last  *time.Time `db:"last"`
}

// LoginFailureCounts are the recent failures the sign-in throttle weighs: of one
// account from one address, of the account from anywhere, and of the address
// for any account.
type LoginFailureCounts struct {
	Pair, Account, Address FailureCount
}

// Advisory lock classes of sign-in (the two-key form, apart from goose's lock).
const (
	lockClassSignInAccount = 7301
	lockClassSignInAddress = 7302
)

const lockSignInKey = `SELECT pg_advisory_xact_lock($1, hashtext($2))`

// LockSignIn serialises sign-in attempts for the account and for the address
// until the transaction ends, so each attempt counts the failures recorded by
// the ones before it. It must run inside InTx. Every caller takes the account's
// lock before the address's, so two attempts never wait on each other in a circle.
func (db *DB) LockSignIn(ctx context.Context, username, address string) error {
	if _, inTx := db.x.(*sqlx.Tx); !inTx {
		return errors.New("lock sign-in: not in a transaction")
	}
	if _, err := db.x.ExecContext(ctx, lockSignInKey, lockClassSignInAccount, truncate(username, 100)); err != nil {
		return fmt.Errorf("lock sign-in of %s: %w", username, err)
	}
	if _, err := db.x.ExecContext(ctx, lockSignInKey, lockClassSignInAddress, truncate(address, 100)); err != nil {
		return fmt.Errorf("lock sign-in from %s: %w", address, err)
	}
	return nil
}

const countLoginFailures = `
SELECT count(*) FILTER (WHERE username = $1 AND address = $2) AS pair_count,
       max(at) FILTER (WHERE username = $1 AND address = $2) AS pair_last,
       count(*) FILTER (WHERE username = $1) AS account_count,
       max(at) FILTER (WHERE username = $1) AS account_last,
       count(*) FILTER (WHERE address = $2) AS address_count,
       max(at) FILTER (WHERE address = $2) AS address_last
FROM login_failures
WHERE (username = $1 OR address = $2) AND at > now() - make_interval(secs => $3)`

// LoginFailures counts the failures within window for the account from the
// address, for the account and for the address.
func (db *DB) LoginFailures(ctx context.Context, username, address string, window time.Duration) (LoginFailureCounts, error) {
	var row struct {
		PairCount    int        `db:"pair_count"`
		PairLast     *time.Time `db:"pair_last"`
		AccountCount int        `db:"account_count"`
		AccountLast  *time.Time `db:"account_last"`
		AddressCount int        `db:"address_count"`
		AddressLast  *time.Time `db:"address_last"`
	}
	if err := sqlxGet(ctx, db, &row, countLoginFailures, truncate(username, 100), truncate(address, 100), window.Seconds()); err != nil {
		return LoginFailureCounts{}, fmt.Errorf("count failed sign-ins of %s from %s: %w", username, address, err)
	}
	return LoginFailureCounts{
		Pair:    FailureCount{Count: row.PairCount, Last: row.PairLast},
		Account: FailureCount{Count: row.AccountCount, Last: row.AccountLast},
		Address: FailureCount{Count: row.AddressCount, Last: row.AddressLast},
	}, nil
}

const insertLoginFailure = `INSERT INTO login_failures (username, address) VALUES ($1, $2)`

// RecordLoginFailure remembers one failed sign-in, or an attempt about to be
// checked: it counts as failed until it succeeds.
func (db *DB) RecordLoginFailure(ctx context.Context, username, address string) error {
	if _, err := db.x.ExecContext(ctx, insertLoginFailure, truncate(username, 100), truncate(address, 100)); err != nil {
		return fmt.Errorf("record failed sign-in: %w", err)
	}
	return nil
}

const deleteFailuresOfPair = `DELETE FROM login_failures WHERE username = $1 AND address = $2`

// ClearLoginFailures forgets an account's failures from one address after a
// successful sign-in from there. Failures from elsewhere stay: an owner signing
// in must not reset the throttle of someone guessing from another address.
func (db *DB) ClearLoginFailures(ctx context.Context, username, address string) error {
	if _, err := db.x.ExecContext(ctx, deleteFailuresOfPair, truncate(username, 100), truncate(address, 100)); err != nil {
		return fmt.Errorf("clear failed sign-ins of %s from %s: %w", username, address, err)
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
