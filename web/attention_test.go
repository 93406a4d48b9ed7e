package web_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// The queue's routes: every staff role reads the page, nobody signed out
// does anything, and the daily summary is the managers'.
func TestAttentionRoutesRefuseAnonymousAndWrongRoles(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	anon := env.NewBrowser()
	item := url.Values{"kind": {"stuck"}, "record": {"1"}, "occurrence": {"x"}, "text": {"n"}, "reason": {"solved"}}
	for _, p := range []string{"/attention", "/attention/summary.csv", "/attention/summary.xlsx"} {
		if r := anon.Get(p); r.StatusCode != 303 {
			t.Errorf("anonymous GET %s: %d", p, r.StatusCode)
		}
	}
	for _, p := range []string{"/attention/take", "/attention/note", "/attention/dismiss", "/attention/restore"} {
		if r := anon.PostForm(p, item); r.StatusCode != 303 || !strings.Contains(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous POST %s: %d %s", p, r.StatusCode, r.Header.Get("Location"))
		}
	}
	browsers := map[identity.Role]*apptest.Browser{}
	for _, role := range identity.Roles {
		b := env.SignedIn(role)
		browsers[role] = b
		if r := b.Get("/attention"); r.StatusCode != 200 {
			t.Errorf("%s GET /attention: %d", role, r.StatusCode)
		}
		for _, p := range []string{"/attention/summary.csv", "/attention/summary.xlsx"} {
			want := 403
			if role == identity.Manager {
				want = 200
			}
			if r := b.Get(p); r.StatusCode != want {
				t.Errorf("%s GET %s: %d, want %d", role, p, r.StatusCode, want)
			}
		}
		// A kind of another desk's area is refused, before looking for the item.
		other := "claim_due"
		if role == identity.Agent {
			other = "stuck"
		}
		if role != identity.Manager {
			if r := b.PostForm("/attention/take", with(item, "kind", other)); r.StatusCode != 303 || !strings.Contains(b.Get("/attention").Body, "belongs to another desk") {
				t.Errorf("%s takes a %s item: %d", role, other, r.StatusCode)
			}
			if r := b.Get("/attention?kind=" + other); r.StatusCode != 400 {
				t.Errorf("%s filters by %s: %d", role, other, r.StatusCode)
			}
		}
	}
	// A clerk may not hand an item to someone else.
	if r := browsers[identity.Clerk].Get("/attention"); strings.Contains(r.Body, `name="to"`) {
		t.Error("a clerk is offered to hand items over")
	}
}

