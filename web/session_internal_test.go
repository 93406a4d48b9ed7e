package web

import (
	"strings"
	"testing"
	"time"

	"shipdesk/clock"
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
		value := writer.encode(cookieState{token: "a-session-token"})
		if got := reader.decode(value).token != ""; got != c.ok {
			t.Errorf("cookie issued %s against a clock at %s: accepted %v, want %v", c.issued, now, got, c.ok)
		}
	}
}
