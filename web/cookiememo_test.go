package web

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"shipdesk/clock"
	"shipdesk/views"
)

// A cookie read once is read again from the memo with the same answer, its
// age judged anew each time: one that has grown too old is refused although
// it was accepted before. A forged value, or one with flashes, never enters.
func TestCookieMemoKeepsTheAgeCheck(t *testing.T) {
	t.Parallel()
	key := []byte(strings.Repeat("k", 32))
	issued := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	clk := clock.Frozen(issued)
	codec := newCookieCodec(key, 12*time.Hour, clk)
	value := codec.encode(cookieState{token: "a-session-token"})

	for range 2 {
		if got := codec.decode(value).token; got != "a-session-token" {
			t.Fatalf("token %q, want a-session-token", got)
		}
	}
	if codec.memo.len() != 1 {
		t.Fatalf("memo holds %d cookies, want 1", codec.memo.len())
	}
	clk.Advance(13 * time.Hour)
	if got := codec.decode(value).token; got != "" {
		t.Errorf("a cookie past its maximum age read %q from the memo", got)
	}

	forged := value[:len(value)-2] + "AA"
	if got := codec.decode(forged).token; got != "" {
		t.Errorf("a forged cookie read %q", got)
	}
	fresh := newCookieCodec(key, 12*time.Hour, clock.Frozen(issued))
	withFlash := fresh.encode(cookieState{token: "t", flashes: []views.Flash{{Kind: "info", Text: "saved"}}})
	if got := fresh.decode(withFlash); got.token != "t" || len(got.flashes) != 1 {
		t.Errorf("a cookie with a flash read as %+v", got)
	}
	if fresh.memo.len() != 0 {
		t.Errorf("a cookie with flashes entered the memo")
	}
}

// The memo never holds more than its bound, however many cookies come.
func TestCookieMemoIsBounded(t *testing.T) {
	t.Parallel()
	key := []byte(strings.Repeat("k", 32))
	codec := newCookieCodec(key, 12*time.Hour, clock.Frozen(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)))
	for i := range maxMemoCookies + 10 {
		value := codec.encode(cookieState{token: "token-" + strings.Repeat("x", i%50) + strconv.Itoa(i)})
		if codec.decode(value).token == "" {
			t.Fatal("a good cookie was refused")
		}
		if n := codec.memo.len(); n > maxMemoCookies {
			t.Fatalf("memo holds %d cookies, over its bound %d", n, maxMemoCookies)
		}
	}
}