// A failed label reaches the clerk's home count and the queue; it is taken,
// noted, dismissed with a reason (out of the open list, in the dismissed
// one), brought back; bad notes and reasons are refused and nothing is kept.
func TestAttentionQueueTakeNoteDismiss(t *testing.T) {
	t.Parallel()
	env, clerk := deskEnv(t)
	page := place(t, clerk, shipmentForm(t, env), "UPS")
	setShipment(t, env, page, `status = 'EXPORTED', label_status = 'FAILED'`)
	id := strings.TrimPrefix(page, "/shipping/shipments/")

	home := clerk.Get("/").Body
	if !strings.Contains(home, "1 label failed (contact support)") || !strings.Contains(home, `href="/attention?kind=label_failed"`) {
		t.Errorf("clerk's home: %s", problemsOf(home))
	}
	if body := env.SignedIn(identity.Agent).Get("/attention").Body; strings.Contains(body, page) {
		t.Error("an agent sees a shipping item")
	}
	doc := htmlOf(t, clerk.Get("/attention?kind=label_failed").Body)
	row := doc.Find(`[data-testid=attention-item][data-record="` + id + `"]`)
	if row.Length() != 1 || !strings.Contains(row.Find(`[data-testid=why]`).Text(), "got no label") ||
		row.Find(`[data-testid=step]`).AttrOr("href", "") != page {
		t.Fatalf("the queue: %s", doc.Find("main").Text())
	}
	key := url.Values{"kind": {"label_failed"}, "record": {id}, "occurrence": {row.Find(`input[name=occurrence]`).First().AttrOr("value", "")},
		"back": {"/attention?kind=label_failed"}}

	if r := clerk.PostForm("/attention/take", key); r.StatusCode != 303 || r.Header.Get("Location") != "/attention?kind=label_failed" {
		t.Fatalf("take: %d %s", r.StatusCode, r.Header.Get("Location"))
	}
	// Bad notes: refused with a message, nothing stored.
	for name, text := range map[string]string{"NUL": "a\x00b", "InvalidUTF8": "\xff\xfe", "Control": "a\x1b[2Jb",
		"Huge": strings.Repeat("x", 1001), "Empty": "  "} {
		if r := clerk.PostForm("/attention/note", with(key, "text", text)); r.StatusCode != 303 {
			t.Errorf("%s note: %d", name, r.StatusCode)
		}
		if body := clerk.Get("/attention").Body; !strings.Contains(body, "The note was not saved") {
			t.Errorf("%s note: no message: %s", name, problemsOf(body))
		}
	}
	if n := countRows(t, env, "attention_notes"); n != 0 {
		t.Errorf("%d bad notes stored", n)
	}
	for _, note := range []string{"<script>alert(1)</script>", "'; DROP TABLE shipments; --", "Volal jsem na depo v Brně"} {
		if r := clerk.PostForm("/attention/note", with(key, "text", note)); r.StatusCode != 303 {
			t.Errorf("note %q: %d", note, r.StatusCode)
		}
	}
	body := clerk.Get("/attention?who=mine").Body
	if doc := htmlOf(t, body); !strings.Contains(doc.Find(`[data-testid=taken]`).Text(), "clerk1") ||
		!strings.Contains(doc.Find(`[data-testid=note]`).Text(), "Volal jsem na depo v Brně") || strings.Contains(body, "<script>alert(1)") {
		t.Errorf("taken and noted: %s", doc.Find("main").Text())
	}
	// Bad reasons: refused, the item stays open.
	for name, form := range map[string]url.Values{
		"no reason":     with(key, "reason", ""),
		"made-up":       with(key, "reason", "bored"),
		"other, silent": with(key, "reason", "other", "reason_text", ""),
		"NUL":           with(key, "reason", "other", "reason_text", "a\x00b"),
		"InvalidUTF8":   with(key, "reason", "solved", "reason_text", "\xff"),
		"Huge":          with(key, "reason", "solved", "reason_text", strings.Repeat("ř", 501)),
	} {
		clerk.PostForm("/attention/dismiss", form)
		if body := clerk.Get("/attention").Body; !strings.Contains(body, "The item was not dismissed") || !strings.Contains(body, `data-record="`+id+`"`) {
			t.Errorf("%s: %s", name, problemsOf(body))
		}
	}
	if r := clerk.PostForm("/attention/dismiss", with(key, "reason", "other", "reason_text", "Support is on it")); r.StatusCode != 303 {
		t.Fatalf("dismiss: %d", r.StatusCode)
	}
	if body := clerk.Get("/attention").Body; strings.Contains(body, `data-record="`+id+`"`) {
		t.Error("a dismissed item is still open")
	}
	env.Sandbox.Advance(time.Minute) // past the home counts' short cache
	if body := clerk.Get("/").Body; strings.Contains(body, "label failed") {
		t.Error("the home page still counts a dismissed item")
	}
	dismissed := htmlOf(t, clerk.Get("/attention?show=dismissed").Body)
	if got := dismissed.Find(`[data-testid=note]`).Text(); !strings.Contains(got, "Another reason") || !strings.Contains(got, "Support is on it") {
		t.Errorf("dismissed: %q", got)
	}
	// The manager's summary of the day has it, with its reason, in Czech too.
	manager := env.SignedIn(identity.Manager)
	csv := manager.Get("/attention/summary.csv")
	if !strings.HasPrefix(csv.Header.Get("Content-Type"), "text/csv") || !strings.Contains(csv.Body, "Support is on it") ||
		!strings.Contains(csv.Body, "Dismissed because") {
		t.Errorf("summary: %s", csv.Body)
	}
	manager.PostForm("/language", url.Values{"lang": {"cs"}})
	if cs := manager.Get("/attention/summary.csv").Body; !strings.HasPrefix(cs, "\ufeffDruh;Záznam;Proč") || !strings.Contains(cs, "Jiný důvod") {
		t.Errorf("Czech summary: %s", cs)
	}
	manager.PostForm("/language", url.Values{"lang": {"en"}})
	if x := manager.Get("/attention/summary.xlsx"); !strings.Contains(x.Header.Get("Content-Type"), "spreadsheetml") || !strings.HasPrefix(x.Body, "PK") {
		t.Errorf("xlsx: %s", x.Header.Get("Content-Type"))
	}
	// A manager hands the item (brought back) to another person; nobody unknown.
	if r := clerk.PostForm("/attention/restore", key); r.StatusCode != 303 {
		t.Fatalf("restore: %d", r.StatusCode)
	}
	var clerkID string
	if err := env.App.DB.SQL().QueryRow(`SELECT id::text FROM users WHERE username = 'clerk1'`).Scan(&clerkID); err != nil {
		t.Fatal(err)
	}
	manager.PostForm("/attention/take", with(key, "to", "999999"))
	if body := manager.Get("/attention").Body; !strings.Contains(body, "Choose a staff member whose account is active") {
		t.Errorf("handed to nobody: %s", problemsOf(body))
	}
	if r := manager.PostForm("/attention/take", with(key, "to", clerkID)); r.StatusCode != 303 {
		t.Fatalf("hand over: %d", r.StatusCode)
	}
	if got := htmlOf(t, manager.Get("/attention").Body).Find(`[data-record="` + id + `"] [data-testid=taken]`).Text(); !strings.Contains(got, "clerk1") {
		t.Errorf("handed over to %q", got)
	}
	if r := clerk.PostForm("/attention/dismiss", with(key, "reason", "solved")); r.StatusCode != 303 {
		t.Fatalf("dismiss: %d", r.StatusCode)
	}
	if r := clerk.PostForm("/attention/restore", key); r.StatusCode != 303 {
		t.Fatalf("restore: %d", r.StatusCode)
	}
	if body := clerk.Get("/attention").Body; !strings.Contains(body, `data-record="`+id+`"`) {
		t.Error("a restored item is not open")
	}
	// Once the record no longer fits the rule, the item is gone and its buttons say so.
	setShipment(t, env, page, `label_status = 'READY'`)
	clerk.PostForm("/attention/take", key)
	if body := clerk.Get("/attention").Body; !strings.Contains(body, "no longer in the queue") {
		t.Errorf("gone item: %s", problemsOf(body))
	}
}

