package upstream

import (
	"context"
	"time"
)

// Now is the dashboard's clock: the simulator's in sandbox mode, so that what
// shipdesk records and shows reads on the same clock as the service's events;
// real time against the real service, or when the simulator does not answer.
func (c *Clients) Now() time.Time {
	if !c.IsSandbox() || c.Controls == nil {
		return time.Now()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if t, err := c.SimulatedNow(ctx); err == nil {
		return t
	}
	return time.Now()
}
