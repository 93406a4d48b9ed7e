package upstream

import (
	"context"
	"time"

	"shipdesk/clock"
)

// Clock is the dashboard's one clock (Config.Clock): the simulator's in
// sandbox mode, so that what shipdesk records and shows reads on the same
// clock as the service's events; real time against the real service.
func (c *Clients) Clock() *clock.Clock { return c.Config.Clock }

// Now is the time on the dashboard's clock.
func (c *Clients) Now() time.Time { return c.Config.Clock.Now() }

// FollowsClock reports whether the clock follows an external sandbox's, which
// FollowClock keeps it on.
func (c *Clients) FollowsClock() bool { return c.follow && c.Controls != nil }

// FollowClock keeps the dashboard's clock on an external sandbox's: it reads
// the sandbox's time now and every `every` until ctx ends (someone may move
// that clock from another dashboard or by hand). An in-process sandbox shares
// the clock itself and needs none of this.
func (c *Clients) FollowClock(ctx context.Context, every time.Duration) {
	if !c.FollowsClock() {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		rctx, cancel := context.WithTimeout(ctx, every)
		if now, err := c.Controls.Now(rctx); err == nil {
			c.Config.Clock.Follow(now.Now)
		}
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
