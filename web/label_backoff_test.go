package web_test

import (
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage/pgtest"
)

// A shipment whose label checks keep failing is asked about again when the
// pollers' backoff says, however many times its page and live part are
// shown meanwhile: a page never turns a failing check into a call per view.
func TestAFailingLabelCheckWaitsOutItsBackoffWhateverThePagesShow(t *testing.T) {
	t.Parallel()
	sb := sandboxtest.StartCounting(t)
	env, clerk := deskEnvOn(t, apptest.StartOn(t, pgtest.New(t), sb))
	page := placed(t, env, clerk, 1)[0]
	const detail = "/api/v1/shipments/detail"
	sb.Fault(detail, map[string]any{"error_rate": 1})

	views := func() int64 {
		before := sb.Requests(detail)
		for range 10 {
			for _, path := range []string{page, page + "/status"} {
				if r := clerk.Get(path); r.StatusCode != 200 {
					t.Fatalf("GET %s: %d", path, r.StatusCode)
				}
			}
		}
		return sb.Requests(detail) - before
	}
	// The label is pending and stale (a test's pages check on every view):
	// the first view checks it (one call, with the client's retries), the
	// check fails, and it backs off.
	once := views()
	if once == 0 {
		t.Fatal("twenty views of a stale pending label never asked the service")
	}
	if got := views(); got != 0 {
		t.Errorf("views during the backoff asked the service %d times, want none", got)
	}
	sb.Advance(24 * time.Hour) // past any backoff
	if got := views(); got != once {
		t.Errorf("views after the backoff asked the service %d times, want %d (one check)", got, once)
	}
}
