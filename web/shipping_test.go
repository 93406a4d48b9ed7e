package web_test

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/client/shipping"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/storage"
)

// desk starts a dashboard with the demo shipping data and the points cached.
func deskEnv(t *testing.T) (*apptest.Env, *apptest.Browser) {
	t.Helper()
	return deskEnvOn(t, apptest.StartOptions(t, apptest.Options{CachedPoints: true}))
}

// deskEnvOn is deskEnv on a dashboard the caller started.
func deskEnvOn(t testing.TB, env *apptest.Env) (*apptest.Env, *apptest.Browser) {
	t.Helper()
	env.SeedDesk()
	return env, env.SignedIn(identity.Clerk)
}

// impatientDesk is a clerk's desk whose upstream calls give up after o's
// short limit; its demo desk and points were loaded with the default one.
func impatientDesk(t *testing.T, o apptest.Options) (*apptest.Env, *apptest.Browser) {
	t.Helper()
	o.Prepare, o.CachedPoints = (*apptest.Env).SeedDesk, true
	env := apptest.StartOptions(t, o)
	return env, env.SignedIn(identity.Clerk)
}

// shipmentForm is a complete form for a parcel from the demo sender to Brno.
func shipmentForm(t testing.TB, env *apptest.Env) url.Values {
	t.Helper()
	senders, err := env.App.DB.Senders(context.Background())
	if err != nil || len(senders) == 0 {
		t.Fatalf("senders: %v", err)
	}
	return url.Values{
		"key": {requestkey.New()}, "sender": {itoa(senders[0].ID)}, "handover": {"ONDEMAND"},
		"to_firstname": {"Jana"}, "to_surname": {"Nováková"}, "to_street": {"Masarykova 5"}, "to_city": {"Brno"},
		"to_zip": {"602 00"}, "to_country": {"CZ"}, "to_phone": {"+420 777 123 456"}, "to_email": {"jana@example.cz"},
		"pkg_weight": {"2"}, "pkg_length": {"30"}, "pkg_width": {"20"}, "pkg_height": {"10"},
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func with(v url.Values, kv ...string) url.Values {
	out := url.Values{}
	for k, x := range v {
		out[k] = append([]string(nil), x...)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out.Set(kv[i], kv[i+1])
	}
	return out
}

// page parses an answer's HTML for goquery.
func page(t testing.TB, body string) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parse the page: %v", err)
	}
	return doc
}

// offerOf finds the service id of a selectable offer of a carrier that
// delivers to the address ("UPS"), or of a named service ("Zásilkovna To Point").
func offerOf(t testing.TB, body, want string) string {
	t.Helper()
	id := ""
	page(t, body).Find(`[data-testid=offer][data-selectable=true]`).EachWithBreak(func(_ int, row *goquery.Selection) bool {
		if row.Find(`[data-testid=choose]`).Length() == 0 {
			return true
		}
		carrier := row.AttrOr("data-carrier", "")
		service := strings.TrimSpace(row.Find(`[data-testid=offer-service]`).Text())
		toPoint := strings.TrimSpace(row.Find(`[data-testid=offer-delivery-point]`).Text()) == "required"
		if strings.EqualFold(carrier, want) && !toPoint || service == want {
			id = row.AttrOr("data-service", "")
			return false
		}
		return true
	})
	if id == "" {
		t.Fatalf("no selectable %s offer: %s", want, problemsOf(body))
	}
	return id
}

// problemsOf is what a page says is wrong, for failure messages.
func problemsOf(body string) string {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		return fmt.Sprintf("unreadable page (%d bytes)", len(body))
	}
	var out []string
	doc.Find(`.form-message, .field-error`).Each(func(_ int, m *goquery.Selection) {
		out = append(out, strings.TrimSpace(m.Text()))
	})
	if len(out) == 0 {
		return fmt.Sprintf("no problems shown (%d bytes)", len(body))
	}
	return strings.Join(out, " | ")
}

