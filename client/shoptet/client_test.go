package shoptet_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"shipdesk/client/shoptet"
	"shipdesk/client/transport"
	"shipdesk/sandbox/sandboxtest"
	sim "shipdesk/sandbox/shoptet"
)

// shop is the sandbox's Shoptet shop and a client of it whose waits move
// the test's clock (the shop's limits run on it), with its log and counts.
type shop struct {
	env     *sandboxtest.Env
	sim     *sim.Service
	c       *shoptet.Client
	metrics *transport.Metrics
	logs    *bytes.Buffer
	waits   []time.Duration
}

func start(t *testing.T, token string) *shop {
	t.Helper()
	env := sandboxtest.StartCounting(t)
	s := &shop{env: env, sim: env.Sandbox.Shoptet, metrics: transport.NewMetrics(env.Clock), logs: &bytes.Buffer{}}
	st := s.sim.Settings()
	st.Arrivals = false // no order arrives while a test moves the clock
	s.sim.SetSettings(st)
	c, err := shoptet.New(transport.Config{BaseURL: env.Shoptet, APIKey: token, Clock: env.Clock,
		Metrics: s.metrics, Log: slog.New(slog.NewTextHandler(s.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Wait: func(ctx context.Context, d time.Duration) error {
			s.waits = append(s.waits, d)
			env.Clock.Advance(d)
			return ctx.Err()
		}})
	if err != nil {
		t.Fatal(err)
	}
	s.c = c
	return s
}

// calls counts the attempts of an operation with an outcome ("200", "429").
func (s *shop) calls(op, outcome string) int64 {
	var n int64
	for _, c := range s.metrics.Counters() {
		if c.Op == op && c.Outcome == outcome {
			n += c.Calls
		}
	}
	return n
}

// Every answer the demo shop gives is read into its entities, in the
// documented shapes and in the leanest ones the schemas allow.
func TestReadsTheDemoShop(t *testing.T) {
	for _, shapes := range []string{sim.ShapesDocumented, sim.ShapesMinimal} {
		t.Run(shapes, func(t *testing.T) {
			t.Setenv("SANDBOX_SHAPES", shapes)
			s := start(t, sim.Token)
			ctx := context.Background()
			e, err := s.c.Eshop(ctx)
			if err != nil || e.ContactInformation.EshopID != sim.EshopID || e.ContactInformation.URL == "" {
				t.Fatalf("eshop: %+v %v", e, err)
			}
			st, err := s.c.Statuses(ctx)
			if err != nil || len(st.Statuses) != len(sim.Statuses) || st.DefaultStatus != sim.StatusNew {
				t.Fatalf("statuses: %+v %v", st, err)
			}
			sm, err := s.c.ShippingMethods(ctx)
			if err != nil || len(sm) != len(sim.ShippingMethods) || sm[0].GUID != sim.ShippingMethods[0].GUID || sm[0].ShippingCompany == nil {
				t.Fatalf("shipping methods: %+v %v", sm, err)
			}
			pm, err := s.c.PaymentMethods(ctx)
			if err != nil || len(pm) != len(sim.PaymentMethods) || pm[0].PaymentType.Code == "" {
				t.Fatalf("payment methods: %+v %v", pm, err)
			}
			list, err := s.c.Orders(ctx, shoptet.OrderQuery{})
			if err != nil || len(list.Orders) != shoptet.PerPage || list.Paginator.PageCount < 2 || list.Paginator.ItemsPerPage != shoptet.PerPage {
				t.Fatalf("orders: %d on the page, %+v, %v", len(list.Orders), list.Paginator, err)
			}
			var toPoint *shoptet.Order
			for _, o := range s.sim.Orders() {
				if o.Point == nil || !sim.Open(o) {
					continue
				}
				if toPoint, err = s.c.Order(ctx, o.Code); err != nil {
					t.Fatalf("order %s: %v", o.Code, err)
				}
				if toPoint.ShippingDetails == nil || toPoint.ShippingDetails.BranchID == nil || *toPoint.ShippingDetails.BranchID != o.Point.BranchID ||
					toPoint.Notes == nil || len(toPoint.Items) != len(o.Items) || toPoint.Items[0].Weight == "" {
					t.Fatalf("order %s read as %+v", o.Code, toPoint)
				}
				break
			}
			if toPoint == nil {
				t.Fatal("the demo shop has no open order to a point")
			}
			ch, err := s.c.Changes(ctx, sandboxtest.Epoch.AddDate(0, 0, -30), 1)
			if err != nil || len(ch.Changes) != shoptet.PerPage || ch.Paginator.TotalCount < 60 {
				t.Fatalf("changes: %d, %+v, %v", len(ch.Changes), ch.Paginator, err)
			}
		})
	}
}

// The token goes in Shoptet's header and never into the log; a token the
// shop does not know is refused before anything is read.
func TestTokenIsSentAndNeverLogged(t *testing.T) {
	s := start(t, sim.Token)
	if _, err := s.c.Eshop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s.logs.String(), sim.Token) || !strings.Contains(s.logs.String(), "interface=shoptet") {
		t.Errorf("log: %s", s.logs)
	}
	bad := start(t, "not-the-token-at-all")
	_, err := bad.c.Eshop(context.Background())
	if !transport.IsUnauthorized(err) || transport.FieldErrors(err)[0].Code != "invalid-token" {
		t.Errorf("a wrong token: %v", err)
	}
	if strings.Contains(bad.logs.String(), "not-the-token-at-all") {
		t.Errorf("the wrong token is in the log: %s", bad.logs)
	}
	ro := start(t, sim.ReadOnlyToken)
	if err := ro.c.SetTracking(context.Background(), ro.sim.Orders()[0].Code, "Z123"); transport.StatusOf(err) != 403 {
		t.Errorf("a read-only token writing: %v", err)
	}
}

// A full bucket's 429 is waited out by its Retry-After (a date on the
// shop's clock), the same write within the lock's seconds (423) is tried
// again after it, and a 503 is tried again until the shop answers.
func TestLimitsAreWaitedOut(t *testing.T) {
	ctx := context.Background()
	t.Run("429", func(t *testing.T) {
		s := start(t, sim.Token)
		st := s.sim.Settings()
		st.Bucket, st.LeakPerSecond = 3, 0.5
		s.sim.SetSettings(st)
		for range 6 {
			if _, err := s.c.Statuses(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if s.calls("orders/statuses", "429") == 0 || s.calls("orders/statuses", "200") != 6 {
			t.Errorf("counters %+v", s.metrics.Counters())
		}
		// The bucket leaks a drop in 2 s: Retry-After's date is a second or
		// two ahead, more than the back-off's first wait (at most 0.5 s).
		for _, d := range s.waits {
			if d <= 500*time.Millisecond {
				t.Errorf("waited %s after a 429, not until its Retry-After", d)
			}
		}
	})
	t.Run("423", func(t *testing.T) {
		s := start(t, sim.Token)
		code := s.sim.Orders()[0].Code
		for range 2 {
			if err := s.c.SetTracking(ctx, code, "Z1234567890"); err != nil {
				t.Fatal(err)
			}
		}
		if s.calls("orders/notes", "423") == 0 || s.calls("orders/notes", "200") != 2 {
			t.Errorf("counters %+v", s.metrics.Counters())
		}
		if o, _ := s.sim.Order(code); o.TrackingNumber != "Z1234567890" {
			t.Errorf("tracking number %q", o.TrackingNumber)
		}
	})
	t.Run("503", func(t *testing.T) {
		s := start(t, sim.Token)
		code := s.sim.Orders()[0].Code
		s.env.Fault("/shoptet/api/orders", map[string]any{"error_rate": 1, "count": 2})
		if _, err := s.c.Order(ctx, code); err != nil {
			t.Fatal(err)
		}
		if s.calls("orders/detail", "503") != 2 || s.calls("orders/detail", "200") != 1 {
			t.Errorf("counters %+v", s.metrics.Counters())
		}
		s.env.Fault("/shoptet/api/orders", map[string]any{"error_rate": 1})
		_, err := s.c.Order(ctx, code)
		if !transport.IsTemporary(err) || transport.StatusOf(err) != 503 || s.calls("orders/detail", "503") != 2+6 {
			t.Errorf("a shop down for good: %v, counters %+v", err, s.metrics.Counters())
		}
	})
}

// A code that would be another path is refused before the shop is asked.
func TestBadCodesAreNotSent(t *testing.T) {
	s := start(t, sim.Token)
	for _, code := range []string{"", "..", "../eshop", "1?x=1", "1#", "a b", "a\x00", "%2e", strings.Repeat("9", 65)} {
		if _, err := s.c.Order(context.Background(), code); err != shoptet.ErrBadCode {
			t.Errorf("%q: %v", code, err)
		}
	}
	if n := s.env.AllRequests(); n != 0 {
		t.Errorf("%d requests reached the shop", n)
	}
	if err := s.c.SetTracking(context.Background(), "2026000101", strings.Repeat("Z", 33)); err != shoptet.ErrTrackingTooLong {
		t.Errorf("33 characters: %v", err)
	}
}
