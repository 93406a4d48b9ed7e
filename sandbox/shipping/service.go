// Package shipping simulates the shipping API v1 and the cart API v2 of the
// service (interfaces.md), following public-evidence.md where the spec says "not
// shown". State lives in memory behind one mutex; everything that changes with
// time is derived from the simulated clock on each read.
package shipping

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"

	"shipdesk/clock"
	"shipdesk/sandbox/labelpdf"
)

// Config sets up the simulator.
type Config struct {
	Keys           []string     // account API keys; empty: sandbox-key-1, sandbox-key-2
	Clock          *clock.Clock // nil: real time
	Seed           int64        // carriers, services and points (0: 1)
	MaxBody        int64        // largest request body (0: 1 MiB)
	Render         func([]labelpdf.Page) ([]byte, error)
	RenderManifest func(labelpdf.Manifest) ([]byte, error)
	Shapes         string // ShapesDocumented (""), or ShapesMinimal
}

// Answer shapes. Minimal answers only with what interfaces.md and
// public-evidence.md guarantee, so a client that works against it relies on
// nothing the real service may lack; documented adds the sandbox's extras
// (marked x-sandbox-only in the OpenAPI document). Both enforce every rule.
const (
	ShapesDocumented = "documented"
	ShapesMinimal    = "minimal"
)

// CheckShapes refuses an unknown shape mode.
func CheckShapes(mode string) error {
	switch mode {
	case "", ShapesDocumented, ShapesMinimal:
		return nil
	}
	return fmt.Errorf("unknown answer shapes %q: use %s or %s", mode, ShapesMinimal, ShapesDocumented)
}

// Errors of the sandbox controls.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("conflict")
)

// Service is the simulated shipping and cart interfaces.
type Service struct {
	cfg   Config
	clock *clock.Clock

	carriers      []*Carrier
	carrierByCode map[string]*Carrier
	serviceByID   map[int]*Svc
	points        []*Point
	pointByID     map[int64]*Point
	pointByCode   map[string]*Point // carrier + "/" + code
	pointsByLoc   map[int64][]*Point
	accounts      []*account

	mu        sync.Mutex
	orders    map[int64]*order
	shipments map[string]*shipment
	carts     map[int64]*cart
	behaviour map[string]CarrierBehaviour
	nextOrder int64
	nextShip  int64
	nextCart  int64
	book      bookState // contacts added and courier pickups (book.go)
}

// New builds the simulator with its generated catalog.
func New(cfg Config) *Service {
	if cfg.Render == nil || cfg.RenderManifest == nil {
		panic("shipping.Config.Render and RenderManifest are required")
	}
	if err := CheckShapes(cfg.Shapes); err != nil {
		panic(err)
	}
	if cfg.Shapes == "" {
		cfg.Shapes = ShapesDocumented
	}
	if len(cfg.Keys) == 0 {
		cfg.Keys = []string{"sandbox-key-1", "sandbox-key-2"}
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Simulated()
	}
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = 1 << 20
	}
	s := &Service{cfg: cfg, clock: cfg.Clock, carrierByCode: map[string]*Carrier{}, serviceByID: map[int]*Svc{},
		pointByID: map[int64]*Point{}, pointByCode: map[string]*Point{}, pointsByLoc: map[int64][]*Point{}}
	s.carriers = generateCarriers(cfg.Seed)
	for _, c := range s.carriers {
		s.carrierByCode[c.Code] = c
		for i := range c.Services {
			s.serviceByID[c.Services[i].ID] = &c.Services[i]
		}
	}
	s.points = generatePoints(cfg.Seed, s.carriers)
	for _, p := range s.points {
		s.pointByID[p.ID] = p
		s.pointByCode[p.Carrier+"/"+p.Code] = p
		s.pointsByLoc[p.LocationID] = append(s.pointsByLoc[p.LocationID], p)
	}
	for i := range cfg.Keys {
		s.accounts = append(s.accounts, newAccount(i))
	}
	s.Wipe()
	return s
}

// documented reports whether answers carry the sandbox's extras.
func (s *Service) documented() bool { return s.cfg.Shapes == ShapesDocumented }

// newAccount gives each account two stored pickup addresses (contacts/list),
// named as the shop names its warehouses: the dashboard imports them as
// senders under these names, and the hand-over protocol prints them.
func newAccount(i int) *account {
	base := int64(i*10 + 1)
	return &account{Index: i, Bank: accountBanks[i%len(accountBanks)], Contacts: []contact{
		{ID: base, Default: true, address: address{Company: DemoSenderPraha, Firstname: "Jana", Surname: "Skladová",
			Street: "Skladová 12", City: "Praha", Zip: "190 00", Country: "CZ", Phone: "+420601000001", Email: "sklad@example.cz"}},
		{ID: base + 1, address: address{Company: "Sklad Brno", Firstname: "Petr", Surname: "Expediční",
			Street: "Vídeňská 88", City: "Brno", Zip: "619 00", Country: "CZ", Phone: "+420601000002", Email: "brno@example.cz"}},
	}}
}

// DemoSenderPraha is the name of every account's default pickup address.
const DemoSenderPraha = "Sklad Praha"

