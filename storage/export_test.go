package storage

import (
	"context"
	"log/slog"
	"time"
)

// OpenFeedEvery opens a feed that pings itself every every (FeedPing in
// OpenFeed), so a test can tell the pings readers ask for from the ticker's.
func (db *DB) OpenFeedEvery(dsn string, log *slog.Logger, every time.Duration) (*Feed, error) {
	return db.openFeed(dsn, log, every)
}

// AskedPings counts the pings sent because a reader asked (Current).
func (f *Feed) AskedPings() int64 { return f.asked.Load() }

// OpenTwoRoundTrips opens a pool as lib/pq does by default, each statement
// with parameters described by the server before it is bound: the
// round-trip benchmark's yardstick.
func OpenTwoRoundTrips(ctx context.Context, url string) (*DB, error) { return open(ctx, url, false) }
