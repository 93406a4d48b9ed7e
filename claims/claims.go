// Package claims is the customer's side of a return: the claim page a
// customer reaches without an account. A customer asks for a one-time link
// by the reference of a parcel and the address it went to (the answer is the
// same whether or not the purchase exists), files a withdrawal or a claim of
// a defect through it, and follows it on a status page whose unguessable
// link every mail of the claim carries.
//
// A claim is kept first; what it sets off upstream (its commission at the
// returns API, its return parcel at the shipping API, each exactly once
// through the desks) is done right away and, when the service is away, by
// the pollers until it is done (Advance).
package claims

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"shipdesk/clock"
	"shipdesk/desk"
	"shipdesk/mail"
	"shipdesk/storage"
	"shipdesk/upload"
	"shipdesk/workbench"
)

// Limits of the public pages.
const (
	LinkTTL      = 24 * time.Hour // a mailed link opens the form this long
	MaxPhotos    = 6              // photos per claim, and per reply
	MaxFileBytes = workbench.MaxUpload
	MaxTotal     = 30 << 20 // all files of one post together
	MaxText      = 5000     // a description or a reply
	// HandOverDays is how long the customer has to hand the parcel over: the
	// 14 days in which a consumer sends back goods after withdrawing (civil
	// code §1831), the same for a claim so that a code never waits forever.
	HandOverDays = 14
)

// Service runs the claim page.
type Service struct {
	db     *storage.DB
	ship   *desk.Desk
	bench  *workbench.Workbench
	outbox *mail.Outbox
	clock  *clock.Clock
	log    *slog.Logger
	// BaseURL is the dashboard's public address, which the links in mails
	// start with ("https://shop.example/").
	BaseURL string
	// Limits are the throttles of the public pages.
	Limits Limits
	// Retry is the first wait after a failed step; it doubles up to an hour.
	Retry time.Duration
	// Purchases, when set, tell what a purchase from the connected shop
	// bought: the form offers its items and the commission says them.
	Purchases Purchases

	shop  atomic.Pointer[string] // the shop's name as last read (Shop)
	files *upload.Keeper         // what is kept of the customers' files
}

// New returns the claim page's service on the dashboard's clock.
func New(db *storage.DB, ship *desk.Desk, bench *workbench.Workbench, outbox *mail.Outbox, clk *clock.Clock, baseURL string, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, ship: ship, bench: bench, outbox: outbox, clock: clk, log: log, BaseURL: baseURL,
		Limits: DefaultLimits, Retry: time.Minute, files: upload.NewKeeper()}
}

// newToken is 32 random bytes, as a link carries them.
func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func hashOf(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// TokenHash is what the database keeps of a link's token: its SHA-256.
func TokenHash(token string) []byte { return hashOf(token) }

// tokenShape: what newToken makes; anything else is not looked up.
func tokenShape(s string) bool {
	if len(s) != 43 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// now is the time on the dashboard's clock.
func (s *Service) now() time.Time { return s.clock.Now() }

// StatusURL is the address of a claim's status page.
func (s *Service) StatusURL(token string) string { return s.BaseURL + "claim/status/" + token }

// linkURL is the address a one-time link opens.
func (s *Service) linkURL(token string) string { return s.BaseURL + "claim/open/" + token }

// statusKey makes a new key of the claim's status page on tx (kept as its
// hash only: each link that goes out has its own, since none can be read
// back) and returns it.
func (s *Service) statusKey(ctx context.Context, tx *storage.DB, claimID int64) (string, error) {
	token := newToken()
	return token, tx.AddStatusKey(ctx, claimID, hashOf(token), s.now())
}

// statusMailKept is how long the outbox keeps a mail with a status page's
// link whole: a status link does not expire, so as long as a one-time
// link lives, then only the mail's record stays.
const statusMailKept = LinkTTL

// StatusLinkOf is, on tx, a new link to the status page of the claim a
// commission came from, and until when a mail carrying it is kept whole;
// "" for a commission an agent typed in (for the returns desk's mails).
// The commission carries the claim's request key, so its intake
// confirmation, mailed before the claim is bound to it, has the link too.
func (s *Service) StatusLinkOf(ctx context.Context, tx *storage.DB, commissionID int64) (string, time.Time) {
	com, err := tx.CommissionByID(ctx, commissionID)
	if err != nil {
		return "", time.Time{}
	}
	c, err := tx.ClaimByRequestKey(ctx, com.RequestKey)
	if err != nil {
		return "", time.Time{}
	}
	token, err := s.statusKey(ctx, tx, c.ID)
	if err != nil {
		s.log.Warn("no status link for the mail", "claim", c.ID, "err", err)
		return "", time.Time{}
	}
	return s.StatusURL(token), s.now().Add(statusMailKept)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
