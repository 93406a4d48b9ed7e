package pagecache

import (
	"context"
	"sync/atomic"
)

// A handler whose answer must not be kept says so for its request (Skip):
// a page that waits for something the clock brings rather than a change
// in the database (a pending label its own view checks upstream).

type skipKey struct{}

// Recording returns a context in which Skip marks the answer.
func Recording(ctx context.Context) (context.Context, *atomic.Bool) {
	skip := new(atomic.Bool)
	return context.WithValue(ctx, skipKey{}, skip), skip
}

// Skip keeps the request's answer out of the cache.
func Skip(ctx context.Context) {
	if skip, ok := ctx.Value(skipKey{}).(*atomic.Bool); ok {
		skip.Store(true)
	}
}
