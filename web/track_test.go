package web_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"shipdesk/mailcatch"
	"strings"
	"sync"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/shopid"
	"shipdesk/storage"
	"shipdesk/views"
)

// trackedToPoint orders a shipment to the first parcel point of Brno with
// cash on delivery and an internal note, and a second one to an address,
// and moves the sandbox on until both are delivered. It returns the first
// shipment, its token, the point's name and the second shipment.
func trackedToPoint(t *testing.T, env *apptest.Env, b *apptest.Browser) (storage.Shipment, string, string, storage.Shipment) {
	t.Helper()
	ctx := context.Background()
	form := with(shipmentForm(t, env), "cod", "on", "cod_value", "1250", "cod_currency", "CZK",
		"cod_bank_account", "19-2000145399", "cod_bank_code", "0800")
	resp := b.PostForm("/shipping/new/compare", form)
	chosen := b.PostForm("/shipping/new/choose", with(form, "choose", offerOf(t, resp.Body, "Zásilkovna To Point")))
	full := merge(form, hiddenFields(chosen.Body))
	d := page(t, b.PostForm("/shipping/points?for=delivery", with(full, "delivery_q", "Brno")).Body)
	code := d.Find(`input[name=delivery_branch]`).First().AttrOr("value", "")
	name := strings.TrimSpace(d.Find(`.point-text strong`).First().Contents().First().Text())
	placed := b.PostForm("/shipping/new/order", with(full, "delivery_branch", code))
	if placed.StatusCode != http.StatusSeeOther {
		t.Fatalf("order to point %s: %d %s", code, placed.StatusCode, problemsOf(placed.Body))
	}
	loc := placed.Header.Get("Location")
	if r := b.PostForm(loc+"/notes", url.Values{"key": {requestkey.New()}, "note_text": {"Zákazník je nepříjemný"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("note: %d", r.StatusCode)
	}
	_, other := order(t, b, with(shipmentForm(t, env), "key", requestkey.New(), "to_firstname", "Petr", "to_surname", "Svoboda",
		"reference", "OTHER-7"), "PPL")
	if r := b.PostForm("/shipping/new/order", other); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("second order: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	env.LabelsFetched()
	env.Sandbox.Advance(2 * time.Hour)
	env.App.Jobs.Cycle(ctx)
	s, err := env.App.DB.ShipmentByID(ctx, lastID(t, loc))
	if err != nil || s.DeliveredAt == nil {
		t.Fatalf("the shipment to the point is not delivered: %q %v", s.Status, err)
	}
	token, err := env.App.DB.TrackToken(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	second, err := env.App.DB.ShipmentByReference(ctx, "OTHER-7")
	if err != nil {
		t.Fatal(err)
	}
	return s, token, name, second
}

func lastID(t *testing.T, path string) int64 {
	t.Helper()
	m := regexp.MustCompile(`/(\d+)$`).FindStringSubmatch(path)
	if m == nil {
		t.Fatalf("no id in %q", path)
	}
	var id int64
	for _, c := range m[1] {
		id = id*10 + int64(c-'0')
	}
	return id
}

// The tracking page shows its shipment to whoever has the token, and only
// it: the state in the staff page's words, the carrier's events, the point;
// no price, cash on delivery, note, sender or other shipment. It needs no
// cookie and sets none, is kept by no cache and sends no referrer; the
// staff page offers its link; text the service sent is shown as text.
func TestTrackingPageShowsItsShipmentAndNothingMore(t *testing.T) {
	t.Parallel()
	env, clerk := deskEnv(t)
	ctx := context.Background()
	s, token, pointName, other := trackedToPoint(t, env, clerk)
	if _, err := env.App.DB.SQL().ExecContext(ctx, `INSERT INTO tracking_events (shipment_id, package_index, occurred, status, name, location)
VALUES ($1, 0, $2, 'DELIVERED', '<script>alert(1)</script>', '<img src=x onerror=alert(2)>')`, s.ID, s.DeliveredAt.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	staff := page(t, clerk.Get("/shipping/shipments/"+itoa(s.ID)).Body)
	link := staff.Find(`#track-link`).AttrOr("value", "")
	if !strings.HasPrefix(link, "http") || !strings.HasSuffix(link, "/track/"+token) {
		t.Errorf("the staff page's link %q, want one ending in /track/<token>", link)
	}
	if staff.Find(`[data-copy=track-link]`).Length() != 1 {
		t.Error("the staff page has no button to copy the link")
	}
	wantState, _ := views.ShipmentState(i18n.WithLang(ctx, i18n.Czech), views.ShipmentRow{State: s.State, Status: s.Status})
	anon := env.NewBrowser()
	req, _ := http.NewRequest(http.MethodGet, env.URL+"/track/"+token, nil)
	req.Header.Set("Accept-Language", "cs-CZ,cs;q=0.9")
	resp := anon.Do(req)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the tracking page: %d", resp.StatusCode)
	}
	if got := resp.Header.Get("Referrer-Policy"); got != "no-referrer" {
		t.Errorf("Referrer-Policy %q", got)
	}
	if got := resp.Header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control %q", got)
	}
	if c := resp.Header.Values("Set-Cookie"); len(c) > 0 {
		t.Errorf("the tracking page sets cookies: %v", c)
	}
	doc := page(t, resp.Body)
	if got := strings.TrimSpace(doc.Find(`[data-testid=track-state]`).Text()); got != wantState || wantState == "" {
		t.Errorf("the page's state %q, the staff page's words %q", got, wantState)
	}
	if got := doc.Find(`[data-testid=track-point]`).Text(); !strings.Contains(got, pointName) || !strings.Contains(got, "Brno") {
		t.Errorf("the point %q, want %q in Brno", strings.Join(strings.Fields(got), " "), pointName)
	}
	timeline := doc.Find(`[data-testid=track-timeline] li`)
	if timeline.Length() < 3 {
		t.Errorf("%d events on the timeline", timeline.Length())
	}
	if !strings.Contains(doc.Find(`[data-testid=track-timeline]`).Text(), "Doručeno") {
		t.Error("the timeline lacks the carrier's delivery")
	}
	if strings.Contains(resp.Body, "<script>alert") || strings.Contains(resp.Body, "<img src=x") || !strings.Contains(resp.Body, "&lt;script&gt;") {
		t.Error("text from the service is not escaped")
	}
	claim := doc.Find(`[data-testid=track-claim]`).AttrOr("href", "")
	if claim != "/claim?reference="+s.Tracking() {
		t.Errorf("the claim link %q", claim)
	}
	if v := page(t, anon.Get(claim).Body).Find(`input[name=reference]`).AttrOr("value", ""); v != s.Tracking() {
		t.Errorf("the claim page's reference is %q, want %q", v, s.Tracking())
	}
	for _, never := range []string{"1 250", "1250", "Kč", "nepříjemný", other.Tracking(), "OTHER-7", "Svoboda", "EXPORTED", "DELIVERED"} {
		if strings.Contains(doc.Find("body").Text(), never) {
			t.Errorf("the tracking page shows %q", never)
		}
	}
	senders, _ := env.App.DB.Senders(ctx)
	if p := senders[0].Address.Person(); p != "" && strings.Contains(resp.Body, p) {
		t.Errorf("the tracking page names the sender's person %q", p)
	}
	if got := strings.TrimSpace(doc.Find(`[data-testid=shop-name]`).Text()); got != "Kávovary Říčany" {
		t.Errorf("the page is in the name of %q", got)
	}
	en, _ := http.NewRequest(http.MethodGet, env.URL+"/track/"+token, nil)
	en.Header.Set("Accept-Language", "en-GB,en;q=0.8")
	if body := anon.Do(en).Body; !strings.Contains(body, "Your parcel") {
		t.Error("the page is not in English for an English browser")
	}
}

// A token of another shape, one of no shipment and paths around the page
// are answered alike: one status, one page (the path aside), no cookie; the
// token is never written to the request log.
func TestTrackingPageAnswersEveryWrongTokenAlike(t *testing.T) {
	t.Parallel()
	var log syncBuffer
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true, Log: &log})
	env.SeedDesk()
	ctx := context.Background()
	env.App.Desk.SeedDemoOrders(ctx) //nolint:errcheck // checked below
	var real string
	if err := env.App.DB.SQL().QueryRowContext(ctx, `SELECT track_token FROM shipments WHERE reference = 'DEMO-1'`).Scan(&real); err != nil {
		t.Fatal(err)
	}
	wrong := []string{strings.Repeat("a", 64), real[:63] + "x", strings.ToUpper(real), real[:40], "%3Cscript%3E",
		real + "0", real + "/", real + "/x"}
	anon := env.NewBrowser()
	var bodies []string
	for _, w := range wrong {
		r := anon.Get("/track/" + w)
		if r.StatusCode != http.StatusNotFound {
			t.Errorf("/track/%s: %d", w, r.StatusCode)
		}
		if c := r.Header.Values("Set-Cookie"); len(c) > 0 {
			t.Errorf("/track/%s sets cookies", w)
		}
		if r.Header.Get("Cache-Control") != "no-store" || r.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("/track/%s: Cache-Control %q, Referrer-Policy %q", w, r.Header.Get("Cache-Control"), r.Header.Get("Referrer-Policy"))
		}
		bodies = append(bodies, pathless(r.Body))
	}
	for i, b := range bodies {
		if b != bodies[0] {
			t.Errorf("/track/%s answers otherwise than /track/%s:\n%s\n---\n%s", wrong[i], wrong[0], b, bodies[0])
		}
	}
	if r := anon.Get("/track/" + real); r.StatusCode != http.StatusOK {
		t.Errorf("the real token: %d", r.StatusCode)
	}
	if strings.Contains(log.String(), real) || strings.Contains(log.String(), real[:40]) {
		t.Error("a token is in the log")
	}
	if !strings.Contains(log.String(), "/track/:token") {
		t.Error("the log has no redacted tracking page line")
	}
}

