package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// The cache of signed-in pages (pagecache.go): a page whose data has not
// changed is written from memory, never to another person, role or
// language; a change committed anywhere shows within RevocationWait, a
// change made through this instance on the very next page.

// fromCache asks for path until the answer came from the page cache (the
// change feed may not be fresh yet, and the clock's minute may turn).
func fromCache(t *testing.T, env *apptest.Env, b *apptest.Browser, path string) apptest.Response {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
		before := env.App.Pages.Stats().Hits
		r := b.Get(path)
		if env.App.Pages.Stats().Hits > before {
			return r
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s was never answered from the page cache", path)
	return apptest.Response{}
}

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

// Two copies of a shipment's page served from memory carry note forms with
// keys of their own, and a note posted from each is kept: two notes. The
// clerk's own note shows on the very next page.
func TestCachedShipmentPagesCarryFreshRequestKeys(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	loc := readyShipment(t, env, b)
	first := fromCache(t, env, b, loc)
	second := fromCache(t, env, b, loc)
	k1, k2 := hiddenFields(first.Body).Get("key"), hiddenFields(second.Body).Get("key")
	if !requestkey.Valid(k1) || !requestkey.Valid(k2) || k1 == k2 {
		t.Fatalf("note keys of two copies: %q and %q", k1, k2)
	}
	for i, k := range []string{k1, k2} {
		text := fmt.Sprintf("Poznámka číslo %d", i+1)
		if r := b.PostForm(loc+"/notes", url.Values{"key": {k}, "note_text": {text}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("note %d: %d %s", i+1, r.StatusCode, problemsOf(r.Body))
		}
		if body := b.Get(loc).Body; !strings.Contains(body, text) {
			t.Errorf("the page after note %d does not show it", i+1)
		}
	}
	if n := noteCount(t, env, loc); n != 2 {
		t.Errorf("%d notes kept, want 2", n)
	}
}

// A change committed by another connection shows within RevocationWait on
// the page, its live part and the list; a poller's claim (a write that
// changes nothing shown) keeps the copies.
func TestCachedPagesShowOtherConnectionsChanges(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	loc := readyShipment(t, env, b)
	paths := []string{loc, "/tracking", "/"}
	for _, p := range paths {
		fromCache(t, env, b, p)
	}
	// A claim alone announces nothing: the copies stay.
	kept := env.App.Pages.Stats().Entries
	if _, err := env.App.DB.SQL().Exec(`UPDATE shipments SET claimed_until = now(), claimed_by = 'poller' WHERE id = $1`, mustID(t, loc)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(storage.RevocationWait)
	for !env.App.Feed.Fresh() {
		time.Sleep(10 * time.Millisecond)
	}
	if n := env.App.Pages.Stats().Entries; n != kept {
		t.Errorf("a poller's claim dropped the kept pages: %d of %d left", n, kept)
	}
	for i, city := range []string{"Jihlava", "Kolín"} {
		for _, p := range paths[:2] {
			fromCache(t, env, b, p)
		}
		setCity(t, env, loc, city)
		time.Sleep(storage.RevocationWait)
		if body := b.Get(loc).Body; !strings.Contains(body, city) {
			t.Errorf("change %d: the shipment's page does not show %s", i+1, city)
		}
		if body := b.Get("/tracking").Body; !strings.Contains(body, city) {
			t.Errorf("change %d: the list does not show %s", i+1, city)
		}
	}
}

// While the change feed is cut or hangs, nothing is answered from memory:
// a change made meanwhile shows at once. Back, the cache answers again.
func TestPageCacheAnswersNothingWhileTheFeedIsDown(t *testing.T) {
	t.Parallel()
	proxy := startPGProxy(t)
	a, bEnv, _ := twoInstances(t, apptest.Options{ListenURL: proxy.url})
	_, clerk := deskEnvOn(t, a)
	loc := readyShipment(t, a, clerk)
	onB := signInAs(t, bEnv, "clerk1", "pw-clerk1-long-enough")
	for i, mode := range []proxyMode{proxyCut, proxyHang} {
		proxy.set(proxyPass)
		fromCache(t, bEnv, onB, loc)
		proxy.set(mode)
		city := fmt.Sprintf("Město %d", i+1)
		setCity(t, a, loc, city)
		time.Sleep(storage.RevocationWait)
		hits := bEnv.App.Pages.Stats().Hits
		for range 5 {
			if body := onB.Get(loc).Body; !strings.Contains(body, city) {
				t.Fatalf("feed %s: B shows the page from before the change", mode)
			}
		}
		if n := bEnv.App.Pages.Stats().Hits; n != hits {
			t.Errorf("feed %s: %d pages answered from memory", mode, n-hits)
		}
	}
	proxy.set(proxyPass)
	if body := fromCache(t, bEnv, onB, loc).Body; !strings.Contains(body, "Město 2") {
		t.Error("back from the outage, B keeps a page from before it")
	}
}

// One person's copy is never another's: not another clerk's, a manager's,
// the same person's in another language, nor an anonymous request's.
func TestPageCacheKeepsPeopleApart(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pwA, pwB, pwM := env.AddUser("anna", identity.Clerk), env.AddUser("bohdan", identity.Clerk), env.AddUser("marta", identity.Manager)
	anna := signInAs(t, env, "anna", pwA)
	for _, p := range []string{"/", "/no-such-page"} {
		r := fromCache(t, env, anna, p)
		if !strings.Contains(r.Body, "anna") || !strings.Contains(r.Body, `lang="en"`) {
			t.Fatalf("anna's %s: not hers", p)
		}
		others := []struct {
			who, lang string
			b         *apptest.Browser
		}{
			{"bohdan", "en", signInAs(t, env, "bohdan", pwB)},
			{"marta", "en", signInAs(t, env, "marta", pwM)},
			{"anna", "cs", czechBrowser(t, env, "anna", pwA)},
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

// Hostile and endless query strings are answered as ever, and the cache
// stays within its bound however many there are.
func TestPageCacheStaysWithinItsBound(t *testing.T) {
	t.Parallel()
	const bound = 256 << 10
	env := apptest.StartOptions(t, apptest.Options{PageCacheBytes: bound})
	b := env.SignedIn(identity.Manager)
	fromCache(t, env, b, "/tracking")
	hostile := []string{"%00", "%ff%fe", "%1b%5b31m", "<script>alert(1)</script>", "' OR 1=1 --", strings.Repeat("x", 3000)}
	for i := range 300 {
		q := url.QueryEscape(hostile[i%len(hostile)]) + fmt.Sprint(i)
		for _, p := range []string{"/tracking?q=" + q, "/no-such-page?" + q, fmt.Sprintf("/x%d", i)} {
			r := b.Get(p)
			if r.StatusCode != http.StatusOK && r.StatusCode != http.StatusNotFound && r.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("%.80s: %d", p, r.StatusCode)
			}
			if strings.Contains(r.Body, "<script>alert") {
				t.Fatalf("%.80s: the query is echoed as markup", p)
			}
		}
		if s := env.App.Pages.Stats(); s.Bytes > bound {
			t.Fatalf("the cache holds %d bytes, over its bound of %d", s.Bytes, bound)
		}
	}
	if s := env.App.Pages.Stats(); s.Entries == 0 || s.Puts < 100 {
		t.Errorf("the cache kept nothing: %+v", s)
	}
}

// A page answered from memory costs the database nothing: no statement
// (the change feed's pings apart) for many pages, their live parts and the
// list.
func TestCachedPagesAskTheDatabaseNothing(t *testing.T) {
	t.Parallel()
	db, proxy := dbThroughProxy(t)
	env := apptest.StartWith(t, db)
	env, b := deskEnvOn(t, env)
	loc := readyShipment(t, env, b)
	paths := []string{loc, loc + "/status", "/tracking", "/", "/no-such-page"}
	for _, p := range paths {
		fromCache(t, env, b, p)
	}
	for range 20 {
		proxy.stats.take()
		hits := env.App.Pages.Stats().Hits
		_, misses := env.App.Staff.SessionCacheStats()
		for range 10 {
			for _, p := range paths {
				b.Get(p)
			}
		}
		_, missed := env.App.Staff.SessionCacheStats()
		if env.App.Pages.Stats().Hits-hits < int64(10*len(paths)) || missed > misses {
			continue // the feed was not fresh for a moment (for the pages or the session check), or the minute turned: again
		}
		if texts, _ := proxy.stats.take(); len(texts) > 0 {
			t.Fatalf("%d pages from memory sent statements: %v", 10*len(paths), texts)
		}
		return
	}
	t.Fatal("the pages were never all answered from memory")
}

// The clerk's own post shows on the very next page even when this
// instance hears its change late (its feed lags, fresh all the same): a
// post drops the kept pages as it answers.
func TestOwnPostShowsAtOnceWhenTheFeedLags(t *testing.T) {
	t.Parallel()
	env, b := laggingFeedEnv(t)
	loc := readyShipment(t, env, b)
	for i := range 3 {
		key := hiddenFields(fromCache(t, env, b, loc).Body).Get("key")
		text := fmt.Sprintf("Volal zákazník, pokus %d", i+1)
		// As htmx posts it: the notes' section comes back in place, no
		// flash waits for the next page.
		req, _ := http.NewRequest(http.MethodPost, env.URL+loc+"/notes", strings.NewReader(url.Values{"key": {key}, "note_text": {text}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", env.URL)
		req.Header.Set("HX-Request", "true")
		if r := b.Do(req); r.StatusCode != http.StatusOK {
			t.Fatalf("note: %d %s", r.StatusCode, problemsOf(r.Body))
		}
		if body := b.Get(loc).Body; !strings.Contains(body, text) {
			t.Fatalf("the page right after the clerk's note %d does not show it", i+1)
		}
	}
}

// laggingFeedEnv is a clerk's dashboard whose change feed hears every
// change late, fresh all the same.
func laggingFeedEnv(t *testing.T) (*apptest.Env, *apptest.Browser) {
	t.Helper()
	proxy := startPGProxy(t)
	proxy.setLag(storage.FeedLag / 2)
	_, dbURL := pgtest.NewWithURL(t)
	db, err := storage.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	env := apptest.StartWithOptions(t, db, apptest.Options{ListenURL: proxy.urlOf(strings.TrimPrefix(mustURL(t, dbURL).Path, "/"))})
	return deskEnvOn(t, env)
}

// A write this process makes outside any post, as its pollers do, is never
// hidden by a kept page, however late the feed hears of it: a page is kept
// only while a ping sent after the process's last write has come back.
func TestOwnWritesShowAtOnceWhenTheFeedLags(t *testing.T) {
	t.Parallel()
	env, b := laggingFeedEnv(t)
	loc := readyShipment(t, env, b)
	for i := range 3 {
		fromCache(t, env, b, loc)
		city := fmt.Sprintf("Kroměříž %d", i+1)
		if _, err := env.App.DB.Exec(context.Background(), `UPDATE shipments SET recipient_city = $2 WHERE id = $1`, mustID(t, loc), city); err != nil {
			t.Fatal(err)
		}
		if body := b.Get(loc).Body; !strings.Contains(body, city) {
			t.Fatalf("the page right after the process's own write %d does not show it", i+1)
		}
	}
}
