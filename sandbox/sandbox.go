// Package sandbox assembles the simulator of the shipping service: the shipping
// API v1 and cart API v2 (sandbox/shipping), the returns API v1 under /returns
// (sandbox/returns), a Czech shop's Shoptet API under /shoptet
// (sandbox/shoptet), and controls under /sandbox/ that the real service does not
// have: moving the clock, paying orders, making carriers misbehave, injecting
// faults, wiping, and the OpenAPI document of it all.
package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"shipdesk/clock"
	"shipdesk/sandbox/apijson"
	"shipdesk/sandbox/labelpdf"
	"shipdesk/sandbox/openapi"
	"shipdesk/sandbox/returns"
	"shipdesk/sandbox/shipping"
	"shipdesk/sandbox/shoptet"
)

// Options configure a sandbox.
type Options struct {
	ShippingKeys []string     // empty: sandbox-key-1, sandbox-key-2
	ReturnsKeys  []string     // empty: sandbox-returns-key
	Seed         int64        // catalog generation (0: 1)
	Clock        *clock.Clock // nil: real time plus advances
	StateFile    string       // keep state across restarts; "" keeps it in memory
	WipeAt       string       // "HH:MM": wipe every day at this local time; "" never
	Shapes       string       // shipping answer shapes: "documented" ("") or "minimal"
	Log          *slog.Logger
}

// Sandbox is a running simulator.
type Sandbox struct {
	opts     Options
	clock    *clock.Clock
	Shipping *shipping.Service
	Returns  *returns.Service
	Shoptet  *shoptet.Service
	faults   *faults
	handler  http.Handler
	log      *slog.Logger

	stop     chan struct{}
	done     sync.WaitGroup
	srv      *http.Server
	closeMu  sync.Once
	wipeHour int
	wipeMin  int
}

// New builds a sandbox, restoring its state file when one exists.
func New(o Options) (*Sandbox, error) {
	if o.Clock == nil {
		o.Clock = clock.Simulated()
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	sb := &Sandbox{opts: o, clock: o.Clock, log: o.Log, faults: newFaults(o.Seed), stop: make(chan struct{}), wipeHour: -1}
	if o.WipeAt != "" {
		t, err := time.Parse("15:04", o.WipeAt)
		if err != nil {
			return nil, fmt.Errorf("--wipe-at %q: want HH:MM", o.WipeAt)
		}
		sb.wipeHour, sb.wipeMin = t.Hour(), t.Minute()
	}
	if err := shipping.CheckShapes(o.Shapes); err != nil {
		return nil, fmt.Errorf("--shapes: %w", err)
	}
	sb.Shipping = shipping.New(shipping.Config{Keys: o.ShippingKeys, Clock: o.Clock, Seed: o.Seed, Shapes: o.Shapes,
		Render: labelpdf.Render, RenderManifest: labelpdf.RenderManifest})
	sb.Returns = returns.New(returns.Config{Keys: o.ReturnsKeys, Clock: o.Clock, Seed: o.Seed})
	sb.Shoptet = shoptet.New(shoptet.Config{Clock: o.Clock, Seed: o.Seed, Shapes: o.Shapes, Points: shopPoints(sb.Shipping.Points())})
	if o.StateFile != "" {
		if err := sb.load(); err != nil {
			sb.Shoptet.Close()
			return nil, err
		}
	}
	mux := http.NewServeMux()
	sb.Shipping.Register(mux)
	sb.Returns.Register(mux)
	sb.Shoptet.Register(mux, "/shoptet")
	sb.registerControls(mux)
	sb.handler = logRequests(sb.log, sb.faults.wrap(apijson.WithJSONFallbacks(mux)))
	sb.done.Add(1)
	go sb.background()
	return sb, nil
}

// Handler serves the whole sandbox.
func (sb *Sandbox) Handler() http.Handler { return sb.handler }

// Start serves on addr ("127.0.0.1:0" picks a port) and returns the base URL.
func (sb *Sandbox) Start(addr string) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("sandbox: listen on %s: %w", addr, err)
	}
	sb.srv = &http.Server{Handler: sb.handler, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := sb.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			sb.log.Error("sandbox stopped serving", "err", err)
		}
	}()
	return "http://" + ln.Addr().String(), nil
}

// Close stops serving and the background work and saves the state file.
func (sb *Sandbox) Close() error {
	var err error
	sb.closeMu.Do(func() {
		close(sb.stop)
		sb.done.Wait()
		sb.Shoptet.Close()
		if sb.srv != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = sb.srv.Shutdown(ctx)
		}
		if sb.opts.StateFile != "" {
			err = sb.save()
		}
	})
	return err
}