// A manager sets a carrier's days without news; a bad number is refused.
func TestCarrierStuckDays(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	manager := env.SignedIn(identity.Manager)
	form := url.Values{"name": {"UPS"}, "label_free": {""}, "cod_packages": {""}}
	for _, bad := range []string{"0", "31", "-1", "2.5", "tři", "\x00"} {
		manager.PostForm("/connection/carriers/UPS", with(form, "stuck_days", bad))
		if body := manager.Get("/connection").Body; !strings.Contains(body, "a whole number from 1 to 30") {
			t.Errorf("stuck days %q accepted", bad)
		}
	}
	if r := manager.PostForm("/connection/carriers/UPS", with(form, "stuck_days", "5")); r.StatusCode != 303 {
		t.Fatalf("save: %d", r.StatusCode)
	}
	c, err := env.App.DB.CarrierByCode(t.Context(), "UPS")
	if err != nil || c.StuckDays != 5 {
		t.Errorf("UPS: %d days (%v)", c.StuckDays, err)
	}
	if got := htmlOf(t, manager.Get("/connection").Body).Find(`tr[data-carrier=UPS] input[name=stuck_days]`).AttrOr("value", ""); got != "5" {
		t.Errorf("the table shows %q days", got)
	}
}

func countRows(t *testing.T, env *apptest.Env, table string) int {
	t.Helper()
	var n int
	if err := env.App.DB.SQL().QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
