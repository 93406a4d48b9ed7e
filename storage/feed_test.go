package storage_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"shipdesk/storage/pgtest"
)

// A reader that finds this process's own write not yet heard has the feed
// ping at once rather than at its next tick: the write is heard, and kept
// pages serve again, within a round trip to the database.
func TestAReaderWaitingForItsOwnWriteHasTheFeedPingAtOnce(t *testing.T) {
	t.Parallel()
	db := pgtest.New(t)
	ctx := context.Background()
	// The feed's own pings come often enough to keep it fresh but seldom
	// enough that a reader's ping is told from them.
	feed, err := db.OpenFeedEvery("", slog.New(slog.NewTextHandler(io.Discard, nil)), 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(feed.Close)
	eventually(t, "the feed is current", feed.Current)
	asked := feed.AskedPings()
	if _, err := db.Exec(ctx, `UPDATE users SET username = username WHERE false`); err != nil {
		t.Fatal(err)
	}
	if feed.Current() {
		t.Fatal("the feed is current right after a write of this process, before a ping sent after it came back")
	}
	eventually(t, "the feed is current again", feed.Current)
	eventually(t, "a reader's ping was sent", func() bool { return feed.AskedPings() > asked })
}

// eventually waits for cond, failing the test after ten seconds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within ten seconds", what)
		}
	}
}
