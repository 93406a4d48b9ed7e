package sandboxctl

import (
	"context"
	"net/http"

	"shipdesk/client/transport"
)

// Fault is a misbehaviour the sandbox plays on its interfaces (never on its
// controls): added latency, a share of 503 answers, a share of requests
// processed and then left unanswered.
type Fault struct {
	Path          string  `json:"path"` // prefix; "" is every interface
	LatencyMS     int     `json:"latency_ms"`
	ErrorRate     float64 `json:"error_rate"`      // 0–1
	DropAfterRate float64 `json:"drop_after_rate"` // 0–1: processed, the answer lost
	Count         int     `json:"count"`           // 0: until cleared
}

// Faults lists the faults in force, the one that applies first first.
func (c *Client) Faults(ctx context.Context) ([]Fault, error) {
	call := transport.Call{Op: "faults", Method: http.MethodGet, Path: "/sandbox/faults", Idempotent: true}
	ans, err := c.t.Do(ctx, call)
	if err != nil {
		return nil, err
	}
	var out []Fault
	err = ans.Data(call.Op, &out)
	return out, err
}

// AddFault adds a fault after those in force.
func (c *Client) AddFault(ctx context.Context, f Fault) error {
	_, err := c.t.Do(ctx, transport.Call{Op: "faults/set", Method: http.MethodPost, Path: "/sandbox/faults", JSON: f})
	return err
}

// ClearFaults ends every fault.
func (c *Client) ClearFaults(ctx context.Context) error {
	_, err := c.t.Do(ctx, transport.Call{Op: "faults/clear", Method: http.MethodDelete, Path: "/sandbox/faults", Idempotent: true})
	return err
}
