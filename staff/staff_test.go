package staff_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"shipdesk/apperr"
	"shipdesk/clock"
	"shipdesk/identity"
	"shipdesk/staff"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

func newService(t *testing.T) (*staff.Service, *storage.DB) {
	t.Helper()
	db := pgtest.New(t)
	s, err := staff.New(db, staff.Config{BcryptCost: bcrypt.MinCost})
	if err != nil {
		t.Fatal(err)
	}
	return s, db
}

func mustAdd(t *testing.T, s *staff.Service, name string, role identity.Role, pw string) storage.User {
	t.Helper()
	u, err := s.AddUser(context.Background(), staff.CLI, name, role, pw)
	if err != nil {
		t.Fatalf("add %s: %v", name, err)
	}
	return u
}

func TestSignInAndAuthenticate(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	mustAdd(t, s, "ivana", identity.Clerk, "correct horse battery")
	st, token, err := s.SignIn(ctx, " Ivana ", "correct horse battery", "10.0.0.1", "test")
	if err != nil {
		t.Fatalf("sign in: %v", err)
	}
	if st.Role != identity.Clerk || token == "" {
		t.Fatalf("got %+v %q", st, token)
	}
	got, err := s.Authenticate(ctx, token)
	if err != nil || got.Username != "ivana" {
		t.Fatalf("authenticate: %+v %v", got, err)
	}
}

func TestWrongPasswordIsUnauthorized(t *testing.T) {
	s, _ := newService(t)
	mustAdd(t, s, "ivana", identity.Clerk, "correct horse battery")
	_, _, err := s.SignIn(context.Background(), "ivana", "wrong password!", "10.0.0.1", "")
	if !apperr.Is(err, apperr.Unauthorized) {
		t.Fatalf("got %v, want Unauthorized", err)
	}
	_, _, err = s.SignIn(context.Background(), "nobody", "wrong password!", "10.0.0.1", "")
	if !apperr.Is(err, apperr.Unauthorized) {
		t.Fatalf("unknown user: got %v, want the same Unauthorized", err)
	}
}

func TestDisabledUserCannotSignIn(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	u := mustAdd(t, s, "petr", identity.Agent, "correct horse battery")
	_, token, err := s.SignIn(ctx, "petr", "correct horse battery", "10.0.0.1", "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetDisabled(ctx, staff.CLI, u.ID, true); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.SignIn(ctx, "petr", "correct horse battery", "10.0.0.1", ""); !apperr.Is(err, apperr.Unauthorized) {
		t.Fatalf("disabled sign-in: got %v", err)
	}
	if _, err := s.Authenticate(ctx, token); !apperr.Is(err, apperr.Unauthorized) {
		t.Fatalf("a disabled user's existing session must end, got %v", err)
	}
}

func TestSignOutEndsSession(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	mustAdd(t, s, "ivana", identity.Clerk, "correct horse battery")
	st, token, _ := s.SignIn(ctx, "ivana", "correct horse battery", "10.0.0.1", "")
	if err := s.SignOut(ctx, st, token, "10.0.0.1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, token); !apperr.Is(err, apperr.Unauthorized) {
		t.Fatalf("token still valid after sign-out: %v", err)
	}
}

func TestPasswordResetEndsSessions(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	u := mustAdd(t, s, "ivana", identity.Clerk, "correct horse battery")
	_, token, _ := s.SignIn(ctx, "ivana", "correct horse battery", "10.0.0.1", "")
	if err := s.SetPassword(ctx, staff.CLI, u.ID, "a brand new password"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, token); err == nil {
		t.Fatal("session survived a password reset")
	}
	if _, _, err := s.SignIn(ctx, "ivana", "a brand new password", "10.0.0.1", ""); err != nil {
		t.Fatalf("new password refused: %v", err)
	}
}

func TestIdleAndAbsoluteExpiry(t *testing.T) {
	ctx := context.Background()
	db := pgtest.New(t)
	s, _ := staff.New(db, staff.Config{BcryptCost: bcrypt.MinCost, IdleTimeout: time.Second, AbsoluteTimeout: time.Hour})
	mustAdd(t, s, "ivana", identity.Clerk, "correct horse battery")
	_, token, _ := s.SignIn(ctx, "ivana", "correct horse battery", "10.0.0.1", "")
	time.Sleep(1500 * time.Millisecond)
	if _, err := s.Authenticate(ctx, token); !apperr.Is(err, apperr.Unauthorized) {
		t.Fatalf("idle session still valid: %v", err)
	}

	s2, _ := staff.New(db, staff.Config{BcryptCost: bcrypt.MinCost, IdleTimeout: time.Hour, AbsoluteTimeout: time.Second})
	_, token, _ = s2.SignIn(ctx, "ivana", "correct horse battery", "10.0.0.1", "")
	time.Sleep(1500 * time.Millisecond)
	if _, err := s2.Authenticate(ctx, token); !apperr.Is(err, apperr.Unauthorized) {
		t.Fatalf("session past its absolute expiry still valid: %v", err)
	}
}

