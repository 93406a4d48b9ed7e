// Package staff is sign-in and staff management: checking passwords with the
// throttle, starting and ending sessions, adding, disabling and resetting accounts,
// and writing each of these to the audit log. The web handlers and the command
// line both use it, so the rules are the same from a browser and from a terminal.
package staff

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"shipdesk/apperr"
	"shipdesk/clock"
	"shipdesk/identity"
	"shipdesk/storage"
)

// Config sets session lifetimes and the cost of password hashing.
type Config struct {
	IdleTimeout     time.Duration // a session unused this long ends
	AbsoluteTimeout time.Duration // a session ends this long after sign-in, used or not
	BcryptCost      int
	Throttle        Throttle
	// Clock is what sessions and sign-in throttling are measured on: real
	// time (nil: clock.Real), never a simulator's, since the database judges
	// a session by its own now() and a simulated day must sign nobody out.
	Clock *clock.Clock
}

// Service signs staff in and manages accounts.
type Service struct {
	db    *storage.DB
	cfg   Config
	hash  hasher
	dummy string // a hash to check against when the user is unknown, for even timing
}

// New returns a Service; zero Config fields get defaults.
func New(db *storage.DB, cfg Config) (*Service, error) {
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = 4 * time.Hour
	}
	if cfg.AbsoluteTimeout == 0 {
		cfg.AbsoluteTimeout = 12 * time.Hour
	}
	if cfg.BcryptCost == 0 {
		cfg.BcryptCost = bcrypt.DefaultCost
	}
	if cfg.Throttle == (Throttle{}) {
		cfg.Throttle = DefaultThrottle()
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real()
	}
	h := hasher{cost: cfg.BcryptCost}
	dummy, err := h.hash("not a real password, only for even timing")
	if err != nil {
		return nil, err
	}
	return &Service{db: db, cfg: cfg, hash: h, dummy: dummy}, nil
}

// IdleTimeout is how long an unused session lives.
func (s *Service) IdleTimeout() time.Duration { return s.cfg.IdleTimeout }

// AbsoluteTimeout is how long any session lives.
func (s *Service) AbsoluteTimeout() time.Duration { return s.cfg.AbsoluteTimeout }

// Actor is who makes a change, for the audit log.
type Actor struct {
	ID      *int64
	Name    string // username, or "cli" for the command line
	Address string
}

// ActorOf makes an Actor of a signed-in staff member.
func ActorOf(st *identity.Staff, address string) Actor {
	if st == nil {
		return Actor{Name: "anonymous", Address: address}
	}
	id := st.ID
	return Actor{ID: &id, Name: st.Username, Address: address}
}

// CLI is the actor of changes made from the terminal.
var CLI = Actor{Name: "cli"}

var usernamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{1,39}$`)

// NormalizeUsername lower-cases and trims a username as typed.
func NormalizeUsername(u string) string { return strings.ToLower(strings.TrimSpace(u)) }

func checkUsername(u string) error {
	if !usernamePattern.MatchString(u) {
		return apperr.Fields("staff.username_other", apperr.Problems{"username": apperr.Msg("staff.username_shape")})
	}
	return nil
}

// SignIn checks credentials under the throttle and starts a session. It returns
// the session token for the cookie. Every failure is the same Unauthorized error, so
// nobody learns which usernames exist; a throttled attempt is TooMany.
func (s *Service) SignIn(ctx context.Context, username, password, address, userAgent string) (*identity.Staff, string, error) {
	username = NormalizeUsername(username)
	if err := s.admitAttempt(ctx, username, address); err != nil {
		return nil, "", err
	}

	u, lookupErr := s.db.UserByUsername(ctx, username)
	if lookupErr != nil && !apperr.Is(lookupErr, apperr.NotFound) {
		return nil, "", lookupErr
	}
	hash := s.dummy
	if lookupErr == nil {
		hash = u.PasswordHash
	}
	ok, err := s.hash.matches(hash, password)
	if err != nil {
		return nil, "", err
	}
	if lookupErr != nil || !ok || u.Disabled() {
		// The admitted attempt stays recorded: it is this failure.
		reason := "wrong password"
		switch {
		case lookupErr != nil:
			reason = "unknown user"
		case u.Disabled() && ok:
			reason = "account disabled"
		}
		_ = s.db.Audit(ctx, nil, username, "sign-in failed", username, map[string]any{"reason": reason}, address)
		return nil, "", apperr.New(apperr.Unauthorized, "login.failed")
	}

	token, tokenHash, err := newToken()
	if err != nil {
		return nil, "", err
	}
	staff := &identity.Staff{ID: u.ID, Username: u.Username, Role: u.Role}
	err = s.db.InTx(ctx, func(tx *storage.DB) error {
		if err := tx.CreateSession(ctx, tokenHash, u.ID, s.cfg.Clock.Now().Add(s.cfg.AbsoluteTimeout), address, userAgent); err != nil {
			return err
		}
		if err := tx.ClearLoginFailures(ctx, username, address); err != nil {
			return err
		}
		return tx.Audit(ctx, &u.ID, u.Username, "sign-in", u.Username, nil, address)
	})
	if err != nil {
		return nil, "", fmt.Errorf("sign in %s: %w", username, err)
	}
	return staff, token, nil
}

// admitAttempt records the attempt as a failure before its password is checked,
// or refuses it with TooMany when the throttle says wait. The lock makes count
// and record one step, so parallel guesses cannot all pass on the same count.
func (s *Service) admitAttempt(ctx context.Context, username, address string) error {
	return s.db.InTx(ctx, func(tx *storage.DB) error {
		if err := tx.LockSignIn(ctx, username, address); err != nil {
			return err
		}
		counts, err := tx.LoginFailures(ctx, username, address, s.cfg.Throttle.Window)
		if err != nil {
			return err
		}
		if no := s.cfg.Throttle.check(counts, s.cfg.Clock.Now()); no.wait > 0 {
			secs := max(int(math.Ceil(no.wait.Seconds())), 1) // as Retry-After says it
			if no.fromHere {
				return apperr.Throttled(no.wait, apperr.Count("staff.throttle_here", secs))
			}
			return apperr.Throttled(no.wait, apperr.Count("staff.throttle_account", secs))
		}
		return tx.RecordLoginFailure(ctx, username, address)
	})
}

// Authenticate returns the staff member of a live session token: one query
// reads the session's row and its user's, so a sign-out, a disabled account,
// a password reset or a new language shows on the next request, on every
// instance.
func (s *Service) Authenticate(ctx context.Context, token string) (*identity.Staff, error) {
	if token == "" {
		return nil, apperr.New(apperr.Unauthorized, "staff.sign_in")
	}
	var buf [256]byte // a token fits: hashed without a copy on the heap (asked on every request)
	h := sha256.Sum256(append(buf[:0], token...))
	live, err := s.db.LiveSession(ctx, h[:], s.cfg.IdleTimeout)
	if err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return nil, apperr.New(apperr.Unauthorized, "login.session_ended")
		}
		return nil, err
	}
	return &identity.Staff{ID: live.UserID, Username: live.Username, Role: live.Role, Lang: live.Lang}, nil
}

// SignOut ends the session of token in its row: the next request with it,
// on any instance, is refused.
func (s *Service) SignOut(ctx context.Context, st *identity.Staff, token, address string) error {
	if token == "" {
		return nil
	}
	return s.db.InTx(ctx, func(tx *storage.DB) error {
		if err := tx.RevokeSession(ctx, hashToken(token)); err != nil {
			return err
		}
		if st == nil {
			return nil
		}
		return tx.Audit(ctx, &st.ID, st.Username, "sign-out", st.Username, nil, address)
	})
}

func newToken() (string, []byte, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", nil, fmt.Errorf("session token: %w", err)
	}
	t := base64.RawURLEncoding.EncodeToString(b)
	return t, hashToken(t), nil
}

func hashToken(t string) []byte {
	h := sha256.Sum256([]byte(t))
	return h[:]
}

// SetLanguage saves the language a staff member reads the dashboard in.
func (s *Service) SetLanguage(ctx context.Context, st *identity.Staff, lang string) error {
	if st == nil {
		return apperr.New(apperr.Unauthorized, "staff.sign_in_first")
	}
	return s.db.SetLanguage(ctx, st.ID, lang)
}
