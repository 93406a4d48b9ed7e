package storage

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lib/pq"

	"shipdesk/clock"
)

// The change feed: the triggers of migration 00017 announce every change to
// what a session check answers on ChangesChannel, in the transaction that
// makes it. A Feed listens to the channel on a connection of its own and
// hands each change to its subscribers; it also knows how far it has read.
//
// How far: every FeedPing the feed notifies itself on a channel of its own,
// noting when it sent the ping. PostgreSQL delivers notifications to a
// listener in commit order, so when a ping comes back every change committed
// before the ping was sent has been delivered, and handed to the subscribers,
// before it. Fresh says whether a ping sent within FeedLag before now
// has come back. A cache that answers only while its feed is fresh therefore
// never answers with anything changed more than FeedLag ago; a change that
// must take effect at once (a sign-out, a disabled account) waits FeedLag
// after its commit before it is reported done (RevocationWait), and then no
// instance answers with what it changed. A lost connection loses
// notifications: after reconnecting the subscribers hear Lost and drop
// everything, and until a ping comes back on the new connection the feed is
// not fresh, so nothing cached is used meanwhile; the same holds when the
// connection hangs without being closed.
const (
	ChangesChannel = "shipdesk_changes"
	// FeedLag is how old the last returned ping may be while the feed counts
	// as fresh.
	FeedLag = 250 * time.Millisecond
	// FeedPing is how often the feed pings itself.
	FeedPing = 50 * time.Millisecond
	// RevocationWait is how long after its commit a change waits before it
	// is done: FeedLag and a margin for clocks that run at slightly
	// different rates on different machines.
	RevocationWait = FeedLag + FeedLag/5
	// FeedApplicationName names the feed's connection in pg_stat_activity.
	FeedApplicationName = "shipdesk-feed"
)

// Change is one announced change, or Lost: notifications may have been lost
// and everything derived from the database must be dropped.
type Change struct {
	Lost      bool
	TokenHash []byte // a session changed (nil when not)
	UserID    int64  // a user changed (0 when not)
	Data      string // the table of a change to what pages show ("" when not)
}

// ParseChange reads a payload of ChangesChannel; ok is false for one it does
// not know, which a subscriber must treat as Lost.
func ParseChange(payload string) (Change, bool) {
	kind, arg, _ := strings.Cut(payload, ":")
	switch kind {
	case "session":
		h, err := hex.DecodeString(arg)
		if err == nil && len(h) > 0 {
			return Change{TokenHash: h}, true
		}
	case "user":
		id, err := strconv.ParseInt(arg, 10, 64)
		if err == nil && id > 0 {
			return Change{UserID: id}, true
		}
	case "data":
		if arg != "" {
			return Change{Data: arg}, true
		}
	}
	return Change{Lost: true}, false
}

// Feed is a listener on ChangesChannel with a measure of how far it has read.
type Feed struct {
	db    *DB
	log   *slog.Logger
	dsn   string
	ping  string          // this feed's own channel
	every time.Duration   // how often it pings itself (FeedPing)
	start clock.Stopwatch // the feed's times are measured from its start, on the machine's monotonic clock

	mu    sync.Mutex
	subs  []func(Change)
	sent  map[uint64]time.Duration // pings in flight: when each was sent
	seq   uint64
	fresh atomic.Int64 // since start, when the last returned ping was sent; -1 before the first
	heard atomic.Int64 // since start, when a ping last came back (or the connection was made)
	lost  atomic.Int64 // connections lost and made again
	// answering: the database answered the last ping's notify; down: the
	// listener cannot connect (said once in the log).
	answering, down atomic.Bool

	stop chan struct{}
	done sync.WaitGroup
}

// OpenFeed starts a feed on its own connection to dsn (the database's URL
// when empty). It is not fresh until its first ping has come back.
func (db *DB) OpenFeed(dsn string, log *slog.Logger) (*Feed, error) {
	return db.openFeed(dsn, log, FeedPing)
}

func (db *DB) openFeed(dsn string, log *slog.Logger, every time.Duration) (*Feed, error) {
	if dsn == "" {
		dsn = db.url
	}
	if dsn == "" {
		return nil, fmt.Errorf("change feed: no database URL")
	}
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("change feed: %w", err)
	}
	f := &Feed{db: db, log: log, dsn: feedDSN(dsn), ping: "shipdesk_ping_" + hex.EncodeToString(b), every: every,
		start: clock.Start(), sent: map[uint64]time.Duration{}, stop: make(chan struct{})}
	f.fresh.Store(-1)
	f.done.Add(2)
	go f.run()
	go f.pinger()
	return f, nil
}

// feedDSN names the feed's connection and bounds how long making it may take,
// in a URL or a key=value DSN.
func feedDSN(dsn string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		if u, err := url.Parse(dsn); err == nil {
			q := u.Query()
			q.Set("application_name", FeedApplicationName)
			if q.Get("connect_timeout") == "" {
				q.Set("connect_timeout", "5")
			}
			u.RawQuery = q.Encode()
			return u.String()
		}
	}
	if !strings.Contains(dsn, "connect_timeout") {
		dsn += " connect_timeout=5"
	}
	return dsn + " application_name=" + FeedApplicationName
}