func TestThrottleSlowsGuessing(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	mustAdd(t, s, "ivana", identity.Clerk, "correct horse battery")
	free := staff.DefaultThrottle().Pair.Free
	var unauthorized, throttled int
	for range 20 {
		_, _, err := s.SignIn(ctx, "ivana", "guess", "10.0.0.9", "")
		switch apperr.CodeOf(err) {
		case apperr.Unauthorized:
			unauthorized++
		case apperr.TooMany:
			throttled++
			if !strings.Contains(apperr.TextOf(err).String(), "Too many failed sign-ins from here. Wait ") {
				t.Fatalf("throttled attempt says %q", apperr.TextOf(err).String())
			}
		default:
			t.Fatalf("unexpected %v", err)
		}
	}
	if unauthorized != free || throttled != 20-unauthorized {
		t.Fatalf("%d checked, %d throttled: the throttle must stop checking after %d failures", unauthorized, throttled, free)
	}
	// Even the right password waits at this address: otherwise the throttle only
	// slows wrong guesses.
	if _, _, err := s.SignIn(ctx, "ivana", "correct horse battery", "10.0.0.9", ""); !apperr.Is(err, apperr.TooMany) {
		t.Fatalf("right password during lock-out: got %v, want TooMany", err)
	}
}

// The owner is not kept out by someone failing on her account from elsewhere,
// and her sign-in does not reset that someone's throttle.
func TestOwnerSignsInWhileAttackedFromElsewhere(t *testing.T) {
	ctx := context.Background()
	s, db := newService(t)
	mustAdd(t, s, "ivana", identity.Clerk, "correct horse battery")
	for range 30 {
		_, _, err := s.SignIn(ctx, "ivana", "guess", "198.51.100.66", "")
		if c := apperr.CodeOf(err); c != apperr.Unauthorized && c != apperr.TooMany {
			t.Fatalf("attacker: %v", err)
		}
	}
	if _, _, err := s.SignIn(ctx, "ivana", "correct horse battery", "10.0.0.2", ""); err != nil {
		t.Fatalf("the owner from her own address: %v", err)
	}
	if _, _, err := s.SignIn(ctx, "ivana", "guess", "198.51.100.66", ""); !apperr.Is(err, apperr.TooMany) {
		t.Fatalf("the attacker after the owner signed in: %v, want still TooMany", err)
	}
	if n := failures(t, db, "ivana", "198.51.100.66"); n != staff.DefaultThrottle().Pair.Free {
		t.Errorf("%d failures recorded for the attacker, want %d: refused attempts are not checked nor recorded", n, staff.DefaultThrottle().Pair.Free)
	}
}

// Parallel guesses each see the ones before them: only Pair.Free passwords are
// checked, the rest are told to wait.
func TestParallelGuessesAreLimited(t *testing.T) {
	ctx := context.Background()
	// The clock stands still: on a loaded machine the first wait could pass
	// while the twenty guesses are still being hashed, and a guess after the
	// wait is rightly checked.
	db := pgtest.New(t)
	frozen := time.Now()
	s, err := staff.New(db, staff.Config{BcryptCost: bcrypt.MinCost, Clock: clock.Frozen(frozen)})
	if err != nil {
		t.Fatal(err)
	}
	mustAdd(t, s, "ivana", identity.Clerk, "correct horse battery")
	const n = 20
	codes := make(chan apperr.Code, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, _, err := s.SignIn(ctx, "ivana", "guess", "10.0.0.9", "")
			codes <- apperr.CodeOf(err)
		}()
	}
	close(start)
	wg.Wait()
	close(codes)
	count := map[apperr.Code]int{}
	for c := range codes {
		count[c]++
	}
	free := staff.DefaultThrottle().Pair.Free
	if count[apperr.Unauthorized] != free || count[apperr.TooMany] != n-free {
		t.Fatalf("%v: want %d checked and %d told to wait", count, free, n-free)
	}
	if got := failures(t, db, "ivana", "10.0.0.9"); got != free {
		t.Errorf("%d attempts recorded, want %d", got, free)
	}
}

