package sandbox

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A held answer waits for the faults to be cleared, so a test can look at a
// page while the service is busy for as long as it needs; a caller that gives
// up leaves a create the service still makes, as with latency.
func TestHeldAnswersWaitUntilTheFaultsAreCleared(t *testing.T) {
	_, c := start(t, Options{})
	c.Call("POST", "/sandbox/faults", "", map[string]any{"path": "/api/v1/shipments/create", "hold": true})

	answered := make(chan int, 1)
	go func() {
		resp, err := raw(t, "POST", c.URL+"/api/v1/shipments/create", jsonString(order("CREDIT")))
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	if a := c.Call("GET", "/api/v1/shipments/list", "sandbox-key-1", nil); a.Status != 200 {
		t.Errorf("another path was held: %d", a.Status)
	}
	select {
	case code := <-answered:
		t.Fatalf("a held create answered %d before the faults were cleared", code)
	case <-time.After(300 * time.Millisecond):
	}
	c.Call("DELETE", "/sandbox/faults", "", nil)
	if code := <-answered; code != http.StatusOK {
		t.Errorf("released create: %d", code)
	}

	c.Call("POST", "/sandbox/faults", "", map[string]any{"path": "/api/v1/shipments/create", "hold": true})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", c.URL+"/api/v1/shipments/create", strings.NewReader(jsonString(order("CREDIT"))))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-apikey", "sandbox-key-1")
	if resp, err := http.DefaultTransport.RoundTrip(req); err == nil {
		resp.Body.Close()
		t.Fatalf("a held create answered %d to a caller that gave up", resp.StatusCode)
	}
	for deadline := time.Now().Add(10 * time.Second); total(c) != 2 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := total(c); n != 2 {
		t.Errorf("%v shipments: the create whose caller gave up was not made", n)
	}
	c.Call("DELETE", "/sandbox/faults", "", nil)
}
