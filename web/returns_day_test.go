package web_test

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage"
)

// A returns agent's day: the model picker follows the product type, a claim
// ends with its resolution, its 30 days count on the service's clock, a scan
// opens the commission of an inbound parcel, and answers come from templates.

// newCommission creates a commission through the form and returns its page.
func newCommission(t *testing.T, env *apptest.Env, b *apptest.Browser, change map[string]string) string {
	t.Helper()
	form := commissionForm(t, env)
	for k, v := range change {
		form[k] = v
	}
	resp := postMultipart(t, env, b, form, "receipt.pdf", pdfBytes)
	if resp.StatusCode != 303 {
		t.Fatalf("create: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	return resp.Header.Get("Location")
}

// moveTo posts a move with its resolution and returns the answer.
func moveTo(b *apptest.Browser, page, to string, kv ...string) apptest.Response {
	return b.PostForm(page+"/move", with(url.Values{"to": {to}}, kv...))
}

func TestModelPickerFollowsTheProductType(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	types, models, err := env.App.DB.Products(context.Background())
	if err != nil || len(types) < 2 {
		t.Fatalf("products: %d types, %v", len(types), err)
	}
	typeOf := map[string]string{}
	for _, m := range models {
		typeOf[itoa(m.ID)] = itoa(m.TypeID)
	}
	chosen := itoa(types[1].ID)

	t.Run("the form lists every type's models, grouped, and asks for the chosen type's", func(t *testing.T) {
		doc := htmlOf(t, b.Get("/returns/new").Body)
		if got := doc.Find(`#model_id optgroup`).Length(); got != len(types) {
			t.Errorf("%d groups without a type chosen, want %d", got, len(types))
		}
		sel := doc.Find(`select#type_id`)
		if sel.AttrOr("hx-get", "") != "/returns/new/models" || sel.AttrOr("hx-target", "") != "#model-field" {
			t.Errorf("the type select does not ask for its models: %v", sel.Nodes[0].Attr)
		}
	})
	t.Run("the chosen type's models only", func(t *testing.T) {
		resp := b.Get("/returns/new/models?type_id=" + chosen)
		doc := htmlOf(t, resp.Body)
		groups := doc.Find(`optgroup`)
		if resp.StatusCode != 200 || groups.Length() != 1 || groups.AttrOr("data-type-id", "") != chosen || groups.AttrOr("label", "") != types[1].Name {
			t.Fatalf("%d: %d groups", resp.StatusCode, groups.Length())
		}
		var want int
		for _, m := range models {
			if itoa(m.TypeID) == chosen {
				want++
			}
		}
		options := doc.Find(`#model_id optgroup option`)
		if options.Length() != want {
			t.Errorf("%d models, want %d", options.Length(), want)
		}
		options.Each(func(_ int, o *goquery.Selection) {
			if v := o.AttrOr("value", ""); typeOf[v] != chosen {
				t.Errorf("model %s is of type %s, not %s", v, typeOf[v], chosen)
			}
		})
	})
	t.Run("the chosen model is kept when it is of the type", func(t *testing.T) {
		var model string
		for _, m := range models {
			if itoa(m.TypeID) == chosen {
				model = itoa(m.ID)
			}
		}
		doc := htmlOf(t, b.Get("/returns/new/models?type_id="+chosen+"&model_id="+model).Body)
		if got := doc.Find(`option[selected]`).AttrOr("value", ""); got != model {
			t.Errorf("selected %q, want %q", got, model)
		}
	})
	for _, q := range []string{"", "type_id=", "type_id=abc", "type_id=-1", "type_id=999999", "type_id=1e308&model_id=%00"} {
		t.Run("every type for "+q, func(t *testing.T) {
			resp := b.Get("/returns/new/models?" + q)
			if got := htmlOf(t, resp.Body).Find(`optgroup`).Length(); resp.StatusCode != 200 || got != len(types) {
				t.Errorf("%d: %d groups, want %d", resp.StatusCode, got, len(types))
			}
		})
	}
	t.Run("a model of another type is refused before the service", func(t *testing.T) {
		form := commissionForm(t, env)
		form["type_id"] = chosen // the model stays the first type's
		resp := postMultipart(t, env, b, form, "receipt.pdf", pdfBytes)
		doc := htmlOf(t, resp.Body)
		msg := strings.TrimSpace(doc.Find(`#model_id-error`).Text())
		if resp.StatusCode != 422 || !strings.Contains(msg, "not of the chosen product type") {
			t.Fatalf("%d: %q %s", resp.StatusCode, msg, problemsOf(resp.Body))
		}
		if doc.Find(`#customer_name`).AttrOr("value", "") != "Alena Veselá" || doc.Find(`#type_id option[selected]`).AttrOr("value", "") != chosen {
			t.Error("the typed values are not kept")
		}
		if n := countCalls(env, "commissions/create"); n != 0 {
			t.Errorf("commissions/create called %d times", n)
		}
		b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/returns"}})
		defer b.PostForm("/language", url.Values{"lang": {"en"}, "back": {"/returns"}})
		form["key"] = commissionForm(t, env)["key"]
		resp = postMultipart(t, env, b, form, "receipt.pdf", pdfBytes)
		if msg := strings.TrimSpace(htmlOf(t, resp.Body).Find(`#model_id-error`).Text()); !strings.Contains(msg, "nepatří k vybranému druhu výrobku") {
			t.Errorf("in Czech: %q", msg)
		}
	})
}

func TestSettlingAClaimRecordsItsResolution(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	page := newCommission(t, env, b, nil)
	if r := moveTo(b, page, "processing"); r.StatusCode != 303 {
		t.Fatalf("to processing (no resolution needed): %d", r.StatusCode)
	}
	edits := countCalls(env, "commissions/edit")
	refused := []struct {
		name   string
		kv     []string
		status int
		field  string
		want   string
	}{
		{"no resolution", nil, 422, "resolution", "Choose how the order ends"},
		{"unknown resolution", []string{"resolution", "broken"}, 422, "resolution", "Choose a resolution from the list"},
		{"hostile resolution", []string{"resolution", "<script>alert(1)</script>"}, 422, "resolution", "Choose a resolution from the list"},
		{"rejected without a reason", []string{"resolution", "rejected", "reason", "  "}, 422, "reason", "Write the reason"},
		{"reason too long", []string{"resolution", "rejected", "reason", strings.Repeat("ž", 1001)}, 422, "reason", "at most 1000 characters"},
		{"reason with NUL", []string{"resolution", "repaired", "reason", "a\x00b"}, 422, "reason", "cannot be read"},
		{"reason of 100 kB", []string{"resolution", "rejected", "reason", strings.Repeat("x", 100<<10)}, 413, "", "more data than this form accepts"},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			resp := moveTo(b, page, "outgoing", c.kv...)
			if resp.StatusCode != c.status || !strings.Contains(resp.Body, c.want) {
				t.Fatalf("%d %s", resp.StatusCode, problemsOf(resp.Body))
			}
			if strings.Contains(resp.Body, "<script>alert(1)</script>") {
				t.Error("hostile text shown unescaped")
			}
			if c.field != "" {
				doc := htmlOf(t, resp.Body)
				if doc.Find(`#`+c.field+`-error`).Length() != 1 || doc.Find(`[data-testid=settle-form] #`+c.field).AttrOr("aria-invalid", "") != "true" {
					t.Errorf("the %s field is not marked", c.field)
				}
				if c.name == "reason too long" && doc.Find(`#resolution option[selected]`).AttrOr("value", "") != "rejected" {
					t.Error("the chosen resolution is not kept")
				}
			}
		})
	}
	if n := countCalls(env, "commissions/edit"); n != edits {
		t.Errorf("refused resolutions reached the service %d times", n-edits)
	}
	if got := textOf(htmlOf(t, b.Get(page).Body), "commission-status"); got != "processing" {
		t.Fatalf("after refused resolutions the status is %q", got)
	}

	// Settled three days after it was lodged (on the sandbox's clock).
	env.Sandbox.Advance(3 * 24 * time.Hour)
	reason := "Water damage <script>alert(1)</script> inside; not covered."
	if r := moveTo(b, page, "outgoing", "resolution", "rejected", "reason", reason); r.StatusCode != 303 {
		t.Fatalf("send back rejected: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	body := b.Get(page).Body
	doc := htmlOf(t, body)
	if got := textOf(doc, "commission-status"); got != "on its way back" {
		t.Errorf("status %q", got)
	}
	if got := textOf(doc, "commission-resolution"); !strings.Contains(got, "rejected") || !strings.Contains(got, reason) {
		t.Errorf("resolution on the page: %q", got)
	}
	if got := textOf(doc, "settled"); got != "settled in 3 days" {
		t.Errorf("settled: %q", got)
	}
	if has(doc, "days-left") || has(doc, "settle-form") {
		t.Error("a settled claim still counts down or offers to settle it")
	}
	entry := doc.Find(`[data-testid=history] li`).FilterFunction(func(_ int, li *goquery.Selection) bool {
		return li.Find(`[data-testid=history-resolution]`).Length() > 0
	})
	if entry.Length() != 1 || !strings.Contains(entry.Text(), "on its way back") || !strings.Contains(entry.Text(), reason) {
		t.Errorf("history: %q", textOf(doc, "history"))
	}
	if strings.Contains(body, "<script>alert(1)</script>") {
		t.Error("the reason is shown unescaped")
	}
	c, err := env.App.DB.CommissionByID(context.Background(), idOf(page))
	if err != nil || c.Resolution != "rejected" || c.ResolutionReason != reason || c.SettledDays == nil || *c.SettledDays != 3 || c.ResolvedBy == nil || c.DeadlineAt != nil {
		t.Errorf("stored: %+v %v", c, err)
	}

	row := htmlOf(t, b.Get("/returns").Body).Find(`[data-testid=commission]`)
	if got := strings.TrimSpace(row.Find(`[data-testid=resolution]`).Text()); got != "rejected" {
		t.Errorf("list badge %q", got)
	}
	if got := strings.TrimSpace(row.Find(`[data-testid=settled]`).Text()); got != "settled in 3 days" || row.Find(`[data-testid=days-left]`).Length() != 0 {
		t.Errorf("list: settled %q", got)
	}
	b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/returns"}})
	row = htmlOf(t, b.Get("/returns").Body).Find(`[data-testid=commission]`)
	if got := strings.TrimSpace(row.Find(`[data-testid=settled]`).Text()); got != "vyřízeno za 3 dny" {
		t.Errorf("in Czech: %q", got)
	}
	if got := strings.TrimSpace(row.Find(`[data-testid=resolution]`).Text()); got != "zamítnuto" {
		t.Errorf("in Czech: %q", got)
	}
}

func TestSettledDaysInWords(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	pages := map[string]string{}
	for _, days := range []string{"0", "1", "5"} {
		page := newCommission(t, env, b, map[string]string{"customer_name": "Claim " + days})
		moveTo(b, page, "processing")
		pages[days] = page
	}
	for _, days := range []string{"0", "1", "5"} {
		if days == "1" {
			env.Sandbox.Advance(24 * time.Hour)
		}
		if days == "5" {
			env.Sandbox.Advance(4 * 24 * time.Hour)
		}
		if r := moveTo(b, pages[days], "closed", "resolution", "refunded"); r.StatusCode != 303 {
			t.Fatalf("close: %d %s", r.StatusCode, problemsOf(r.Body))
		}
	}
	for lang, want := range map[string]map[string]string{
		"en": {"0": "settled the same day", "1": "settled in 1 day", "5": "settled in 5 days"},
		"cs": {"0": "vyřízeno týž den", "1": "vyřízeno za 1 den", "5": "vyřízeno za 5 dní"},
	} {
		b.PostForm("/language", url.Values{"lang": {lang}, "back": {"/returns"}})
		for days, text := range want {
			if got := textOf(htmlOf(t, b.Get(pages[days]).Body), "settled"); got != text {
				t.Errorf("%s, %s days: %q, want %q", lang, days, got, text)
			}
		}
	}
}

func TestCountdownFollowsTheSandboxClock(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	page := newCommission(t, env, b, nil)
	if got := textOf(htmlOf(t, b.Get(page).Body), "days-left"); got != "30 days left" {
		t.Fatalf("fresh claim: %q", got)
	}
	// Only the simulated clock moves: the wall clock has not.
	env.Sandbox.Advance(31 * 24 * time.Hour)
	doc := htmlOf(t, b.Get(page).Body)
	if got := textOf(doc, "days-left"); got != "overdue 1" || !doc.Find(`dd[data-testid=days-left]`).HasClass("urgent") {
		t.Errorf("after 31 simulated days the page says %q", got)
	}
	cell := htmlOf(t, b.Get("/returns").Body).Find(`[data-testid=commission] [data-testid=days-left]`)
	if got := strings.TrimSpace(cell.Text()); got != "overdue 1" || !cell.HasClass("urgent") {
		t.Errorf("after 31 simulated days the list says %q", got)
	}
}

func TestScanOpensTheCommission(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	page := newCommission(t, env, b, map[string]string{"two_way": "on"})
	c, err := env.App.DB.CommissionByID(context.Background(), idOf(page))
	if err != nil {
		t.Fatal(err)
	}
	inbound := ""
	for _, tr := range detailTransport(t, env, c) {
		inbound = tr
	}
	if inbound == "" || c.Number == "" {
		t.Fatalf("no inbound transport or number: %q %q", inbound, c.Number)
	}
	for name, code := range map[string]string{"inbound tracking number": inbound, "in lower case": strings.ToLower(inbound),
		"with spaces around": "  " + inbound + " ", "commission number": c.Number} {
		t.Run(name, func(t *testing.T) {
			resp := b.Get("/returns/scan?q=" + url.QueryEscape(code))
			if resp.StatusCode != 303 || resp.Header.Get("Location") != page {
				t.Errorf("%d to %q, want %s", resp.StatusCode, resp.Header.Get("Location"), page)
			}
		})
	}
	for _, p := range []string{"/returns", page} {
		if doc := htmlOf(t, b.Get(p).Body); doc.Find(`[data-testid=returns-scan] input#ret-scan[autofocus]`).Length() != 1 {
			t.Errorf("%s: no focused scan box", p)
		}
	}
	t.Run("none", func(t *testing.T) {
		resp := b.Get("/returns/scan?q=RT99999999IN")
		doc := htmlOf(t, resp.Body)
		if resp.StatusCode != 200 || !strings.Contains(textOf(doc, "scan-none"), "RT99999999IN") || doc.Find(`input#ret-scan[autofocus]`).Length() != 1 {
			t.Errorf("%d %q", resp.StatusCode, textOf(doc, "scan-none"))
		}
	})
	t.Run("several", func(t *testing.T) {
		other := newCommission(t, env, b, map[string]string{"two_way": "on", "customer_name": "Second Parcel"})
		// The service reused the tracking number for a second parcel.
		if _, err := env.App.DB.SQL().Exec(`UPDATE commissions SET raw = jsonb_set(raw, '{shipments,0,tracking_number}', to_jsonb($1::text)) WHERE id = $2`,
			inbound, idOf(other)); err != nil {
			t.Fatal(err)
		}
		resp := b.Get("/returns/scan?q=" + inbound)
		rows := htmlOf(t, resp.Body).Find(`[data-testid=commission]`)
		if resp.StatusCode != 200 || rows.Length() != 2 {
			t.Errorf("%d: %d rows", resp.StatusCode, rows.Length())
		}
	})
	for name, q := range map[string]string{"empty": "", "NUL": "a\x00b", "huge": strings.Repeat("7", 100<<10), "script": "<script>alert(1)</script>"} {
		t.Run("hostile "+name, func(t *testing.T) {
			resp := b.Get("/returns/scan?q=" + url.QueryEscape(q))
			if resp.StatusCode >= 500 || strings.Contains(resp.Body, "<script>alert(1)</script>") {
				t.Errorf("%d", resp.StatusCode)
			}
			if name == "NUL" && (resp.StatusCode != 400 || !strings.Contains(resp.Body, "cannot be read")) {
				t.Errorf("unreadable: %d %s", resp.StatusCode, problemsOf(resp.Body))
			}
			if name == "empty" && (resp.StatusCode != 303 || resp.Header.Get("Location") != "/returns") {
				t.Errorf("empty: %d %s", resp.StatusCode, resp.Header.Get("Location"))
			}
		})
	}
}

// detailTransport lists the tracking numbers of the transport from the customer.
func detailTransport(t *testing.T, env *apptest.Env, c storage.Commission) []string {
	t.Helper()
	full, err := env.App.Upstream.Returns.Get(context.Background(), *c.RemoteID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range full.Shipments {
		if s.Direction == "from_customer" {
			out = append(out, s.TrackingNumber)
		}
	}
	return out
}

func TestReportsCountResolutions(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	for _, res := range []string{"repaired", "repaired", "rejected"} {
		page := newCommission(t, env, b, nil)
		moveTo(b, page, "processing")
		if r := moveTo(b, page, "outgoing", "resolution", res, "reason", "Checked."); r.StatusCode != 303 {
			t.Fatalf("%s: %d %s", res, r.StatusCode, problemsOf(r.Body))
		}
	}
	manager := env.SignedIn(identity.Manager)
	day := sandboxtest.Epoch.Format("2006-01-02")
	doc := htmlOf(t, manager.Get("/reports?from="+day+"&to="+day).Body)
	counts := map[string]string{}
	doc.Find(`[data-testid=per-resolution] tr[data-resolution]`).Each(func(_ int, tr *goquery.Selection) {
		counts[tr.AttrOr("data-resolution", "")] = strings.TrimSpace(tr.Find("td").Eq(1).Text())
	})
	want := map[string]string{"repaired": "2", "replaced": "0", "refunded": "0", "rejected": "1"}
	for k, v := range want {
		if counts[k] != v {
			t.Errorf("%s: %q, want %s (%v)", k, counts[k], v, counts)
		}
	}
	if got := textOf(doc, "returns-resolved"); got != "3" {
		t.Errorf("resolved %q", got)
	}
	next := sandboxtest.Day(2)
	if got := textOf(htmlOf(t, manager.Get("/reports?from="+next+"&to="+next).Body), "returns-resolved"); got != "0" {
		t.Errorf("another period counts %q", got)
	}
}

// No page of the returns desk shows a status, type or resolution code where a
// person reads it: filters, lists, badges, history, flashes.
func TestReturnsPagesShowNoRawCodes(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	two := newCommission(t, env, b, map[string]string{"two_way": "on", "type": "paid_repair"})
	page := newCommission(t, env, b, nil)
	moveTo(b, page, "processing")
	moveTo(b, page, "outgoing", "resolution", "refunded")
	moveTo(b, two, "outgoing", "resolution", "repaired") // refused: a flash says why
	codes := []string{"waiting_for_goods", "paid_repair", "withdrawal", "warranty", "outgoing", "refunded", "waiting_parts"}
	for _, lang := range []string{"en", "cs"} {
		b.PostForm("/language", url.Values{"lang": {lang}, "back": {"/returns"}})
		for _, p := range []string{"/returns", "/returns?status=waiting_for_goods&type=paid_repair", two, page, "/returns/new", "/returns/scan?q=nothing"} {
			doc := htmlOf(t, b.Get(p).Body)
			doc.Find("script, style").Remove()
			text := doc.Find("body").Text()
			for _, code := range codes {
				if lang == "en" && !strings.Contains(code, "_") && code != "outgoing" {
					continue // an English word as well as a code
				}
				if strings.Contains(text, code) {
					t.Errorf("%s %s shows %q", lang, p, code)
				}
			}
			var labels []string
			doc.Find(`select#status option, select#type option`).Each(func(_ int, o *goquery.Selection) {
				labels = append(labels, strings.TrimSpace(o.Text()))
			})
			if slices.ContainsFunc(labels, func(l string) bool { return slices.Contains(codes, l) }) {
				t.Errorf("%s %s: filter options %q", lang, p, labels)
			}
		}
	}
}

func TestNewReturnsRoutesRefuseOtherRoles(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	clerk := env.SignedIn(identity.Clerk)
	anon := env.NewBrowser()
	for _, p := range []string{"/returns/new/models?type_id=1", "/returns/scan?q=RMA-000001", "/returns/commissions/1?template=received"} {
		if r := clerk.Get(p); r.StatusCode != 403 {
			t.Errorf("clerk GET %s: %d", p, r.StatusCode)
		}
		if r := anon.Get(p); r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous GET %s: %d", p, r.StatusCode)
		}
	}
	if r := clerk.PostForm("/returns/commissions/1/move", url.Values{"to": {"outgoing"}, "resolution": {"repaired"}}); r.StatusCode != 403 {
		t.Errorf("clerk settles: %d", r.StatusCode)
	}
	if r := anon.PostForm("/returns/commissions/1/move", url.Values{"to": {"outgoing"}, "resolution": {"repaired"}}); r.StatusCode != 303 {
		t.Errorf("anonymous settles: %d", r.StatusCode)
	}
	if r := env.SignedIn(identity.Agent).Get("/reports"); r.StatusCode != 403 {
		t.Errorf("an agent reads the reports: %d", r.StatusCode)
	}
}
