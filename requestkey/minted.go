package requestkey

import (
	"context"
	"sync"
)

// Minted is the list of keys one render made (NewIn), so a copy of the
// page kept for others (pagecache) can carry fresh keys in their place and
// never hand one form's key to two people.
type Minted struct {
	mu   sync.Mutex
	keys []string
}

type mintedKey struct{}

// Recording returns a context whose NewIn calls are listed in the Minted.
func Recording(ctx context.Context) (context.Context, *Minted) {
	m := &Minted{}
	return context.WithValue(ctx, mintedKey{}, m), m
}

// NewIn makes a key for a fresh form drawn for the request of ctx, noting it
// when the request's answer may be kept (Recording).
func NewIn(ctx context.Context) string {
	k := New()
	if m, ok := ctx.Value(mintedKey{}).(*Minted); ok {
		m.mu.Lock()
		m.keys = append(m.keys, k)
		m.mu.Unlock()
	}
	return k
}

// Keys are the keys made so far.
func (m *Minted) Keys() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.keys...)
}
