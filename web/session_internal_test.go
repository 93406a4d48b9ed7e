package web

import (
	"strings"
	"testing"
	"time"

	"shipdesk/clock"
	"shipdesk/views"
)

// A cookie is good from its issue time to its maximum age on our clock; one
// dated ahead of that clock (beyond the skew between instances) was not
// issued by us, even with a valid signature: it is refused, as is one too old.
func TestCookieDatedInTheFutureIsRefused(t *testing.T) {
	t.Parallel()
	key := []byte(strings.Repeat("k", 32))
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	reader := newCookieCodec(key, 12*time.Hour, clock.Frozen(now))
	for _, c := range []struct {
		issued time.Time
		ok     bool
	}{
		{now, true},
		{now.Add(-11 * time.Hour), true},
		{now.Add(30 * time.Second), true}, // another instance's clock a little ahead
		{now.Add(-13 * time.Hour), false},
		{now.Add(2 * time.Minute), false},
		{now.AddDate(10, 0, 0), false},
	} {
		writer := newCookieCodec(key, 12*time.Hour, clock.Frozen(c.issued))
		value, err := writer.encode(cookieName, cookieValue{ID: "a-session-token"})
		if err != nil {
			t.Fatal(err)
		}
		v, ok := reader.decode(cookieName, value)
		if ok != c.ok || (ok && v.ID != "a-session-token") {
			t.Errorf("cookie issued %s against a clock at %s: accepted %v (%q), want %v", c.issued, now, ok, v.ID, c.ok)
		}
	}
}

// The cookie is securecookie's: its token and flashes read back with the
// same key, and are neither readable in the value nor accepted when forged,
// signed with another key, or moved to another cookie's name.
func TestCookieIsSignedAndEncrypted(t *testing.T) {
	t.Parallel()
	key := []byte(strings.Repeat("k", 32))
	clk := clock.Frozen(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC))
	codec := newCookieCodec(key, 12*time.Hour, clk)
	want := cookieValue{ID: "a-session-token", Flashes: []views.Flash{{Kind: "ok", Text: "Saved."}}}
	value, err := codec.encode(cookieName, want)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(value, "a-session-token") || strings.Contains(value, "Saved") {
		t.Errorf("the cookie's value shows what it holds: %s", value)
	}
	got, ok := codec.decode(cookieName, value)
	if !ok || got.ID != want.ID || len(got.Flashes) != 1 || got.Flashes[0] != want.Flashes[0] {
		t.Fatalf("read back %+v, %v; want %+v", got, ok, want)
	}
	other := newCookieCodec([]byte(strings.Repeat("o", 32)), 12*time.Hour, clk)
	for what, bad := range map[string]func() (cookieValue, bool){
		"forged":        func() (cookieValue, bool) { return codec.decode(cookieName, value[:len(value)-4]+"AAAA") },
		"another key":   func() (cookieValue, bool) { return other.decode(cookieName, value) },
		"another name":  func() (cookieValue, bool) { return codec.decode("other", value) },
		"not a cookie":  func() (cookieValue, bool) { return codec.decode(cookieName, "a-session-token") },
		"far too large": func() (cookieValue, bool) { return codec.decode(cookieName, strings.Repeat("A", 5000)) },
	} {
		if v, ok := bad(); ok {
			t.Errorf("%s: accepted as %+v", what, v)
		}
	}
}