// pathless is a page without the paths it carries (the language switch
// returns to the page asked for).
func pathless(body string) string {
	return regexp.MustCompile(`value="/track/[^"]*"`).ReplaceAllString(body, `value=""`)
}

// syncBuffer is a log many requests write at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// One client asking for pages that do not exist is refused after its
// misses (counted in the database, whatever the token's shape), and a flood
// is turned away in memory after its burst; every refusal says Retry-After.
func TestTrackingPageThrottlesGuessesAndFloods(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	anon := env.NewBrowser()
	codes := map[int]int{}
	for i := 0; i < desk.TrackMisses.Hits+3; i++ {
		r := anon.Get("/track/" + strings.Repeat(string(rune('a'+i%6)), 64))
		codes[r.StatusCode]++
		if r.StatusCode == http.StatusTooManyRequests && r.Header.Get("Retry-After") == "" {
			t.Error("a refusal without Retry-After")
		}
	}
	if codes[http.StatusNotFound] != desk.TrackMisses.Hits || codes[http.StatusTooManyRequests] != 3 {
		t.Errorf("answers to %d misses: %v", desk.TrackMisses.Hits+3, codes)
	}
	flood := apptest.StartOptions(t, apptest.Options{PublicBurst: 5, PublicEvery: time.Hour})
	b := flood.NewBrowser()
	refused := 0
	for i := 0; i < 15; i++ {
		if r := b.Get("/track/" + strings.Repeat("b", 64)); r.StatusCode == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused < 10 {
		t.Errorf("%d of 15 requests refused with a burst of 5", refused)
	}
}

// The shop's identity is the managers': others are refused, anonymous
// visitors sent to sign in. What a manager saves is checked, and shows on
// the customers' pages with the logo, which is served cacheable.
func TestShopIdentitySettings(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	form := url.Values{"name": {"Kávovary Říčany"}, "web": {"https://www.example.cz"}, "reply_email": {"obchod@example.cz"},
		"phone": {"+420 601 000 222"}}
	for _, role := range []identity.Role{identity.Clerk, identity.Agent} {
		b := env.SignedIn(role)
		if r := b.Get("/settings/shop"); r.StatusCode != http.StatusForbidden {
			t.Errorf("%s reads the settings: %d", role, r.StatusCode)
		}
		if r := b.PostForm("/settings/shop", form); r.StatusCode != http.StatusForbidden {
			t.Errorf("%s saves the settings: %d", role, r.StatusCode)
		}
		if r := b.PostForm("/settings/shop/logo/remove", url.Values{}); r.StatusCode != http.StatusForbidden {
			t.Errorf("%s removes the logo: %d", role, r.StatusCode)
		}
	}
	anon := env.NewBrowser()
	for _, p := range []string{"/settings/shop", "/settings/shop/logo"} {
		if r := anon.PostForm(p, form); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous post to %s: %d %s", p, r.StatusCode, r.Header.Get("Location"))
		}
	}
	if r := anon.Get("/settings/shop"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("anonymous read: %d", r.StatusCode)
	}
	manager := env.SignedIn(identity.Manager)
	bad := manager.PostForm("/settings/shop", with(form, "web", "javascript:alert(1)", "reply_email", "a@b.cz, c@d.cz"))
	if bad.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(bad.Body, "javascript:alert(1)") {
		t.Errorf("a bad web and e-mail: %d", bad.StatusCode)
	}
	doc := page(t, bad.Body)
	if doc.Find(`.has-error`).Length() != 2 {
		t.Errorf("%d fields marked, want the web and the e-mail", doc.Find(`.has-error`).Length())
	}
	if id, _ := env.App.DB.ShopIdentity(context.Background()); id.Name != "" {
		t.Errorf("a refused form stored %q", id.Name)
	}
	if r := manager.PostForm("/settings/shop", form); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	if r := postLogo(t, env, manager, "logo.pdf", []byte("%PDF-1.4\n%%EOF\n")); r.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a PDF as the logo: %d", r.StatusCode)
	}
	if r := anon.Get("/shop/logo"); r.StatusCode != http.StatusNotFound {
		t.Errorf("no logo yet: %d", r.StatusCode)
	}
	if r := postLogo(t, env, manager, "logo.png", pngLogo(t)); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the logo: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	logo := anon.Get("/shop/logo")
	if logo.StatusCode != http.StatusOK || logo.Header.Get("Content-Type") != "image/png" || !strings.Contains(logo.Header.Get("Cache-Control"), "max-age") {
		t.Errorf("the logo: %d %q %q", logo.StatusCode, logo.Header.Get("Content-Type"), logo.Header.Get("Cache-Control"))
	}
	if _, err := png.Decode(strings.NewReader(logo.Body)); err != nil {
		t.Errorf("the logo served is no PNG: %v", err)
	}
	claimPage := page(t, anon.Get("/claim").Body)
	if got := strings.TrimSpace(claimPage.Find(`[data-testid=shop-name]`).Text()); got != "Kávovary Říčany" {
		t.Errorf("the claim page is in the name of %q", got)
	}
	if claimPage.Find(`img.shop-logo[src="/shop/logo"]`).Length() != 1 {
		t.Error("the claim page shows no logo")
	}
}