func TestCompareOffersAndOrder(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	resp := b.PostForm("/shipping/new/compare", form)
	if resp.StatusCode != 200 || !strings.Contains(resp.Body, `data-testid="offers"`) {
		t.Fatalf("compare: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	for _, want := range []string{"you print the label", "the courier brings the label", "With VAT"} {
		if !strings.Contains(resp.Body, want) {
			t.Errorf("offers lack %q", want)
		}
	}
	id := offerOf(t, resp.Body, "UPS")
	resp = b.PostForm("/shipping/new/choose", with(form, "choose", id))
	if resp.StatusCode != 200 || !strings.Contains(resp.Body, `data-testid="chosen"`) {
		t.Fatalf("choose: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	hidden := hiddenFields(resp.Body)
	resp = b.PostForm("/shipping/new/order", with(merge(form, hidden)))
	if resp.StatusCode != 303 || !strings.HasPrefix(resp.Header.Get("Location"), "/shipping/shipments/") {
		t.Fatalf("create: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	page := b.Get(resp.Header.Get("Location")).Body
	if !strings.Contains(page, "Nováková") || !strings.Contains(page, "PENDING") {
		t.Errorf("shipment page: %s", page)
	}
}

// hiddenFields are the hidden inputs of a page: the chosen offer and the form's key.
func hiddenFields(body string) url.Values {
	v := url.Values{}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		return v
	}
	doc.Find(`input[type=hidden][name]`).Each(func(_ int, in *goquery.Selection) {
		v.Set(in.AttrOr("name", ""), in.AttrOr("value", ""))
	})
	return v
}

func merge(a, b url.Values) url.Values {
	out := with(a)
	for k, v := range b {
		out[k] = v
	}
	return out
}

// order runs compare, choose (the first selectable offer of a carrier) and create.
func order(t testing.TB, b *apptest.Browser, form url.Values, carrier string) (string, url.Values) {
	t.Helper()
	resp := b.PostForm("/shipping/new/compare", form)
	if resp.StatusCode != 200 {
		t.Fatalf("compare: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	resp = b.PostForm("/shipping/new/choose", with(form, "choose", offerOf(t, resp.Body, carrier)))
	if resp.StatusCode != 200 {
		t.Fatalf("choose: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	full := merge(form, hiddenFields(resp.Body))
	return "", full
}

func countCalls(env *apptest.Env, op string) int64 {
	var n int64
	for _, c := range env.App.Upstream.Metrics.Counters() {
		if c.Op == op {
			n += c.Calls
		}
	}
	return n
}

func TestCODRulesCaughtBeforeUpstream(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := with(shipmentForm(t, env), "cod", "on", "cod_currency", "CZK", "cod_bank_account", "19-2000145399", "cod_bank_code", "0800")
	cases := []struct {
		name, field, want string
		kv                []string
	}{
		{"below minimum", "cod_value", "minimum cash on delivery amount is 30 CZK", []string{"cod_value", "29"}},
		{"decimals in CZK", "cod_value", "whole number", []string{"cod_value", "100.50"}},
		{"EUR within CZ", "cod_currency", "must be in CZK", []string{"cod_value", "10", "cod_currency", "EUR"}},
		{"not a number", "cod_value", "Type the amount", []string{"cod_value", "lots"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := countCalls(env, "rates/get")
			resp := b.PostForm("/shipping/new/compare", with(form, c.kv...))
			if got := fieldError(resp.Body, c.field); resp.StatusCode != 422 || !strings.Contains(got, c.want) {
				t.Errorf("%d, %s says %q, want %q", resp.StatusCode, c.field, got, c.want)
			}
			if countCalls(env, "rates/get") != before {
				t.Error("the service was asked")
			}
		})
	}
	// The bank details are checked before ordering: modulo 11, bank code, IBAN.
	_, full := order(t, b, with(form, "cod_value", "500"), "UPS")
	bank := []struct {
		kv          []string
		field, want string
	}{
		{[]string{"cod_bank_account", "19-2000145398"}, "cod_bank_account", "modulo 11"},
		{[]string{"cod_bank_code", "80"}, "cod_bank_code", "exactly four digits"},
		{[]string{"cod_bank_account", "CZ6508000000192000145398", "cod_bank_code", ""}, "cod_bank_account", "IBAN is not valid"},
		{[]string{"cod_bank_account", "CZ6508000000192000145399", "cod_bank_code", "0800"}, "cod_bank_code", "omitted when the account is an IBAN"},
		{[]string{"cod_bank_variable", "12ab"}, "cod_bank_variable", "only digits"},
	}
	for _, c := range bank {
		t.Run(c.field+" "+c.kv[1], func(t *testing.T) {
			before := countCalls(env, "shipments/validate") + countCalls(env, "shipments/create")
			resp := b.PostForm("/shipping/new/order", with(full, c.kv...))
			if got := fieldError(resp.Body, c.field); resp.StatusCode != 422 || !strings.Contains(got, c.want) {
				t.Errorf("%v: %d, %s says %q, want %q", c.kv, resp.StatusCode, c.field, got, c.want)
			}
			if countCalls(env, "shipments/validate")+countCalls(env, "shipments/create") != before {
				t.Errorf("%v: the service was asked", c.kv)
			}
		})
	}
	// A valid COD order goes through and keeps the amount.
	resp := b.PostForm("/shipping/new/order", full)
	if resp.StatusCode != 303 {
		t.Fatalf("valid COD order: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if page := b.Get(resp.Header.Get("Location")).Body; !strings.Contains(page, "CZK\u00a0500.00") {
		t.Error("the shipment page does not show the COD amount")
	}
}

func TestLabelFreeOfferedOnlyWhenPossible(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := with(shipmentForm(t, env), "handover", "POINT")
	resp := b.PostForm("/shipping/new/compare", form)
	resp = b.PostForm("/shipping/new/choose", with(form, "choose", offerOf(t, resp.Body, "ZASILKOVNA")))
	if !strings.Contains(resp.Body, `name="label_less"`) {
		t.Fatalf("label-free not offered for ZASILKOVNA, one package, CZ→CZ at a point: %s", problemsOf(resp.Body))
	}
	// Two packages: not offered, explained; forced anyway, refused on the field.
	two := with(form, "pkg_weight", "1")
	two["pkg_weight"] = []string{"1", "2"}
	two["pkg_length"], two["pkg_width"], two["pkg_height"] = []string{"", ""}, []string{"", ""}, []string{"", ""}
	resp = b.PostForm("/shipping/new/compare", two)
	resp = b.PostForm("/shipping/new/choose", with(two, "choose", offerOf(t, resp.Body, "ZASILKOVNA")))
	if strings.Contains(resp.Body, `name="label_less"`) || !strings.Contains(resp.Body, "exactly one package") {
		t.Errorf("label-free offered for two packages")
	}
	forced := with(merge(two, hiddenFields(resp.Body)), "label_less", "on")
	resp = b.PostForm("/shipping/new/order", forced)
	if resp.StatusCode != 422 || !strings.Contains(resp.Body, `id="label_less-error"`) {
		t.Errorf("forced label-free with two packages: %d", resp.StatusCode)
	}
}

func TestLabelFreeShipmentShowsCodeAfterExport(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := with(shipmentForm(t, env), "handover", "POINT")
	_, full := order(t, b, form, "Zásilkovna Home")
	resp := b.PostForm("/shipping/new/order", with(full, "label_less", "on"))
	if resp.StatusCode != 303 {
		t.Fatalf("label-free order: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	page := resp.Header.Get("Location")
	if body := b.Get(page).Body; !strings.Contains(body, "PENDING") || !strings.Contains(body, `hx-trigger="every 4s"`) {
		t.Errorf("pending label-free shipment does not poll: %s", problemsOf(body))
	}
	env.Sandbox.Advance(10 * time.Minute) // exported, before the courier's pickup (the sandbox's carrier picks up 15 minutes after export)
	body := b.Get(page + "/status").Body
	code := regexp.MustCompile(`data-testid="handover-code">([A-Z0-9]{6})<`).FindStringSubmatch(body)
	// The shipment still moves: the page goes on asking for its live part
	// (issue 23), until it is delivered or cancelled.
	if code == nil || !strings.Contains(body, "Nováková") || !strings.Contains(body, "every 4s") {
		t.Fatalf("after export the code is not shown (or polling stops while the shipment moves): %.2000s", body)
	}
}

// upstreamTotal is how many shipments the service holds for our account.
func upstreamTotal(t *testing.T, env *apptest.Env) int {
	t.Helper()
	held, err := env.App.Upstream.Shipping.ListAll(context.Background(), shipping.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	return len(held)
}

func TestDroppedCreateEndsWithExactlyOneOrder(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	_, full := order(t, b, shipmentForm(t, env), "UPS")
	// The service creates the order, then the connection drops before the answer.
	env.Sandbox.Fault("/api/v1/shipments/create", map[string]any{"drop_after_rate": 1, "count": 1})
	resp := b.PostForm("/shipping/new/order", full)
	if resp.StatusCode != 303 {
		t.Fatalf("create with a dropped answer: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	// Reconciled at once through shipments/list by our reference.
	page := b.Get(resp.Header.Get("Location")).Body
	if strings.Contains(page, "unknown outcome") || !regexp.MustCompile(`data-testid="tracking-number">[A-Z0-9]+<`).MatchString(page) {
		t.Errorf("the lost answer was not reconciled: %s", problemsOf(page))
	}
	// The clerk, unsure, sends the same form again: still one order.
	again := b.PostForm("/shipping/new/order", full)
	if again.Header.Get("Location") != resp.Header.Get("Location") {
		t.Errorf("resubmit went to %q, first to %q", again.Header.Get("Location"), resp.Header.Get("Location"))
	}
	if n := upstreamTotal(t, env); n != 1 {
		t.Errorf("the service holds %d shipments, want 1", n)
	}
	if n := countCalls(env, "shipments/create"); n != 1 {
		t.Errorf("shipments/create called %d times, want 1", n)
	}
}

func TestConcurrentDoubleSubmitCreatesOneOrder(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	_, full := order(t, b, shipmentForm(t, env), "UPS")
	var wg sync.WaitGroup
	locs := make([]string, 4)
	for i := range locs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			locs[i] = b.PostForm("/shipping/new/order", full).Header.Get("Location")
		}()
	}
	wg.Wait()
	for _, l := range locs {
		if l == "" || l != locs[0] {
			t.Errorf("submits went to %q", locs)
			break
		}
	}
	if n := upstreamTotal(t, env); n != 1 {
		t.Errorf("four concurrent submits made %d orders, want 1", n)
	}
}

func TestRefusedOrderKeepsInputAndStoresNothing(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	_, full := order(t, b, form, "UPS")
	// Too heavy for the service: the service's field error lands on the weight.
	resp := b.PostForm("/shipping/new/order", with(full, "pkg_weight", "900"))
	if resp.StatusCode != 422 || !strings.Contains(resp.Body, `id="pkg_weight_0-error"`) || !strings.Contains(resp.Body, `value="900"`) {
		t.Errorf("refused weight: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if !strings.Contains(resp.Body, `value="Nováková"`) || !strings.Contains(resp.Body, `value="Masarykova 5"`) {
		t.Error("the form lost what was typed")
	}
	recent, _ := env.App.DB.RecentShipments(context.Background(), 10)
	if len(recent) != 0 {
		t.Errorf("a refused order left %d rows", len(recent))
	}
}

func TestHostileInputIsShownAsText(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	evil := `<script>alert(1)</script>'; DROP TABLE shipments; --`
	_, full := order(t, b, with(form, "to_surname", evil, "reference", "R'1; DROP TABLE users"), "UPS")
	resp := b.PostForm("/shipping/new/order", full)
	if resp.StatusCode != 303 {
		t.Fatalf("hostile but valid text refused: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	page := b.Get(resp.Header.Get("Location")).Body
	if strings.Contains(page, "<script>alert(1)") || !strings.Contains(page, "&lt;script&gt;") {
		t.Error("the recipient's name is not escaped")
	}
	// Oversized, malformed and too many values get messages, and the server stays up.
	huge := strings.Repeat("x", 5000)
	bad := with(form, "to_city", huge, "pkg_weight", "1e400", "key", "not-a-key", "sender", "-1", "handover", "TELEPORT")
	bad["pkg_weight"] = append(bad["pkg_weight"], make([]string, 30)...)
	for i := range 30 {
		bad["pkg_weight"][i+1] = "1"
	}
	resp = b.PostForm("/shipping/new/compare", bad)
	if resp.StatusCode != 422 {
		t.Errorf("bad values: %d", resp.StatusCode)
	}
	for _, want := range []string{"At most 100 characters", "At most 20 packages", "Choose how the carrier gets the package"} {
		if !strings.Contains(resp.Body, want) {
			t.Errorf("no %q in %s", want, problemsOf(resp.Body))
		}
	}
	big := url.Values{"note": {strings.Repeat("y", 2<<20)}}
	if resp := b.PostForm("/shipping/new/compare", big); resp.StatusCode != 413 {
		t.Errorf("a 2 MiB form: %d", resp.StatusCode)
	}
	if resp := b.Get("/shipping"); resp.StatusCode != 200 {
		t.Errorf("after bad input the desk answers %d", resp.StatusCode)
	}
	if n := upstreamTotal(t, env); n != 1 {
		t.Errorf("service holds %d, want the one valid order", n)
	}
}

// place orders a shipment of a carrier through the pages and returns its page path.
func place(t testing.TB, b *apptest.Browser, form url.Values, carrier string) string {
	t.Helper()
	_, full := order(t, b, form, carrier)
	resp := b.PostForm("/shipping/new/order", full)
	if resp.StatusCode != 303 {
		t.Fatalf("order %s: %d %s", carrier, resp.StatusCode, problemsOf(resp.Body))
	}
	return resp.Header.Get("Location")
}

func TestLabelsPrintQueueAndStorno(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	first := place(t, b, form, "UPS")
	second := place(t, b, with(form, "key", requestkey.New()), "UPS")
	// Before export the label is pending: no label yet, a clear message.
	if resp := b.Get(first + "/label.pdf"); resp.StatusCode != 409 || !strings.Contains(resp.Body, "not ready yet") {
		t.Errorf("label while pending: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	env.Sandbox.Advance(10 * time.Minute) // exported, not yet picked up: the labels are to print
	for _, p := range []string{first, second} {
		if body := b.Get(p).Body; !strings.Contains(body, `data-testid="print-label"`) {
			t.Fatalf("%s: no print button after export: %s", p, problemsOf(body))
		}
	}
	resp := b.Get(first + "/label.pdf")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(resp.Body, "%PDF-") {
		t.Fatalf("label: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// The queue holds both; printing them is one PDF, made a label at a time
	// (one label call per shipment), so a long batch never holds every label.
	queue := b.Get("/shipping/print").Body
	ids := regexp.MustCompile(`name="ids" value="(\d+)"`).FindAllStringSubmatch(queue, -1)
	if len(ids) != 2 {
		t.Fatalf("queue has %d shipments", len(ids))
	}
	calls := countCalls(env, "shipments/label")
	resp = b.PostForm("/shipping/print", url.Values{"ids": {ids[0][1], ids[1][1]}})
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Body, "%PDF-") || countCalls(env, "shipments/label") != calls+2 {
		t.Fatalf("print selected: %d, %d label calls", resp.StatusCode, countCalls(env, "shipments/label")-calls)
	}
	if queue := b.Get("/shipping/print").Body; !strings.Contains(queue, "No labels waiting") {
		t.Error("printed labels stay in the queue")
	}
	if resp := b.PostForm("/shipping/print", url.Values{}); resp.StatusCode != 422 {
		t.Errorf("print nothing: %d", resp.StatusCode)
	}
	// The day's hand-over protocol lists both.
	if body := b.Get("/shipping/manifest").Body; !strings.Contains(body, "for 2 shipments") {
		t.Errorf("manifest page: %s", problemsOf(body))
	}
	if resp := b.Get("/shipping/manifest.pdf"); resp.StatusCode != 200 || !strings.HasPrefix(resp.Body, "%PDF-") {
		t.Errorf("manifest pdf: %d", resp.StatusCode)
	}
	// Storno needs the confirmation.
	third := place(t, b, with(form, "key", requestkey.New()), "UPS")
	b.PostForm(third+"/storno", url.Values{})
	if body := b.Get(third).Body; !strings.Contains(body, "Tick the confirmation") || strings.Contains(body, "was cancelled") {
		t.Error("storno without confirmation")
	}
	b.PostForm(third+"/storno", url.Values{"confirm": {"yes"}})
	if body := b.Get(third).Body; !strings.Contains(body, "was cancelled") {
		t.Errorf("storno: %s", problemsOf(body))
	}
	if resp := b.Get(third + "/label.pdf"); resp.StatusCode != 409 || !strings.Contains(resp.Body, "cancelled") {
		t.Errorf("label of a cancelled shipment: %d", resp.StatusCode)
	}
	// A shipment already on its way: the service's reason is shown (in the
	// reader's words: serviceerr.Known).
	env.Sandbox.Advance(24 * time.Hour)
	b.PostForm(second+"/storno", url.Values{"confirm": {"yes"}})
	if body := b.Get(second).Body; !strings.Contains(body, "can no longer be cancelled: it is") {
		t.Errorf("refused storno: %s", problemsOf(body))
	}
}

func TestCarrierAndFailedLabels(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	// PPL (the spec's G2) collects from an address with its own label: nothing to print, ever.
	carrier := place(t, b, form, "PPL")
	body := b.Get(carrier).Body
	// The page still follows the parcel (it moves), but never waits for a label.
	if !strings.Contains(body, "The courier brings the label") || strings.Contains(body, "print-label") || !strings.Contains(body, `data-step="carrier"`) {
		t.Errorf("CARRIER shipment page: %s", problemsOf(body))
	}
	if resp := b.Get(carrier + "/label.pdf"); resp.StatusCode != 409 || !strings.Contains(resp.Body, "courier brings the label") {
		t.Errorf("label of a CARRIER shipment: %d", resp.StatusCode)
	}
	// A carrier that gives no label: FAILED, contact support, no polling.
	env.Sandbox.Control("POST", "/sandbox/carriers/ups/behaviour", map[string]any{"fail_labels": true})
	env.Sandbox.Control("POST", "/sandbox/carriers/fedex/behaviour", map[string]any{"fail_labels": true})
	failed := place(t, b, with(form, "key", requestkey.New()), "UPS")
	env.Sandbox.Advance(10 * time.Minute) // before the courier's pickup
	body = b.Get(failed).Body
	if !strings.Contains(body, "contact the service") || !strings.Contains(body, `data-step="label_failed"`) || strings.Contains(body, "print-label") {
		t.Errorf("FAILED shipment page: %s", problemsOf(body))
	}
}

func TestSendAsDraft(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	resp := b.PostForm("/shipping/new/draft", with(form, "reference", "OBJ-77"))
	if resp.StatusCode != 303 || !strings.HasPrefix(resp.Header.Get("Location"), "/shipping/drafts/") {
		t.Fatalf("draft: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	body := b.Get(resp.Header.Get("Location")).Body
	for _, want := range []string{`data-testid="draft-id"`, "OBJ-77", "serviceId", "nothing is dispatched"} {
		if !strings.Contains(body, want) {
			t.Errorf("draft page lacks %q", want)
		}
	}
	// Missing recipient: the form says so before the service is asked.
	resp = b.PostForm("/shipping/new/draft", with(form, "to_surname", "", "to_firstname", ""))
	if resp.StatusCode != 422 || !strings.Contains(resp.Body, `id="to_surname-error"`) {
		t.Errorf("draft without recipient: %d", resp.StatusCode)
	}
	if n := upstreamTotal(t, env); n != 0 {
		t.Errorf("a draft created %d shipments", n)
	}
}

func TestShippingDeskRefusesOtherRoles(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	agent := env.SignedIn(identity.Agent)
	anon := env.NewBrowser()
	gets := []string{"/shipping", "/shipping/new", "/shipping/shipments/1", "/shipping/shipments/1/status", "/shipping/shipments/1/label.pdf",
		"/shipping/print", "/shipping/print/live", "/shipping/manifest", "/shipping/manifest.pdf", "/shipping/drafts/1", "/shipping/addresses"}
	posts := []string{"/shipping/new/compare", "/shipping/new/sort", "/shipping/new/choose", "/shipping/new/points", "/shipping/new/packages",
		"/shipping/new/preset", "/shipping/new/order", "/shipping/new/draft", "/shipping/points?for=delivery", "/shipping/shipments/1/storno", "/shipping/shipments/1/check",
		"/shipping/shipments/1/again", "/shipping/print", "/shipping/print/batches/1/reprint", "/shipping/senders", "/shipping/senders/import", "/shipping/senders/1/default",
		"/shipping/senders/1/delete", "/shipping/recipients/1/delete", "/shipping/presets", "/shipping/presets/1/delete",
		"/shipping/settings", "/shipping/settings/return-address", "/shipping/points/refresh"}
	for _, p := range gets {
		if r := agent.Get(p); r.StatusCode != 403 {
			t.Errorf("agent GET %s: %d", p, r.StatusCode)
		}
		if r := anon.Get(p); r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous GET %s: %d", p, r.StatusCode)
		}
	}
	for _, p := range posts {
		if r := agent.PostForm(p, url.Values{}); r.StatusCode != 403 {
			t.Errorf("agent POST %s: %d", p, r.StatusCode)
		}
		if r := anon.PostForm(p, url.Values{}); r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous POST %s: %d", p, r.StatusCode)
		}
	}
	if n := countCalls(env, "shipments/create") + countCalls(env, "contacts/list") + countCalls(env, "parcelpoints/list"); n != 0 {
		t.Errorf("refused requests reached the service %d times", n)
	}
	manager := env.SignedIn(identity.Manager)
	if r := manager.Get("/shipping/addresses"); r.StatusCode != 200 {
		t.Errorf("manager: %d", r.StatusCode)
	}
}

func TestAddressBookAndSettings(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	page := b.Get("/shipping/addresses").Body
	for _, want := range []string{"Sklad Praha", "stored at the service", "Malá krabice", "19-2000145399", "points cached"} {
		if !strings.Contains(page, want) {
			t.Errorf("address book lacks %q", want)
		}
	}
	// A sender without a street: refused, what was typed stays.
	resp := b.PostForm("/shipping/senders", url.Values{"label": {"Shop <b>Brno</b>"}, "city": {"Brno"}, "zip": {"602 00"}, "country": {"CZ"}, "phone": {"+420 777 000 111"}})
	if resp.StatusCode != 422 || !strings.Contains(resp.Body, `id="street-error"`) || !strings.Contains(resp.Body, "Shop &lt;b&gt;Brno&lt;/b&gt;") {
		t.Errorf("sender without street: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	resp = b.PostForm("/shipping/senders", url.Values{"label": {"Shop Brno"}, "street": {"Kounicova 1"}, "city": {"Brno"}, "zip": {"602 00"}, "country": {"CZ"}, "phone": {"+420 777 000 111"}})
	if resp.StatusCode != 303 || !strings.Contains(b.Get("/shipping/addresses").Body, "Kounicova 1") {
		t.Errorf("add sender: %d", resp.StatusCode)
	}
	// COD settings are checked like the service checks them.
	resp = b.PostForm("/shipping/settings", url.Values{"bank_account": {"19-2000145398"}, "bank_code": {"0800"}, "cod_currency": {"CZK"}})
	if resp.StatusCode != 422 || !strings.Contains(resp.Body, "modulo 11") {
		t.Errorf("bad account saved: %d", resp.StatusCode)
	}
	if s, _ := env.App.DB.Settings(context.Background()); s.BankAccount != "19-2000145399" {
		t.Errorf("a refused save changed the settings: %+v", s)
	}
	resp = b.PostForm("/shipping/settings", url.Values{"bank_account": {"CZ6508000000192000145399"}, "cod_currency": {"CZK"}, "bank_currency": {"czk"}})
	if resp.StatusCode != 303 {
		t.Errorf("IBAN settings: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if blank := b.Get("/shipping/new").Body; !strings.Contains(blank, "CZ6508000000192000145399") {
		t.Error("the new form is not prefilled with the COD account")
	}
	// Presets: a weight is required and must be a number.
	resp = b.PostForm("/shipping/presets", url.Values{"name": {"Crate"}, "weight": {"heavy"}})
	if resp.StatusCode != 422 || !strings.Contains(resp.Body, `id="weight-error"`) {
		t.Errorf("bad preset: %d", resp.StatusCode)
	}
	if resp = b.PostForm("/shipping/presets", url.Values{"name": {"Malá krabice"}, "weight": {"1"}}); resp.StatusCode != 303 {
		t.Errorf("duplicate preset: %d", resp.StatusCode)
	}
	if body := b.Get("/shipping/addresses").Body; !strings.Contains(body, "exists already") {
		t.Error("a duplicate preset name is not explained")
	}
}

func TestSavedRecipientAndPresetFillTheForm(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := with(shipmentForm(t, env), "save_recipient", "on")
	place(t, b, form, "UPS")
	recipients, err := env.App.DB.Recipients(context.Background())
	if err != nil || len(recipients) != 1 {
		t.Fatalf("saved recipients: %v %v", recipients, err)
	}
	blank := b.Get("/shipping/new?recipient=" + itoa(recipients[0].ID)).Body
	if !strings.Contains(blank, `value="Nováková"`) || !strings.Contains(blank, `value="Masarykova 5"`) {
		t.Error("the saved recipient does not fill the form")
	}
	presets, _ := env.App.DB.Presets(context.Background())
	resp := b.PostForm("/shipping/new/preset", with(form, "preset", itoa(presets[0].ID)))
	if resp.StatusCode != 200 || strings.Count(resp.Body, `name="pkg_weight"`) != 2 {
		t.Errorf("add preset: %d, %d rows", resp.StatusCode, strings.Count(resp.Body, `name="pkg_weight"`))
	}
}

func TestPointPickerAnswersAsTheClerkTypes(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := with(shipmentForm(t, env), "offer_service_id", "102", "offer_carrier", "ZASILKOVNA", "offer_delivery", "true")
	resp := b.PostForm("/shipping/points?for=delivery", with(form, "delivery_q", "brno"))
	if resp.StatusCode != 200 || !strings.Contains(resp.Body, `data-testid="delivery-points"`) {
		t.Fatalf("picker: %d", resp.StatusCode)
	}
	points := regexp.MustCompile(`name="delivery_branch" value="([^"]+)"`).FindAllStringSubmatch(resp.Body, -1)
	addresses := regexp.MustCompile(`<span>([^<]*)</span>\s*</span>`).FindAllStringSubmatch(resp.Body, -1)
	if len(points) == 0 || len(addresses) != len(points) {
		t.Fatalf("points for brno: %d, addresses %d", len(points), len(addresses))
	}
	for _, a := range addresses {
		if !strings.HasSuffix(a[1], " Brno") {
			t.Errorf("a point outside Brno: %q", a[1])
		}
	}
	// The service does not publish the points' size limits, so the picker
	// offers lockers to any package; the service checks the size on create
	// (the spec's rule 4) and its refusal lands on the form.
	big := with(shipmentForm(t, env), "handover", "ONDEMAND", "to_street", "", "pkg_length", "100", "pkg_width", "50", "pkg_height", "50")
	offers := b.PostForm("/shipping/new/compare", big)
	chosen := b.PostForm("/shipping/new/choose", with(big, "choose", offerOf(t, offers.Body, "Zásilkovna To Point")))
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(b.PostForm("/shipping/points?for=delivery", with(merge(big, hiddenFields(chosen.Body)), "delivery_q", "brno box")).Body))
	if err != nil {
		t.Fatal(err)
	}
	locker, ok := doc.Find(`[data-testid=delivery-points] label:has(.badge) input[name=delivery_branch]`).Attr("value")
	if !ok {
		t.Fatal("no locker in Brno to try")
	}
	refused := b.PostForm("/shipping/new/order", with(merge(big, hiddenFields(chosen.Body)), "delivery_branch", locker))
	if refused.StatusCode != 422 || !strings.Contains(refused.Body, "too big") {
		t.Errorf("a 100 cm package to a locker: %d %s", refused.StatusCode, problemsOf(refused.Body))
	}
	if resp := b.PostForm("/shipping/points?for=elsewhere", form); resp.StatusCode != 404 {
		t.Errorf("unknown picker: %d", resp.StatusCode)
	}
}

// When our record says READY but the service disagrees, its 404 and 400 become
// messages, and nothing breaks.
func TestLabelRefusalsFromTheService(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	carrier := place(t, b, form, "PPL") // CARRIER, exported: label 400
	env.Sandbox.Advance(20 * time.Minute)
	pending := place(t, b, with(form, "key", requestkey.New()), "UPS") // still CREATED at the service: label 404
	ctx := context.Background()
	for _, p := range []string{pending, carrier} {
		id, _ := strconv.ParseInt(p[strings.LastIndex(p, "/")+1:], 10, 64)
		s, err := env.App.DB.ShipmentByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		stale := storage.Reply{Status: "EXPORTED", LabelMode: "PRINT", LabelStatus: "READY", Packages: s.Packages}
		if err := env.App.DB.RecordState(ctx, id, stale, env.App.Upstream.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if resp := b.Get(pending + "/label.pdf"); resp.StatusCode != 404 || !strings.Contains(resp.Body, "does not know this shipment") {
		t.Errorf("label the service does not have yet: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if resp := b.Get(carrier + "/label.pdf"); resp.StatusCode != 422 || !strings.Contains(resp.Body, "Could not download the label") {
		t.Errorf("label the service refuses: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
}