// An office behind one NAT address: colleagues failing on their own accounts
// do not keep out a user who has not failed there, until the address as a
// whole passes its (high) limit, and then only for a short wait.
func TestOfficeAddressDoesNotLockOutItsUsers(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	mustAdd(t, s, "ivana", identity.Clerk, "correct horse battery")
	th := staff.DefaultThrottle()
	const office = "192.0.2.10"
	failed := 0
	for i := 0; failed < th.Address.Free-1; i++ {
		name := fmt.Sprintf("colleague%02d", i)
		for range th.Pair.Free {
			if failed == th.Address.Free-1 {
				break
			}
			if _, _, err := s.SignIn(ctx, name, "mistyped", office, ""); !apperr.Is(err, apperr.Unauthorized) {
				t.Fatalf("%s: %v", name, err)
			}
			failed++
		}
	}
	if failed <= 30 {
		t.Fatalf("the test must go past the old limit of 30, got %d", failed)
	}
	if _, _, err := s.SignIn(ctx, "ivana", "correct horse battery", office, ""); err != nil {
		t.Fatalf("%d failures of colleagues kept ivana out: %v", failed, err)
	}
	// One more failure reaches the address limit: now everyone there waits, briefly.
	if _, _, err := s.SignIn(ctx, "someone", "mistyped", office, ""); !apperr.Is(err, apperr.Unauthorized) {
		t.Fatal(err)
	}
	_, _, err := s.SignIn(ctx, "ivana", "correct horse battery", office, "")
	if !apperr.Is(err, apperr.TooMany) {
		t.Fatalf("past the address limit: %v, want TooMany", err)
	}
	var secs int
	if _, scanErr := fmt.Sscanf(strings.TrimPrefix(apperr.TextOf(err).String(), "Too many failed sign-ins from here. "), "Wait %d seconds", &secs); scanErr != nil || time.Duration(secs)*time.Second > th.Address.MaxWait {
		t.Fatalf("wait %q, want at most %s", apperr.TextOf(err).String(), th.Address.MaxWait)
	}
}

func TestThrottlePerAddress(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	mustAdd(t, s, "ivana", identity.Clerk, "correct horse battery")
	// Spraying many usernames from one address trips the address limit.
	for i := range staff.DefaultThrottle().Address.Free {
		if _, _, err := s.SignIn(ctx, fmt.Sprintf("user%03d", i), "guess", "10.0.0.7", ""); !apperr.Is(err, apperr.Unauthorized) {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	if _, _, err := s.SignIn(ctx, "ivana", "correct horse battery", "10.0.0.7", ""); !apperr.Is(err, apperr.TooMany) {
		t.Fatalf("address over its limit: got %v", err)
	}
	if _, _, err := s.SignIn(ctx, "ivana", "correct horse battery", "10.0.0.8", ""); err != nil {
		t.Fatalf("another address must not be throttled: %v", err)
	}
}

// Guessing one account from many addresses meets the soft account limit.
func TestThrottlePerAccount(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	mustAdd(t, s, "ivana", identity.Clerk, "correct horse battery")
	th := staff.DefaultThrottle()
	for i := range th.Account.Free {
		if _, _, err := s.SignIn(ctx, "ivana", "guess", fmt.Sprintf("203.0.113.%d", i), ""); !apperr.Is(err, apperr.Unauthorized) {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	_, _, err := s.SignIn(ctx, "ivana", "guess", "203.0.113.250", "")
	if !apperr.Is(err, apperr.TooMany) || !strings.Contains(apperr.TextOf(err).String(), "to this account") {
		t.Fatalf("past the account limit: %v", err)
	}
}

func failures(t *testing.T, db *storage.DB, username, address string) int {
	t.Helper()
	var n int
	if err := db.SQL().QueryRow(`SELECT count(*) FROM login_failures WHERE username = $1 AND address = $2`, username, address).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestLastManagerCannotBeDisabled(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t)
	m := mustAdd(t, s, "boss", identity.Manager, "correct horse battery")
	if err := s.SetDisabled(ctx, staff.CLI, m.ID, true); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("got %v, want Conflict", err)
	}
}

func TestAddUserValidates(t *testing.T) {
	s, _ := newService(t)
	_, err := s.AddUser(context.Background(), staff.CLI, "<script>", identity.Role("admin"), "short")
	f := apperr.FieldsOf(context.Background(), err)
	for _, k := range []string{"username", "role", "password"} {
		if f[k] == "" {
			t.Errorf("no error on %s: %v", k, err)
		}
	}
	mustAdd(t, s, "ivana", identity.Clerk, "correct horse battery")
	_, err = s.AddUser(context.Background(), staff.CLI, "IVANA", identity.Clerk, "correct horse battery")
	if apperr.FieldsOf(context.Background(), err)["username"] == "" {
		t.Fatalf("duplicate username: %v", err)
	}
}

func TestSignInsAreAudited(t *testing.T) {
	ctx := context.Background()
	s, db := newService(t)
	mustAdd(t, s, "ivana", identity.Clerk, "correct horse battery")
	st, token, _ := s.SignIn(ctx, "ivana", "correct horse battery", "10.0.0.1", "")
	_ = s.SignOut(ctx, st, token, "10.0.0.1")
	es, err := db.ListAudit(ctx, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"sign-out", "sign-in", "user added"}
	if len(es) != len(want) {
		t.Fatalf("audit %+v", es)
	}
	for i, w := range want {
		if es[i].Action != w {
			t.Errorf("entry %d = %s, want %s", i, es[i].Action, w)
		}
	}
}

func TestSeedDemoOnce(t *testing.T) {
	s, _ := newService(t)
	first, err := s.SeedDemo(context.Background())
	if err != nil || len(first) != 3 || first[0].Password == "" {
		t.Fatalf("%+v %v", first, err)
	}
	again, _ := s.SeedDemo(context.Background())
	for _, d := range again {
		if d.Password != "" {
			t.Fatalf("second seed printed a password again for %s", d.Username)
		}
	}
}
