// Package sandboxctl is the client of the sandbox's own controls under /sandbox/
// (simulated clock, payments, carrier behaviour). The real service has none of
// them, so the dashboard builds this client only in sandbox mode.
package sandboxctl

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"shipdesk/client/transport"
)

// Client calls the controls of one sandbox.
type Client struct {
	t   *transport.Client
	cfg transport.Config // for the one control that needs the key (Account)
}

// New returns a client for the sandbox at cfg.BaseURL (the shipping base URL).
func New(cfg transport.Config) (*Client, error) {
	cfg.Interface = "sandbox"
	cfg.APIKey = "" // controls need no key; never send one where it is not needed
	t, err := transport.New(cfg)
	if err != nil {
		return nil, err
	}
	return &Client{t: t, cfg: cfg}, nil
}

// Clock is the simulated time.
type Clock struct {
	Now           time.Time `json:"now"`
	OffsetMinutes int       `json:"offset_minutes"` // how far ahead of the wall clock
}

// Now reads the simulated time.
func (c *Client) Now(ctx context.Context) (Clock, error) {
	return c.clock(ctx, transport.Call{Op: "clock", Method: http.MethodGet, Path: "/sandbox/clock", Idempotent: true})
}

// Advance moves the simulated time forward so shipments and commissions move on.
func (c *Client) Advance(ctx context.Context, minutes int) (Clock, error) {
	return c.clock(ctx, transport.Call{Op: "clock/advance", Method: http.MethodPost, Path: "/sandbox/clock/advance",
		JSON: map[string]int{"minutes": minutes}})
}

func (c *Client) clock(ctx context.Context, call transport.Call) (Clock, error) {
	ans, err := c.t.Do(ctx, call)
	if err != nil {
		return Clock{}, err
	}
	var k Clock
	if err := ans.Data(call.Op, &k); err != nil {
		return Clock{}, err
	}
	if k.Now.IsZero() {
		return Clock{}, &transport.Error{Op: call.Op, Kind: transport.KindDecode, Status: ans.Status, Message: `expected "now" in the answer`}
	}
	return k, nil
}

// Pay marks an ONLINE order paid, as the customer's payment would.
func (c *Client) Pay(ctx context.Context, orderID int64) error {
	_, err := c.t.Do(ctx, transport.Call{Op: "orders/pay", Method: http.MethodPost, Path: fmt.Sprintf("/sandbox/orders/%d/pay", orderID)})
	return err
}
