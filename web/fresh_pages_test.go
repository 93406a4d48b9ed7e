package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/requestkey"
)

// Signed-in pages show what the database holds now, to the person who
// asked: a change made by another connection or instance shows on the next
// page, and every form drawn carries a request key of its own.

// readyShipment is the page of a shipment ordered by b whose label is made:
// nothing on it waits for the clock.
func readyShipment(t *testing.T, env *apptest.Env, b *apptest.Browser) string {
	t.Helper()
	loc := place(t, b, shipmentForm(t, env), "UPS")
	env.Sandbox.Advance(10 * time.Minute)
	if body := b.Get(loc).Body; !strings.Contains(body, `data-testid="print-label"`) {
		t.Fatalf("%s: the label is not made: %s", loc, problemsOf(body))
	}
	return loc
}

// setCity changes a shipment's city through a connection of its own, as
// another instance or the pollers' process would.
func setCity(t *testing.T, env *apptest.Env, loc, city string) {
	t.Helper()
	if _, err := env.App.DB.SQL().Exec(`UPDATE shipments SET recipient_city = $2 WHERE id = $1`, mustID(t, loc), city); err != nil {
		t.Fatal(err)
	}
}

// Two drawings of a shipment's page carry note forms with keys of their
// own, and a note posted from each is kept: two notes, each shown on the
// very next page (the second posted as htmx posts it, with no flash).
func TestEachShipmentPageCarriesAFreshNoteKey(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	loc := readyShipment(t, env, b)
	k1, k2 := hiddenFields(b.Get(loc).Body).Get("key"), hiddenFields(b.Get(loc).Body).Get("key")
	if !requestkey.Valid(k1) || !requestkey.Valid(k2) || k1 == k2 {
		t.Fatalf("note keys of two drawings: %q and %q", k1, k2)
	}
	first := "Poznámka číslo 1"
	if r := b.PostForm(loc+"/notes", url.Values{"key": {k1}, "note_text": {first}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("note 1: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	if body := b.Get(loc).Body; !strings.Contains(body, first) {
		t.Error("the page after note 1 does not show it")
	}
	second := "Volal zákazník, poznámka číslo 2"
	req, _ := http.NewRequest(http.MethodPost, env.URL+loc+"/notes", strings.NewReader(url.Values{"key": {k2}, "note_text": {second}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", env.URL)
	req.Header.Set("HX-Request", "true")
	if r := b.Do(req); r.StatusCode != http.StatusOK {
		t.Fatalf("note 2: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	if body := b.Get(loc).Body; !strings.Contains(body, second) {
		t.Error("the page right after note 2 does not show it")
	}
	if n := noteCount(t, env, loc); n != 2 {
		t.Errorf("%d notes kept, want 2", n)
	}
}

// A change committed by another connection, or through the dashboard's own
// pool as its pollers write, shows on the shipment's page and the list the
// next time they are asked for; a failed label shows in the home page's
// counts at once.
func TestPagesShowWhatTheDatabaseHoldsNow(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	loc := readyShipment(t, env, b)
	for i, city := range []string{"Jihlava", "Kolín", "Kroměříž"} {
		b.Get(loc)
		b.Get("/tracking")
		if i < 2 {
			setCity(t, env, loc, city)
		} else {
			setShipment(t, env, loc, `recipient_city = $2`, city)
		}
		if body := b.Get(loc).Body; !strings.Contains(body, city) {
			t.Errorf("change %d: the shipment's page does not show %s", i+1, city)
		}
		if body := b.Get("/tracking").Body; !strings.Contains(body, city) {
			t.Errorf("change %d: the list does not show %s", i+1, city)
		}
	}
	if home := b.Get("/").Body; strings.Contains(home, `href="/attention?kind=label_failed"`) {
		t.Fatalf("a failed label before any failed: %s", problemsOf(home))
	}
	if _, err := env.App.DB.SQL().Exec(`UPDATE shipments SET status = 'EXPORTED', label_status = 'FAILED' WHERE id = $1`, mustID(t, loc)); err != nil {
		t.Fatal(err)
	}
	if home := b.Get("/").Body; !strings.Contains(home, `href="/attention?kind=label_failed"`) {
		t.Errorf("the home page's counts do not show the failed label at once: %s", problemsOf(home))
	}
}

// A change made on one instance shows on the next page of another on the
// same database: no instance keeps a page.
func TestPagesShowChangesMadeOnAnotherInstance(t *testing.T) {
	t.Parallel()
	a, bEnv := twoInstances(t)
	_, clerk := deskEnvOn(t, a)
	loc := readyShipment(t, a, clerk)
	onB := signInAs(t, bEnv, "clerk1", "pw-clerk1-long-enough")
	for i := range 3 {
		onB.Get(loc)
		city := fmt.Sprintf("Město %d", i+1)
		setCity(t, a, loc, city)
		if body := onB.Get(loc).Body; !strings.Contains(body, city) {
			t.Fatalf("change %d: B shows the page from before the change", i+1)
		}
	}
}

// One person's page is never another's: not another clerk's, a manager's,
// the same person's in another language, nor an anonymous request's.
func TestPagesKeepPeopleApart(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pwA, pwB, pwM := env.AddUser("anna", identity.Clerk), env.AddUser("bohdan", identity.Clerk), env.AddUser("marta", identity.Manager)
	anna := signInAs(t, env, "anna", pwA)
	others := []struct {
		who, lang string
		b         *apptest.Browser
	}{
		{"bohdan", "en", signInAs(t, env, "bohdan", pwB)},
		{"marta", "en", signInAs(t, env, "marta", pwM)},
		{"anna", "cs", czechBrowser(t, env, "anna", pwA)},
	}
	for _, p := range []string{"/", "/no-such-page"} {
		if body := anna.Get(p).Body; !strings.Contains(body, "anna") || !strings.Contains(body, `lang="en"`) {
			t.Fatalf("anna's %s: not hers", p)
		}
		for _, o := range others {
			for range 3 {
				body := o.b.Get(p).Body
				if !strings.Contains(body, o.who) || (o.who != "anna" && strings.Contains(body, "anna")) ||
					!strings.Contains(body, `lang="`+o.lang+`"`) {
					t.Errorf("%s (%s) asking %s got another's page", o.who, o.lang, p)
				}
			}
		}
		if r := env.NewBrowser().Get(p); r.StatusCode != http.StatusSeeOther || strings.Contains(r.Body, "anna") {
			t.Errorf("anonymous %s: %d", p, r.StatusCode)
		}
	}
}

// czechBrowser signs username in on a browser that chose Czech before.
func czechBrowser(t *testing.T, env *apptest.Env, username, password string) *apptest.Browser {
	t.Helper()
	br := env.NewBrowser()
	if r := br.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/login"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("choose Czech: %d", r.StatusCode)
	}
	if r := br.PostForm("/login", url.Values{"username": {username}, "password": {password}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign in %s: %d", username, r.StatusCode)
	}
	return br
}
