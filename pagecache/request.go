package pagecache

import (
	"context"
	"sync"
	"time"
)

// A handler whose answer must not be kept, or not past a moment, says so
// for its request: a page that waits for something the clock brings rather
// than a change in the database (a pending label its own view checks
// upstream once its last check is old enough).

// Note is what a handler said of its request's answer.
type Note struct {
	mu    sync.Mutex
	skip  bool
	until time.Time
}

type noteKey struct{}

// Recording returns a context in which Skip and Until mark the answer.
func Recording(ctx context.Context) (context.Context, *Note) {
	n := &Note{}
	return context.WithValue(ctx, noteKey{}, n), n
}

// Skip keeps the request's answer out of the cache.
func Skip(ctx context.Context) {
	if n, ok := ctx.Value(noteKey{}).(*Note); ok {
		n.mu.Lock()
		n.skip = true
		n.mu.Unlock()
	}
}

// Until keeps the request's answer at most until t on the dashboard's clock.
func Until(ctx context.Context, t time.Time) {
	if n, ok := ctx.Value(noteKey{}).(*Note); ok {
		n.mu.Lock()
		if n.until.IsZero() || t.Before(n.until) {
			n.until = t
		}
		n.mu.Unlock()
	}
}

// Said is what the handler said: not to keep the answer, or until when.
func (n *Note) Said() (skip bool, until time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.skip, n.until
}
