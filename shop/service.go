package shop

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"time"

	"shipdesk/apperr"
	"shipdesk/clock"
	"shipdesk/desk"
	"shipdesk/storage"
	"shipdesk/throttle"
)

// Opener makes the Source of a shop on its platform from the address of its
// API and its token: one per platform (shoptet.Open), set by the wiring.
type Opener func(baseURL string, token Token) (Source, error)

// Config is how the shop's orders are synced and written back.
type Config struct {
	// Platforms open a connected shop's Source, by the platform's name.
	Platforms map[string]Opener
	// Sealer seals the token at rest (NewSealer of the session key).
	Sealer *Sealer
	// Who names this instance in leases.
	Who string
	// PublicURL is the dashboard's address as customers reach it: an
	// order's tracking link (desk.TrackingLink) starts with it.
	PublicURL string
	// Lease is how long a sync's or a write's lease holds.
	Lease time.Duration
	// SyncEvery is the pollers' cadence of the sync (a minute); after
	// failures in a row SyncBackoff waits longer, catching up after.
	SyncEvery   time.Duration
	SyncBackoff throttle.Backoff
	// Parallel is how many orders are read at once (the platform allows 3
	// connections per token).
	Parallel int
	// Overlap is how far before the last change seen a sync asks again, so
	// a change stamped in the same moment as the last is never missed; what
	// is known already is not read again.
	Overlap time.Duration
	// FirstSync is how far back a newly connected shop's orders are read.
	FirstSync time.Duration
	// WriteAttempts and WriteBackoff: how often a write back is tried, and
	// how long it waits after each failure.
	WriteAttempts int
	WriteBackoff  throttle.Backoff
	// Handover is how a batch made of orders hands its parcels over.
	Handover string
	// HooksURL is the dashboard's public address of the platform's webhooks
	// ("": the dashboard is not reachable, the sync alone reads changes).
	HooksURL string
}

func (c *Config) defaults() {
	c.Lease = cmp.Or(c.Lease, 2*time.Minute)
	c.SyncEvery = cmp.Or(c.SyncEvery, time.Minute)
	if c.SyncBackoff == (throttle.Backoff{}) {
		c.SyncBackoff = throttle.Backoff{Free: 1, FirstWait: c.SyncEvery, MaxWait: 10 * time.Minute}
	}
	c.Parallel = cmp.Or(c.Parallel, 3)
	c.Overlap = cmp.Or(c.Overlap, time.Minute)
	c.FirstSync = cmp.Or(c.FirstSync, 30*24*time.Hour)
	c.WriteAttempts = cmp.Or(c.WriteAttempts, 10)
	if c.WriteBackoff == (throttle.Backoff{}) {
		c.WriteBackoff = throttle.Backoff{Free: 1, FirstWait: time.Minute, MaxWait: time.Hour}
	}
	c.Handover = cmp.Or(c.Handover, desk.HandoverOnDemand)
	if c.Who == "" {
		host, _ := os.Hostname()
		c.Who = host + "/" + strconv.Itoa(os.Getpid())
	}
}

// Service is the shop's side of the desk: the connection and its mappings,
// the orders synced from the shop, the clerk's inbox, shipping an order
// exactly once, the writes back, and a purchase's items for the claim page.
type Service struct {
	db    *storage.DB
	desk  *desk.Desk
	clock *clock.Clock
	log   *slog.Logger
	cfg   Config

	mu     sync.Mutex
	opened *openSource // the Source of the connection as last opened
}

// openSource is a Source kept for the connection it was opened for: one
// client per token, so its limit of connections holds across the sync, the
// webhooks' reads and the writes.
type openSource struct {
	platform, baseURL string
	sealed            []byte
	src               Source
}

// New returns the shop's service on the dashboard's clock.
func New(db *storage.DB, d *desk.Desk, clk *clock.Clock, cfg Config, log *slog.Logger) (*Service, error) {
	if cfg.Sealer == nil {
		return nil, errors.New("shop: no sealer for the token")
	}
	cfg.defaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, desk: d, clock: clk, log: log, cfg: cfg}, nil
}

func (s *Service) now() time.Time { return s.clock.Now() }

// source is the connected shop's Source and its connection; NotFound when
// no shop is connected.
func (s *Service) source(ctx context.Context) (Source, storage.ShopConnection, error) {
	c, err := s.db.ShopConnection(ctx)
	if err != nil {
		return nil, c, err
	}
	src, err := s.sourceOf(c)
	return src, c, err
}

func (s *Service) sourceOf(c storage.ShopConnection) (Source, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if o := s.opened; o != nil && o.platform == c.Platform && o.baseURL == c.BaseURL && bytes.Equal(o.sealed, c.TokenSealed) {
		return o.src, nil
	}
	token, err := s.sealer().Open(c.TokenSealed)
	if err != nil {
		return nil, &apperr.Error{Code: apperr.Unauthorized, Message: apperr.Msg("shop.err.token_sealed"), Err: err}
	}
	src, err := s.open(c.Platform, c.BaseURL, token)
	if err != nil {
		return nil, err
	}
	s.opened = &openSource{platform: c.Platform, baseURL: c.BaseURL, sealed: c.TokenSealed, src: src}
	return src, nil
}

// open makes a Source of the platform.
func (s *Service) open(platform, baseURL string, token Token) (Source, error) {
	opener, ok := s.cfg.Platforms[platform]
	if !ok {
		return nil, apperr.Fields("form.see_fields", apperr.Problems{"platform": apperr.Msg("shop.err.platform", platform)})
	}
	src, err := opener(baseURL, token)
	if err != nil {
		return nil, apperr.Fields("form.see_fields", apperr.Problems{"base_url": apperr.Msg("shop.err.base_url")})
	}
	return src, nil
}

func (s *Service) sealer() *Sealer { return s.cfg.Sealer }

// lease is a lease on the dashboard's clock.
func (s *Service) lease(limit int) storage.Lease {
	return storage.Lease{Who: s.cfg.Who, Now: s.now(), Limit: limit, For: s.cfg.Lease}
}
