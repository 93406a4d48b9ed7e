package upstream

import (
	"context"
	"errors"
	"io"
	"time"

	"shipdesk/client/transport"
)

// What the Connection page and the sandbox banner need of the link to the
// service, in plain values, so that the handlers never see a client.

// Counter is how often an operation was called, with what outcome.
type Counter = transport.Counter

// Failure is a recent failed call.
type Failure = transport.Failure

// ErrNoSandbox: the dashboard talks to the real service, which has no clock to move.
var ErrNoSandbox = errors.New("not connected to the sandbox")

// Counters are the calls made since start, per interface, operation and outcome.
func (c *Clients) Counters() []Counter { return c.Metrics.Counters() }

// Failures are the last failed calls of every interface, newest first.
func (c *Clients) Failures() []Failure { return c.Metrics.Failures("") }

// WritePrometheus writes the counters in the Prometheus text format.
func (c *Clients) WritePrometheus(w io.Writer) error { return c.Metrics.WritePrometheus(w) }

// IsSandbox reports whether the dashboard talks to our simulator.
func (c *Clients) IsSandbox() bool { return c.Config.Sandbox }

// SimulatedNow is the sandbox's clock.
func (c *Clients) SimulatedNow(ctx context.Context) (time.Time, error) {
	if c.Controls == nil {
		return time.Time{}, ErrNoSandbox
	}
	clock, err := c.Controls.Now(ctx)
	return clock.Now, err
}

// AdvanceClock moves the sandbox's clock and returns the new simulated time.
func (c *Clients) AdvanceClock(ctx context.Context, minutes int) (time.Time, error) {
	if c.Controls == nil {
		return time.Time{}, ErrNoSandbox
	}
	moved, err := c.Controls.Advance(ctx, minutes)
	if err == nil {
		c.Config.Clock.Follow(moved.Now) // an external sandbox's move, seen at once
	}
	return moved.Now, err
}

// Bank is the account's stored bank details, in plain values.
type Bank struct {
	Account, Code, Currency string
}

// StoredBank reads the sandbox account's stored bank details, which a
// cash-on-delivery order without bank details is paid to.
func (c *Clients) StoredBank(ctx context.Context) (Bank, error) {
	if c.Controls == nil {
		return Bank{}, ErrNoSandbox
	}
	b, err := c.Controls.Account(ctx, c.Config.ShippingKey)
	return Bank{Account: b.Account, Code: b.Code, Currency: b.Currency}, err
}
