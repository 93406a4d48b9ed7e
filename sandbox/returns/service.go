// Package returns simulates the returns API v1: service orders (commissions)
// with uploads of proofs of purchase, transport from and to the customer,
// activities (public messages and internal notes), status history, product
// models and types. The spec shows no payloads, so the shapes here are our
// written choice, documented in the sandbox's OpenAPI document.
package returns

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"

	"shipdesk/clock"
	"shipdesk/sandbox/apijson"
)

// Config sets up the simulator.
type Config struct {
	Keys      []string     // empty: sandbox-returns-key
	Clock     *clock.Clock // nil: real time
	Seed      int64        // product models and types (0: 1)
	MaxUpload int64        // largest upload (0: 10 MiB)
	MaxBody   int64        // largest JSON body (0: 1 MiB)
}

// Service is the simulated returns interface.
type Service struct {
	cfg    Config
	clock  *clock.Clock
	types  []ProductType
	models []ProductModel

	mu          sync.Mutex
	commissions map[int64]*commission
	uploads     map[string]*upload
	next        int64
	nextAct     int64
}

// New builds the simulator.
func New(cfg Config) *Service {
	if len(cfg.Keys) == 0 {
		cfg.Keys = []string{"sandbox-returns-key"}
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Simulated()
	}
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	if cfg.MaxUpload <= 0 {
		cfg.MaxUpload = 10 << 20
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = 1 << 20
	}
	s := &Service{cfg: cfg, clock: cfg.Clock}
	s.types, s.models = generateProducts(cfg.Seed)
	s.Wipe()
	return s
}

// Wipe deletes every commission and upload (the test environment is wiped nightly).
func (s *Service) Wipe() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.commissions = map[int64]*commission{}
	s.uploads = map[string]*upload{}
	s.next, s.nextAct = 0, 0
}

// stored is a commission with the times the API does not show.
type stored struct {
	C                          *commission
	Created, Inbound, Outbound time.Time
	Account                    int
}

type snapshot struct {
	Commissions []stored  `json:"commissions"`
	Uploads     []*upload `json:"uploads"`
	Next        [2]int64  `json:"next"`
}

// Snapshot is all mutable state as JSON.
func (s *Service) Snapshot() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := snapshot{Next: [2]int64{s.next, s.nextAct}}
	for _, c := range s.commissions {
		snap.Commissions = append(snap.Commissions, stored{C: c, Created: c.created, Inbound: c.inbound, Outbound: c.outbound, Account: c.Account})
	}
	sort.Slice(snap.Commissions, func(i, j int) bool { return snap.Commissions[i].C.ID < snap.Commissions[j].C.ID })
	for _, u := range s.uploads {
		snap.Uploads = append(snap.Uploads, u)
	}
	sort.Slice(snap.Uploads, func(i, j int) bool { return snap.Uploads[i].Token < snap.Uploads[j].Token })
	return json.Marshal(snap)
}

// Restore replaces all mutable state.
func (s *Service) Restore(b []byte) error {
	var snap snapshot
	if err := json.Unmarshal(b, &snap); err != nil {
		return fmt.Errorf("restore returns state: %w", err)
	}
	s.Wipe()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range snap.Commissions {
		c := st.C
		c.created, c.inbound, c.outbound, c.Account = st.Created, st.Inbound, st.Outbound, st.Account
		s.commissions[c.ID] = c
	}
	for _, u := range snap.Uploads {
		s.uploads[u.Token] = u
	}
	s.next, s.nextAct = snap.Next[0], snap.Next[1]
	return nil
}

// account returns the index of the request's key, or -1.
func (s *Service) account(r *http.Request) int {
	key := r.Header.Get("X-Apikey")
	found := -1
	for i, k := range s.cfg.Keys {
		if key != "" && subtle.ConstantTimeCompare([]byte(key), []byte(k)) == 1 {
			found = i
		}
	}
	return found
}

func token() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// stamp writes a moment as the service does: "2026-11-22 14:05:09", Czech time.
func stamp(t time.Time) string { return apijson.Stamp(t) }