func postLogo(t *testing.T, env *apptest.Env, b *apptest.Browser, name string, data []byte) apptest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("logo", name)
	_, _ = fw.Write(data)
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, env.URL+"/settings/shop/logo", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", env.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	return b.Do(req)
}

func pngLogo(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 80, 40))
	for x := 0; x < 80; x++ {
		for y := 0; y < 40; y++ {
			img.Set(x, y, color.RGBA{R: uint8(x * 3), G: 90, B: 40, A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A customer's mail comes from the shop: its name as the sender's, its
// reply address as Reply-To, and the one signature with its name, web and
// phone, as the mail catcher receives it; nothing of the warehouse.
func TestCustomerMailIsTheShops(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	shop := storage.ShopIdentity{Name: "Kávovary \"Říčany\"", Web: "https://www.example.cz", ReplyEmail: "obchod@example.cz",
		Phone: "+420 601 000 222"}
	if err := env.App.DB.SaveShopIdentity(ctx, shop); err != nil {
		t.Fatal(err)
	}
	if _, path := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz"); path == "" {
		t.Fatal("no link mail")
	}
	if _, err := env.App.Outbox.SendDue(ctx); err != nil {
		t.Fatal(err)
	}
	var caught []mailcatch.Caught // the link's mail (the delivered demo parcel mails its recipient too)
	for _, m := range env.App.Catcher.All() {
		if strings.Contains(m.To, "jana@example.cz") && strings.Contains(m.Subject, "DEMO-1") {
			caught = append(caught, m)
		}
	}
	if len(caught) != 1 {
		t.Fatalf("%d mails caught for the customer", len(caught))
	}
	m := caught[0]
	if !strings.Contains(m.From, `Kávovary "Říčany"`) || strings.Contains(m.From, "shipdesk <") {
		t.Errorf("From %q", m.From)
	}
	if !strings.Contains(m.ReplyTo, "obchod@example.cz") {
		t.Errorf("Reply-To %q", m.ReplyTo)
	}
	lang, _ := i18n.Parse(claimMails(t, env, "claim-link")[0].Lang)
	sign := shopid.Signature(i18n.WithLang(ctx, lang), shop)
	if !strings.Contains(sign, "https://www.example.cz") || !strings.Contains(sign, "+420 601 000 222") {
		t.Errorf("the signature %q lacks the web or the phone", sign)
	}
	if text := strings.ReplaceAll(m.Text, "\r\n", "\n"); !strings.HasSuffix(strings.TrimSpace(text), sign) || strings.Count(text, sign) != 1 ||
		strings.Contains(text, "zákaznický servis") || strings.Contains(text, "customer service") || strings.Contains(text, "Sklad") {
		t.Errorf("the mail's text:\n%s", text)
	}
}
