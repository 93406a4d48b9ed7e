package storage

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"github.com/lib/pq"

	"shipdesk/throttle"
)

// Hit is one count of a request under a throttle: its key's hash in a scope,
// weighed by the scope's limit.
type Hit struct {
	Scope   string
	KeyHash []byte
	Limit   throttle.Limit
}

// lockClassThrottle is the advisory lock class of the throttles' keys (apart
// from sign-in's and goose's locks).
const lockClassThrottle = 7303

const lockThrottleKeys = `SELECT pg_advisory_xact_lock($1, k) FROM unnest($2::int[]) AS k`

const recentHits = `
SELECT k.i, h.at
FROM unnest($1::text[], $2::bytea[], $3::float8[], $4::int[]) WITH ORDINALITY AS k(scope, key_hash, secs, lim, i)
CROSS JOIN LATERAL (SELECT at FROM throttle_hits t
    WHERE t.scope = k.scope AND t.key_hash = k.key_hash AND t.at > $5::timestamptz - make_interval(secs => k.secs)
    ORDER BY t.at DESC LIMIT k.lim) h`

const insertHits = `INSERT INTO throttle_hits (scope, key_hash, at) SELECT scope, key_hash, $3 FROM unnest($1::text[], $2::bytea[]) AS k(scope, key_hash)`

// CountHits counts a request at now under every hit's scope at once, or
// under none: each limit is weighed (throttle.Limit.Wait) on the key's hits
// within its window, and when any says wait, nothing is stored and the
// longest wait is returned (zero: counted). The keys are locked for the
// transaction first (an advisory lock each, in one order), so two requests
// at once cannot both take a key's last place. Hits whose limit is off or
// whose key is empty are not counted.
func (db *DB) CountHits(ctx context.Context, now time.Time, hits ...Hit) (time.Duration, error) {
	hits = slices.DeleteFunc(slices.Clone(hits), func(h Hit) bool { return h.Limit.Off() || len(h.KeyHash) == 0 })
	if len(hits) == 0 {
		return 0, nil
	}
	var wait time.Duration
	err := db.InTx(ctx, func(tx *DB) error {
		if _, err := tx.x.ExecContext(ctx, lockThrottleKeys, lockClassThrottle, pq.Array(lockIDs(hits))); err != nil {
			return fmt.Errorf("lock throttle keys: %w", err)
		}
		scopes, keys := make([]string, len(hits)), make([][]byte, len(hits))
		secs, limits := make([]float64, len(hits)), make([]int64, len(hits))
		for i, h := range hits {
			scopes[i], keys[i], secs[i], limits[i] = h.Scope, h.KeyHash, h.Limit.Window.Seconds(), int64(h.Limit.Hits)
		}
		var rows []struct {
			I  int       `db:"i"`
			At time.Time `db:"at"`
		}
		if err := sqlxSelect(ctx, tx, &rows, recentHits, pq.Array(scopes), pq.Array(keys), pq.Array(secs), pq.Array(limits), now); err != nil {
			return fmt.Errorf("read throttle hits: %w", err)
		}
		recent := make([][]time.Time, len(hits))
		for _, r := range rows {
			recent[r.I-1] = append(recent[r.I-1], r.At)
		}
		for i, h := range hits {
			wait = max(wait, h.Limit.Wait(recent[i], now))
		}
		if wait > 0 {
			return nil // refused: nothing stored
		}
		_, err := tx.x.ExecContext(ctx, insertHits, pq.Array(scopes), pq.Array(keys), now)
		return wrapf(err, "count throttle hits")
	})
	return wait, err
}

// lockIDs are the hits' advisory lock keys, sorted and without repeats, so
// every request takes its locks in one order and none waits in a circle.
func lockIDs(hits []Hit) []int64 {
	ids := make([]int64, 0, len(hits))
	for _, h := range hits {
		f := fnv.New32a()
		f.Write([]byte(h.Scope))
		f.Write([]byte{0})
		f.Write(h.KeyHash)
		ids = append(ids, int64(int32(f.Sum32())))
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// PruneThrottleHits forgets hits older than maxAge before now (longer than
// any throttle's window).
func (db *DB) PruneThrottleHits(ctx context.Context, now time.Time, maxAge time.Duration) error {
	_, err := db.x.ExecContext(ctx, `DELETE FROM throttle_hits WHERE at <= $1`, now.Add(-maxAge))
	return wrapf(err, "prune throttle hits")
}