// background saves the state every minute and wipes on schedule.
func (sb *Sandbox) background() {
	defer sb.done.Done()
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	lastWipe := ""
	for {
		select {
		case <-sb.stop:
			return
		case now := <-tick.C:
			if sb.wipeHour >= 0 && now.Hour() == sb.wipeHour && now.Minute() == sb.wipeMin && lastWipe != now.Format("2006-01-02") {
				lastWipe = now.Format("2006-01-02")
				sb.Wipe()
				sb.log.Info("sandbox wiped on schedule", "at", sb.opts.WipeAt)
			}
			if sb.opts.StateFile != "" {
				if err := sb.save(); err != nil {
					sb.log.Error("save sandbox state", "err", err)
				}
			}
		}
	}
}

// Wipe deletes all data of every interface (the catalog stays; the shop is
// back to its demo orders).
func (sb *Sandbox) Wipe() {
	sb.Shipping.Wipe()
	sb.Returns.Wipe()
	sb.Shoptet.Wipe()
}

// shopPoints are the shipping sandbox's points as the shop's checkout offers them.
func shopPoints(points []shipping.Point) []shoptet.ParcelPoint {
	out := make([]shoptet.ParcelPoint, len(points))
	for i, p := range points {
		out[i] = shoptet.ParcelPoint{Carrier: p.Carrier, Code: p.Code, Name: p.Name, Street: p.Street, City: p.City, Zip: p.Zip, Country: p.Country, Lat: p.Location.Lat, Lng: p.Location.Lng}
	}
	return out
}

type stateFile struct {
	ClockOffset time.Duration   `json:"clock_offset"`
	Shipping    json.RawMessage `json:"shipping"`
	Returns     json.RawMessage `json:"returns"`
	Shoptet     json.RawMessage `json:"shoptet,omitempty"`
}

func (sb *Sandbox) save() error {
	var st stateFile
	var err error
	st.ClockOffset = sb.clock.Offset()
	if st.Shipping, err = sb.Shipping.Snapshot(); err != nil {
		return err
	}
	if st.Returns, err = sb.Returns.Snapshot(); err != nil {
		return err
	}
	if st.Shoptet, err = sb.Shoptet.Snapshot(); err != nil {
		return err
	}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	// Write beside, then rename: a crash never leaves half a state file.
	tmp, err := os.CreateTemp(filepath.Dir(sb.opts.StateFile), ".sandbox-state-*")
	if err != nil {
		return fmt.Errorf("save sandbox state: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("save sandbox state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), sb.opts.StateFile)
}

func (sb *Sandbox) load() error {
	b, err := os.ReadFile(sb.opts.StateFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read sandbox state: %w", err)
	}
	var st stateFile
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("sandbox state file %s is not valid: %w", sb.opts.StateFile, err)
	}
	sb.clock.SetOffset(st.ClockOffset)
	if len(st.Shipping) > 0 {
		if err := sb.Shipping.Restore(st.Shipping); err != nil {
			return err
		}
	}
	if len(st.Returns) > 0 {
		if err := sb.Returns.Restore(st.Returns); err != nil {
			return err
		}
	}
	if len(st.Shoptet) > 0 {
		if err := sb.Shoptet.Restore(st.Shoptet); err != nil {
			return err
		}
	}
	return nil
}

// Document is the OpenAPI 3.1 document of every operation, controls included.
func (sb *Sandbox) Document() map[string]any {
	return openapi.Document("shipdesk sandbox", "1", "A deterministic simulator of the shipping API v1, the cart API v2 and the returns API v1 (at /returns/api/v1), with controls under /sandbox/ that the real service does not have. Like the real, Czech service it answers in Czech: messages, validation errors, tracking events and their places, commission history notes, product types and models, and the texts of labels and hand-over protocols. Send Accept-Language with English first (for example `Accept-Language: en`) for English; any other request is answered in Czech, and Content-Language says which. "+shipping.CarrierRoles(), sb.Operations(), sb.Components())
}

// logRequests logs each call without keys or bodies.
func logRequests(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		watch := clock.Start()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		log.Debug("sandbox request", "method", r.Method, "path", r.URL.Path, "status", sw.status, "duration", watch.Elapsed())
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int)        { w.status = code; w.ResponseWriter.WriteHeader(code) }
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
