package upstream_test

import (
	"context"
	"testing"
	"time"

	"shipdesk/clock"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/upstream"
)

func near(a, b time.Time) bool { d := a.Sub(b); return d < time.Second && d > -time.Second }

// Against an external sandbox the dashboard's clock follows the sandbox's by
// its offset: at once after its own move, within a reading after anyone's.
func TestClockFollowsAnExternalSandbox(t *testing.T) {
	sb := sandboxtest.Start(t)
	up, err := upstream.New(upstream.Config{ShippingURL: sb.URL, ShippingKey: sandboxtest.ShippingKey, ReturnsURL: sb.Returns,
		ReturnsKey: sandboxtest.ReturnsKey, Sandbox: true, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !up.FollowsClock() {
		t.Fatal("a sandbox without a shared clock is not followed")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go up.FollowClock(ctx, 20*time.Millisecond)
	waitNear := func(what string) {
		t.Helper()
		for waited := clock.Start(); !near(up.Now(), sb.Clock.Now()); time.Sleep(10 * time.Millisecond) {
			if waited.Elapsed() > 5*time.Second {
				t.Fatalf("%s: the dashboard reads %s, the sandbox %s", what, up.Now(), sb.Clock.Now())
			}
		}
	}
	waitNear("first reading") // the epoch may lie before or after today
	sb.Advance(7 * 24 * time.Hour)
	waitNear("after a move made elsewhere")
	cancel()
	moved, err := up.AdvanceClock(context.Background(), 90)
	if err != nil || !near(up.Now(), moved) || !near(moved, sb.Clock.Now()) {
		t.Errorf("own move: %s (%v); the dashboard reads %s, the sandbox %s", moved, err, up.Now(), sb.Clock.Now())
	}
}

// With the in-process sandbox the clock is shared: nothing to follow, and a
// move is seen by the dashboard without a call.
func TestSharedClockIsNotFollowed(t *testing.T) {
	sb := sandboxtest.Start(t)
	up, err := upstream.New(upstream.Config{ShippingURL: sb.URL, ShippingKey: sandboxtest.ShippingKey, ReturnsURL: sb.Returns,
		ReturnsKey: sandboxtest.ReturnsKey, Sandbox: true, Clock: sb.Clock})
	if err != nil {
		t.Fatal(err)
	}
	if up.FollowsClock() {
		t.Error("a shared clock is followed")
	}
	before := up.Now()
	sb.Advance(time.Hour)
	if d := up.Now().Sub(before); d < time.Hour || d > time.Hour+time.Second {
		t.Errorf("the dashboard's clock moved by %s with the sandbox's hour", d)
	}
}

// Against the real service the clock is real time and does not move.
func TestRealServiceRunsOnRealTime(t *testing.T) {
	up, err := upstream.New(upstream.Config{ShippingURL: "http://127.0.0.1:1", ReturnsURL: "http://127.0.0.1:1/returns"})
	if err != nil {
		t.Fatal(err)
	}
	if up.Clock().Simulated() || up.FollowsClock() {
		t.Error("the real service's clock is simulated")
	}
	if _, err := up.AdvanceClock(context.Background(), 60); err == nil {
		t.Error("the real service's clock moved")
	}
}
