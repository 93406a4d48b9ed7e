package web_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/desk"
	"shipdesk/identity"
	"shipdesk/shiprules"
	"shipdesk/storage"
	"shipdesk/workbench"
)

var routePattern = regexp.MustCompile(`mux\.Handle(?:Func)?\("([^"]+)"`)

// TestHostileRoutesListEveryRoute keeps the table of hostile_routes_test.go complete: a route
// added to routes.go without its fields here fails.
func TestHostileRoutesListEveryRoute(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("routes.go")
	if err != nil {
		t.Fatal(err)
	}
	var inRoutes, listed []string
	for _, m := range routePattern.FindAllStringSubmatch(string(src), -1) {
		inRoutes = append(inRoutes, m[1])
	}
	for _, r := range hostileRoutes(hostileSetup{}) {
		listed = append(listed, r.pattern)
	}
	if len(inRoutes) < 60 {
		t.Fatalf("found only %d routes in routes.go: is the pattern still right?", len(inRoutes))
	}
	for _, p := range inRoutes {
		if !slices.Contains(listed, p) {
			t.Errorf("route %q is not in the hostile-input table", p)
		}
	}
	for _, p := range listed {
		if !slices.Contains(inRoutes, p) {
			t.Errorf("the hostile-input table lists %q, which routes.go does not have", p)
		}
	}
}

// TestHostileInputBreaksNothing sends every hostile value into every field,
// query parameter and path parameter of every route: no answer is a 5xx, the
// server stays up, nothing stored is lost, and no text is shown unescaped.
func TestHostileInputBreaksNothing(t *testing.T) {
	t.Parallel()
	started := time.Now()
	env, setup := hostileEnv(t)
	before := rowCounts(t, env)
	known := knownRecords(t, env, setup)

	browsers := map[identity.Role]*apptest.Browser{"": env.NewBrowser()}
	for _, role := range identity.Roles {
		browsers[role] = signInWithPassword(t, env, string(role)+"1")
	}
	for _, route := range hostileRoutes(setup) {
		t.Run(route.pattern, func(t *testing.T) {
			b := browsers[route.role]
			method, _, _ := strings.Cut(route.pattern, " ")
			if !strings.Contains(route.pattern, " ") {
				method = http.MethodGet
			}
			send := func(path string, form url.Values) {
				t.Helper()
				resp := hostileRequest(t, env, b, method, path, form, route.multipart)
				if resp.StatusCode >= 500 {
					t.Errorf("%s %s: %d", method, clip(path), resp.StatusCode)
				}
				if strings.Contains(resp.Body, "<script>alert(1)</script>") {
					t.Errorf("%s %s: hostile text rendered unescaped", method, clip(path))
				}
			}
			if route.path != "" {
				send(route.path, route.base)
			}
			for _, field := range route.fields {
				t.Run(field, func(t *testing.T) {
					for _, h := range hostileValues {
						form := with(route.base, field, h.value)
						send(route.path, form)
					}
				})
			}
			for _, param := range route.params {
				t.Run("{"+param+"}", func(t *testing.T) {
					for _, h := range hostileValues {
						send(withParam(route, h.value), nil)
					}
				})
			}
		})
	}

	// The server is up and still serves the people who were signed in.
	if resp := env.NewBrowser().Get("/healthz"); resp.StatusCode != 200 {
		t.Errorf("healthz after the run: %d", resp.StatusCode)
	}
	if resp := browsers[identity.Agent].Get("/returns"); resp.StatusCode != 200 {
		t.Errorf("the returns list after the run: %d", resp.StatusCode)
	}
	for table, n := range rowCounts(t, env) {
		if n < before[table] {
			t.Errorf("%s: %d rows before, %d after", table, before[table], n)
		}
	}
	if got := knownRecords(t, env, setup); got != known {
		t.Errorf("stored records changed:\nbefore %+v\nafter  %+v", known, got)
	}
	t.Logf("hostile run took %s", time.Since(started).Round(time.Millisecond))
}