// Subscribe hands every change to fn, on the feed's goroutine, in commit
// order, before any later ping counts as returned; fn must be quick.
func (f *Feed) Subscribe(fn func(Change)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subs = append(f.subs, fn)
}

// Fresh reports whether every change committed before FeedLag ago has been
// handed to the subscribers.
func (f *Feed) Fresh() bool {
	sent := f.fresh.Load()
	return sent >= 0 && f.since()-time.Duration(sent) <= FeedLag
}

// Reconnections counts the connections the feed lost and made again.
func (f *Feed) Reconnections() int64 { return f.lost.Load() }

// Close stops the feed.
func (f *Feed) Close() {
	select {
	case <-f.stop:
		return
	default:
	}
	close(f.stop)
	f.done.Wait()
}

func (f *Feed) event(ev pq.ListenerEventType, err error) {
	switch ev {
	case pq.ListenerEventDisconnected:
		f.log.Warn("change feed: connection lost; cached sessions are not used until it is back", "err", err)
	case pq.ListenerEventReconnected:
		f.log.Info("change feed: connected again")
	case pq.ListenerEventConnectionAttemptFailed:
		if f.down.CompareAndSwap(false, true) {
			f.log.Warn("change feed: cannot connect", "err", err)
		}
		return
	}
	f.down.Store(false)
}

func (f *Feed) publish(c Change) {
	f.mu.Lock()
	subs := f.subs
	f.mu.Unlock()
	for _, fn := range subs {
		fn(c)
	}
}

func (f *Feed) since() time.Duration { return f.start.Elapsed() }

// hangAfter is how long a listener may hear no ping while the database
// answers them before it counts as hanging.
const hangAfter = 10 * time.Second

// run keeps a listener and hands what it hears to the subscribers. A listener
// that hears no ping for hangAfter while the database answers the pings
// hangs: it is dropped and a new one made.
func (f *Feed) run() {
	defer f.done.Done()
	for first := true; ; first = false {
		l := pq.NewListener(f.dsn, 50*time.Millisecond, 5*time.Second, f.event)
		if !f.listen(l, first) {
			return
		}
	}
}

// listen serves one listener until it hangs (true: make another) or the
// feed stops (false).
func (f *Feed) listen(l *pq.Listener, first bool) bool {
	defer func() {
		// Closing waits for a connection being made; the feed does not.
		go func() {
			_ = l.Close()
			for range l.Notify {
			}
		}()
	}()
	f.heard.Store(int64(f.since()))
	ready := make(chan struct{})
	go func() {
		for _, ch := range []string{ChangesChannel, f.ping} {
			if err := l.Listen(ch); err != nil {
				select {
				case <-f.stop:
				default:
					f.log.Error("change feed: listen", "channel", ch, "err", err)
				}
				return
			}
		}
		close(ready)
	}()
	check := time.NewTicker(time.Second)
	defer check.Stop()
	listening := false
	for {
		select {
		case <-f.stop:
			return false
		case <-ready:
			ready = nil
			listening = true
			f.heard.Store(int64(f.since()))
			// Whatever was announced before this listener listened is lost
			// to it (and a lookup begun before may hold it): drop everything.
			// Pings from before this point are not counted.
			if !first {
				f.lost.Add(1)
			}
			f.publish(Change{Lost: true})
		case <-check.C:
			if f.answering.Load() && f.since()-time.Duration(f.heard.Load()) > hangAfter {
				f.log.Warn("change feed: no ping came back for ten seconds while the database answers; connecting again")
				return true
			}
		case n, ok := <-l.Notify:
			if !ok {
				return true
			}
			switch {
			case n == nil: // reconnected: what was announced meanwhile is lost
				f.lost.Add(1)
				f.heard.Store(int64(f.since()))
				f.publish(Change{Lost: true})
			case n.Channel == f.ping:
				if listening {
					f.returned(n.Extra)
				}
			case n.Channel == ChangesChannel:
				c, _ := ParseChange(n.Extra)
				f.publish(c)
			}
		}
	}
}

// returned counts a ping that came back: every change committed before it
// was sent has been handed on.
func (f *Feed) returned(payload string) {
	seq, err := strconv.ParseUint(payload, 10, 64)
	if err != nil {
		return
	}
	f.mu.Lock()
	sent, ok := f.sent[seq]
	for s := range f.sent {
		if s <= seq {
			delete(f.sent, s)
		}
	}
	f.mu.Unlock()
	if ok && int64(sent) > f.fresh.Load() {
		f.fresh.Store(int64(sent))
	}
	f.heard.Store(int64(f.since()))
}

// pinger notifies the feed's own channel every FeedPing.
func (f *Feed) pinger() {
	defer f.done.Done()
	t := time.NewTicker(f.every)
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-t.C:
		}
		f.mu.Lock()
		f.seq++
		seq := f.seq
		sent := f.since() // before the notification can commit
		f.sent[seq] = sent
		for s := range f.sent { // pings that never came back
			if s+100 < seq {
				delete(f.sent, s)
			}
		}
		f.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := f.db.pool.ExecContext(ctx, `SELECT pg_notify($1, $2)`, f.ping, strconv.FormatUint(seq, 10))
		cancel()
		f.answering.Store(err == nil) // when the database does not answer, silence says nothing of the listener
		if err != nil {
			f.log.Debug("change feed: ping", "err", err)
		}
	}
}