// accountBanks are the stored bank details of the accounts, in turn.
var accountBanks = []BankDetails{{Account: "19-2000145399", Code: "0800", Currency: "CZK"}, {Account: "2000145399", Code: "0800", Currency: "CZK"}}

// AccountBank is the stored bank details of the account of key.
func (s *Service) AccountBank(key string) (BankDetails, error) {
	for i, k := range s.cfg.Keys {
		if k == key {
			return s.accounts[i].Bank, nil
		}
	}
	return BankDetails{}, fmt.Errorf("account of key: %w", ErrNotFound)
}

// Carriers lists the generated carriers with their services.
func (s *Service) Carriers() []Carrier {
	out := make([]Carrier, len(s.carriers))
	for i, c := range s.carriers {
		out[i] = *c
	}
	return out
}

// Wipe deletes every order, shipment, draft, added contact and pickup; the
// catalog stays.
func (s *Service) Wipe() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.orders = map[int64]*order{}
	s.shipments = map[string]*shipment{}
	s.carts = map[int64]*cart{}
	s.behaviour = map[string]CarrierBehaviour{}
	s.nextOrder, s.nextShip, s.nextCart = 0, 0, 0
	s.resetBook()
}

// PayOrder pays an ONLINE order, named by id, number or token, which lets its
// shipments be exported.
func (s *Service) PayOrder(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.orders {
		if fmt.Sprint(o.ID) != id && o.Number != id && o.Token != id {
			continue
		}
		if o.Payment != "ONLINE" {
			return fmt.Errorf("order %s is paid by %s, not online: %w", id, strings.ToLower(o.Payment), ErrConflict)
		}
		if o.PaidAt != nil {
			return fmt.Errorf("order %s is already paid: %w", id, ErrConflict)
		}
		now := s.clock.Now()
		o.PaidAt = &now
		return nil
	}
	return fmt.Errorf("order %s: %w", id, ErrNotFound)
}

// SetCarrierBehaviour changes how a carrier behaves for shipments created from now on.
func (s *Service) SetCarrierBehaviour(code string, b CarrierBehaviour) error {
	c := s.carrier(code)
	if c == nil {
		return fmt.Errorf("carrier %q: %w", code, ErrNotFound)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.behaviour[c.Code] = b
	return nil
}

type snapshot struct {
	Orders    []*order                    `json:"orders"`
	Shipments []*shipment                 `json:"shipments"`
	Carts     []*cart                     `json:"carts"`
	Behaviour map[string]CarrierBehaviour `json:"behaviour"`
	Next      [3]int64                    `json:"next"`
	Book      *bookSnapshot               `json:"address_book,omitempty"`
}

// Snapshot is all mutable state as JSON.
func (s *Service) Snapshot() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := snapshot{Behaviour: s.behaviour, Next: [3]int64{s.nextOrder, s.nextShip, s.nextCart}, Book: s.snapshotBook()}
	for _, o := range s.orders {
		snap.Orders = append(snap.Orders, o)
	}
	sort.Slice(snap.Orders, func(i, j int) bool { return snap.Orders[i].ID < snap.Orders[j].ID })
	for _, sh := range s.shipments {
		snap.Shipments = append(snap.Shipments, sh)
	}
	sort.Slice(snap.Shipments, func(i, j int) bool { return snap.Shipments[i].TrackingNumber < snap.Shipments[j].TrackingNumber })
	for _, c := range s.carts {
		snap.Carts = append(snap.Carts, c)
	}
	sort.Slice(snap.Carts, func(i, j int) bool { return snap.Carts[i].ID < snap.Carts[j].ID })
	return json.Marshal(snap)
}

// Restore replaces all mutable state with a snapshot.
func (s *Service) Restore(b []byte) error {
	var snap snapshot
	if err := json.Unmarshal(b, &snap); err != nil {
		return fmt.Errorf("restore shipping state: %w", err)
	}
	s.Wipe()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range snap.Orders {
		s.orders[o.ID] = o
	}
	for _, sh := range snap.Shipments {
		sh.Carrier = currentCode(sh.Carrier) // older snapshots name the neutral codes
		s.shipments[sh.TrackingNumber] = sh
	}
	for _, c := range snap.Carts {
		s.carts[c.ID] = c
	}
	for code, b := range snap.Behaviour { // older snapshots have lower-case or neutral codes
		s.behaviour[currentCode(code)] = b
	}
	s.nextOrder, s.nextShip, s.nextCart = snap.Next[0], snap.Next[1], snap.Next[2]
	s.restoreBook(snap.Book)
	return nil
}

// accountOf returns the account of the request's key, or nil. Header names are
// case-insensitive (x-apikey, X-ApiKey, …); keys are compared in constant time.
func (s *Service) accountOf(r *http.Request) *account {
	key := r.Header.Get("X-Apikey")
	if key == "" {
		return nil
	}
	var found *account
	for i, k := range s.cfg.Keys {
		if subtle.ConstantTimeCompare([]byte(key), []byte(k)) == 1 {
			found = s.accounts[i]
		}
	}
	return found
}

func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