// TestHostileDraftIsRefusedBeforeTheService: a draft with unreadable text in
// any field never reaches the cart API (it used to be created there, then
// fail locally); every draft the service creates is stored.
func TestHostileDraftIsRefusedBeforeTheService(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	stored := 0
	for _, field := range shipmentFields {
		for _, h := range hostileValues[:3] {
			resp := b.PostForm("/shipping/new/draft", with(form, field, "Nová"+h.value))
			switch {
			case resp.StatusCode == 303:
				stored++
			case resp.StatusCode >= 500:
				t.Errorf("%s in %s: %d", h.name, field, resp.StatusCode)
			}
		}
	}
	if n := countCalls(env, "cart/create"); n != int64(stored) {
		t.Errorf("the cart API was called %d times for %d stored drafts", n, stored)
	}
	for _, field := range []string{"to_surname", "reference", "to_city"} {
		resp := b.PostForm("/shipping/new/draft", with(form, field, "Nová\x00"))
		if resp.StatusCode != 422 || !strings.Contains(resp.Body, "control characters") {
			t.Errorf("NUL in %s: %d %s", field, resp.StatusCode, problemsOf(resp.Body))
		}
	}
}

// TestScanCutsByCharacters: a long Czech phrase is cut between characters.
func TestScanCutsByCharacters(t *testing.T) {
	t.Parallel()
	_, b := deskEnv(t)
	phrase := strings.Repeat("Příliš žluťoučký kůň ", 5) // over 64 characters, cut inside "ř" by bytes
	resp := b.Get("/scan?q=" + url.QueryEscape(phrase))
	if resp.StatusCode != 200 || !strings.Contains(resp.Body, "Příliš žluťoučký") {
		t.Errorf("scan of a long Czech phrase: %d", resp.StatusCode)
	}
	if resp := b.Get("/scan?q=" + url.QueryEscape("AB\x00CD")); resp.StatusCode != 400 {
		t.Errorf("scan with a NUL: %d", resp.StatusCode)
	}
}

// TestNumbersAndCurrenciesAreChecked: NaN, infinity and made-up currencies
// are refused where people type them.
func TestNumbersAndCurrenciesAreChecked(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	for _, weight := range []string{"NaN", "Inf", "-Inf", "1e308", "-1", "0x10"} {
		resp := b.PostForm("/shipping/presets", url.Values{"name": {"Bad " + weight}, "weight": {weight}})
		if resp.StatusCode != 422 || !strings.Contains(resp.Body, "weight-error") {
			t.Errorf("preset weight %s: %d %s", weight, resp.StatusCode, problemsOf(resp.Body))
		}
	}
	presets, err := env.App.DB.Presets(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range presets {
		if strings.HasPrefix(p.Name, "Bad ") {
			t.Errorf("preset %q stored with weight %v", p.Name, p.Weight)
		}
	}
	for _, cur := range []string{"ABC", "XXX", "ZZZ"} {
		resp := b.PostForm("/shipping/settings", url.Values{"cod_currency": {"CZK"}, "bank_currency": {cur}})
		if resp.StatusCode != 422 || !strings.Contains(resp.Body, "ISO 4217") {
			t.Errorf("account currency %s: %d %s", cur, resp.StatusCode, problemsOf(resp.Body))
		}
	}
	if s, _ := env.App.DB.Settings(context.Background()); s.BankCurrency != "CZK" {
		t.Errorf("account currency stored as %q", s.BankCurrency)
	}
}

// hostileEnv starts a dashboard with one record of each kind the routes name.
func hostileEnv(t *testing.T) (*apptest.Env, hostileSetup) {
	t.Helper()
	env, clerk := deskEnv(t)
	ctx := context.Background()
	if err := env.App.Bench.RefreshProducts(ctx); err != nil {
		t.Fatal(err)
	}
	env.AddUser("agent1", identity.Agent)
	env.AddUser("manager1", identity.Manager)
	env.AddUser("victim", identity.Clerk)
	var s hostileSetup
	form := shipmentForm(t, env)
	s.shipment = strings.TrimPrefix(place(t, clerk, form, "UPS"), "/shipping/shipments/")
	_, s.shipmentForm = order(t, clerk, shipmentForm(t, env), "UPS") // a form of its own: not ordered yet
	resp := clerk.PostForm("/shipping/new/draft", shipmentForm(t, env))
	if resp.StatusCode != 303 {
		t.Fatalf("draft: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	s.draft = strings.TrimPrefix(resp.Header.Get("Location"), "/shipping/drafts/")

	cf := commissionForm(t, env)
	res, err := env.App.Bench.Create(ctx, workbench.Form{Key: cf["key"], Type: "warranty", TypeID: atoi(cf["type_id"]), ModelID: atoi(cf["model_id"]),
		Fault: "Does not switch on.", Customer: returnsCustomer(), File: &workbench.File{Name: "receipt.pdf", Data: pdfBytes}}, 0)
	if err != nil || res.UploadID == 0 {
		t.Fatalf("commission: %v", err)
	}
	s.commission, s.upload = itoa(res.Commission.ID), itoa(res.UploadID)
	intake, err := env.App.DB.LatestDocument(ctx, res.Commission.ID, storage.DocIntake)
	if err != nil {
		t.Fatalf("intake confirmation: %v", err)
	}
	s.document = itoa(intake.ID)
	s.commissionForm = url.Values{}
	for k, v := range commissionForm(t, env) {
		s.commissionForm.Set(k, v)
	}
	s.commissionForm.Set("type", "paid_repair")

	senders, err := env.App.DB.Senders(ctx)
	if err != nil || len(senders) == 0 {
		t.Fatalf("senders: %v", err)
	}
	presets, err := env.App.DB.Presets(ctx)
	if err != nil || len(presets) == 0 {
		t.Fatalf("presets: %v", err)
	}
	s.sender, s.preset = itoa(senders[0].ID), itoa(presets[0].ID)
	victim, err := env.App.DB.UserByUsername(ctx, "victim")
	if err != nil {
		t.Fatal(err)
	}
	s.victim = itoa(victim.ID)
	rule, err := env.App.Desk.SaveRule(ctx, shiprules.Rule{Name: "Cheapest", Choice: shiprules.Cheapest})
	if err != nil {
		t.Fatal(err)
	}
	s.rule = itoa(rule)

	addresses, err := env.App.Desk.PickupAddresses(ctx)
	if err != nil || len(addresses) == 0 {
		t.Fatalf("pickup addresses: %v", err)
	}
	clock, err := env.App.Upstream.Controls.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p := desk.BlankPickup(clock.Now.Local())
	s.pickupForm = url.Values{"key": {p.Key}, "address": {itoa(addresses[0].ID)}, "date": {p.Date}, "time_from": {"09:00"},
		"time_to": {"12:00"}, "packages": {"1"}, "weight": {"3,5"}, "note": {"Ring twice."}}

	// A batch whose rows all need correcting (no phone): nothing of it is
	// priced or ordered while hostile values are sent; and an upload waiting
	// for its columns.
	bad := "reference;surname;street;city;zip;phone;weight_kg\nH-1;Nováková;Masarykova 5;Brno;602 00;;2\n"
	batch, err := env.App.Desk.ImportBatch(ctx, desk.BatchImport{FileName: "h.csv", Data: []byte(bad), Handover: desk.HandoverOnDemand}, 0)
	if err != nil || batch.Batch.ID == 0 {
		t.Fatalf("batch: %v", err)
	}
	rows, err := env.App.DB.BatchRows(ctx, batch.Batch.ID)
	if err != nil || len(rows) != 1 || rows[0].State != storage.RowProblem {
		t.Fatalf("batch rows: %v %+v", err, rows)
	}
	s.batch, s.batchRow = itoa(batch.Batch.ID), itoa(rows[0].ID)
	foreign, err := env.App.Desk.ImportBatch(ctx, desk.BatchImport{FileName: "f.csv", Data: []byte("Kdo;Tel\nNovák;777\n"), Handover: desk.HandoverOnDemand}, 0)
	if err != nil || foreign.Mapping == nil {
		t.Fatalf("upload to map: %v", err)
	}
	s.batchUpload = itoa(foreign.Mapping.UploadID)
	hostileClaims(t, env, &s)
	return env, s
}

// signIn signs in an existing account (the users hostileEnv added).
func signInWithPassword(t *testing.T, env *apptest.Env, username string) *apptest.Browser {
	t.Helper()
	b := env.NewBrowser()
	resp := b.PostForm("/login", url.Values{"username": {username}, "password": {"pw-" + username + "-long-enough"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign in %s: %d", username, resp.StatusCode)
	}
	return b
}

// hostileRequest sends a form (as the query of a GET) the way a browser would.
func hostileRequest(t *testing.T, env *apptest.Env, b *apptest.Browser, method, path string, form url.Values, asMultipart bool) apptest.Response {
	t.Helper()
	target := env.URL + path
	var body bytes.Buffer
	ctype := "application/x-www-form-urlencoded"
	switch {
	case method == http.MethodGet && len(form) > 0:
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		target += sep + form.Encode()
	case asMultipart:
		mw := multipart.NewWriter(&body)
		for k, vs := range form {
			for _, v := range vs {
				_ = mw.WriteField(k, v)
			}
		}
		mw.Close()
		ctype = mw.FormDataContentType()
	default:
		body.WriteString(form.Encode())
	}
	req, err := http.NewRequest(method, target, &body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, clip(path), err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", ctype)
		req.Header.Set("Origin", env.URL)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	return b.Do(req)
}

// withParam is the route's path with a hostile value in its path parameter.
func withParam(r hostileRoute, value string) string {
	escaped := url.PathEscape(value)
	_, pattern, found := strings.Cut(r.pattern, " ")
	if !found {
		pattern = r.pattern
	}
	switch {
	case pattern == "/":
		return "/nowhere/" + escaped
	case strings.HasSuffix(pattern, "/"):
		return pattern + escaped
	}
	return regexp.MustCompile(`\{[a-z]+\}`).ReplaceAllString(pattern, escaped)
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// rowCounts counts the rows of the tables people's work lives in.
func rowCounts(t *testing.T, env *apptest.Env) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"shipments", "commissions", "senders", "recipients", "package_presets", "users", "pickups",
		"cart_drafts", "tracking_events", "uploads", "carriers", "ship_rules"} {
		var n int
		if err := env.App.DB.SQL().QueryRowContext(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		out[table] = n
	}
	return out
}

// records are fields of known records that no hostile request may change.
type records struct {
	Reference, Recipient, Customer, Request, Sender, Preset string
	Draft                                                   int64
}

func knownRecords(t *testing.T, env *apptest.Env, s hostileSetup) records {
	t.Helper()
	ctx := context.Background()
	var r records
	sh, err := env.App.DB.ShipmentByID(ctx, atoi(s.shipment))
	if err != nil {
		t.Fatal(err)
	}
	c, err := env.App.DB.CommissionByID(ctx, atoi(s.commission))
	if err != nil {
		t.Fatal(err)
	}
	sender, err := env.App.DB.SenderByID(ctx, atoi(s.sender))
	if err != nil {
		t.Fatal(err)
	}
	d, err := env.App.DB.DraftByID(ctx, atoi(s.draft))
	if err != nil {
		t.Fatal(err)
	}
	presets, err := env.App.DB.Presets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range presets {
		if itoa(p.ID) == s.preset {
			r.Preset = p.Name
		}
	}
	r.Reference, r.Recipient, r.Customer, r.Sender, r.Draft = sh.Reference, sh.RecipientName, c.CustomerName, sender.Label, d.DraftID
	r.Request = string(c.Request)
	return r
}

// TestUnreadableTextIsAFieldError: text that cannot be read is named next to
// its field, the page answers, and nothing is sent upstream.
func TestUnreadableTextIsAFieldError(t *testing.T) {
	t.Parallel()
	env, clerk := deskEnv(t)
	if err := env.App.Bench.RefreshProducts(context.Background()); err != nil {
		t.Fatal(err)
	}
	agent := env.SignedIn(identity.Agent)
	const unreadable, control = "cannot be read", "control characters"
	check := func(what string, resp apptest.Response, status int, want string) {
		t.Helper()
		if resp.StatusCode != status || !strings.Contains(resp.Body, want) {
			t.Errorf("%s: %d %s", what, resp.StatusCode, problemsOf(resp.Body))
		}
	}
	check("tracking filter", clerk.Get("/tracking?q="+url.QueryEscape("\xff\xfe")), 422, unreadable)
	check("returns filter", agent.Get("/returns?customer="+url.QueryEscape("a\x00")), 200, control)
	check("sender", clerk.PostForm("/shipping/senders", url.Values{"label": {"Dock\x00"}, "country": {"CZ"}}), 422, control)
	check("sign-in", env.NewBrowser().PostForm("/login", url.Values{"username": {"clerk1\x00"}, "password": {"x"}}), 422, control)
	form := commissionForm(t, env)
	form["type"], form["fault"] = "paid_repair", "Broken\x00 again"
	check("new commission", postMultipart(t, env, agent, form, "", nil), 422, control)
	form["fault"] = "Two lines:\r\nstill fine."
	if resp := postMultipart(t, env, agent, form, "", nil); resp.StatusCode != 303 {
		t.Errorf("a fault on two lines: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if n := countCalls(env, "commissions/create"); n != 1 {
		t.Errorf("commissions/create called %d times, want the one good form", n)
	}
}
