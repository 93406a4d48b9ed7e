package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/identity"
	"shipdesk/sandbox/sandboxtest"

	"github.com/PuerkitoBio/goquery"
)

// The test sandbox's clock stands on Monday 2026-11-23 09:00, so the form
// proposes Tuesday 2026-11-24.

// serviceClient asks the sandbox directly, to see what the dashboard did there.
func serviceClient(t *testing.T, env *apptest.Env) *shipping.Client {
	t.Helper()
	c, err := shipping.New(transport.Config{BaseURL: env.Sandbox.URL, APIKey: sandboxtest.ShippingKey, Timeout: 5 * time.Second,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func servicePickups(t *testing.T, env *apptest.Env) []shipping.Pickup {
	t.Helper()
	list, err := serviceClient(t, env).Pickups(context.Background(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	return list
}

var keyInput = regexp.MustCompile(`name="key" value="([0-9a-f-]+)"`)

// pickupForm is the page's blank form, filled in for the default address.
func pickupForm(t *testing.T, b *apptest.Browser) url.Values {
	t.Helper()
	page := b.Get("/shipping/pickups")
	m := keyInput.FindStringSubmatch(page.Body)
	if page.StatusCode != 200 || m == nil {
		t.Fatalf("pickups page: %d %s", page.StatusCode, problemsOf(page.Body))
	}
	if !strings.Contains(page.Body, `value="`+sandboxtest.Day(1)+`"`) {
		t.Errorf("the date does not default to the next working day")
	}
	return url.Values{"key": {m[1]}, "address": {"1"}, "date": {sandboxtest.Day(1)}, "time_from": {"09:00"}, "time_to": {"12:00"},
		"packages": {"2"}, "weight": {"8,5"}, "note": {"Ring twice"}}
}

// fieldError is the message shown under a field, "" when none.
func fieldError(body, field string) string {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(doc.Find("#" + field + "-error").Text())
}

func TestClerkOrdersPickup(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	b := env.SignedIn(identity.Clerk)
	resp := b.PostForm("/shipping/pickups", pickupForm(t, b))
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/shipping/pickups" {
		t.Fatalf("order: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	list := servicePickups(t, env)
	if len(list) != 1 || list[0].Date != sandboxtest.Day(1) || list[0].Packages != 2 || list[0].Weight != 8.5 || list[0].Note != "Ring twice" {
		t.Fatalf("the service has %+v", list)
	}
	page := b.Get("/shipping/pickups").Body
	for _, want := range []string{"Courier pickup " + list[0].Number + " ordered", sandboxtest.Epoch.AddDate(0, 0, 1).Format("Monday 2 January 2006"), "tomorrow", "09:00–12:00", "8.5\u00a0kg", "Skladová 12"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if got, _ := env.App.DB.PickupsFrom(context.Background(), sandboxtest.Epoch.Truncate(24*time.Hour), 10); len(got) != 1 || got[0].State != "ordered" || got[0].Number != list[0].Number {
		t.Errorf("recorded %+v", got)
	}
}

func TestDoubleSubmitOrdersOnce(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	b := env.SignedIn(identity.Clerk)
	form := pickupForm(t, b)
	var wg sync.WaitGroup
	codes := make([]int, 3)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = b.PostForm("/shipping/pickups", form).StatusCode
		}()
	}
	wg.Wait()
	if again := b.PostForm("/shipping/pickups", form); again.StatusCode != 303 {
		t.Errorf("repeated post: %d %s", again.StatusCode, problemsOf(again.Body))
	}
	if n := len(servicePickups(t, env)); n != 1 {
		t.Errorf("%d pickups ordered by one form (answers %v)", n, codes)
	}
}

func TestPickupRefusalsNextToFields(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	b := env.SignedIn(identity.Clerk)
	form := pickupForm(t, b)
	cases := []struct {
		name, field, want string
		change            []string
	}{
		{"Weekend", "date", "weekends", []string{"date", sandboxtest.Day(5)}},
		{"PastDate", "date", "in the past", []string{"date", sandboxtest.Day(-3)}},
		{"ServiceLimit", "date", "30 days", []string{"date", sandboxtest.Day(31)}},
		{"ShortWindow", "time_to", "2 hours", []string{"time_to", "10:00"}},
		{"UnknownAddress", "address", "no such pickup address", []string{"address", "9999"}},
		{"PointOnlyCarrier", "carrier", "does not collect", []string{"carrier", "balikovna"}},
		{"NoPackages", "packages", "whole number", []string{"packages", "0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := b.PostForm("/shipping/pickups", with(form, c.change...))
			if resp.StatusCode != 422 || !strings.Contains(fieldError(resp.Body, c.field), c.want) {
				t.Fatalf("%d, want 422 with %q at %s: %s", resp.StatusCode, c.want, c.field, problemsOf(resp.Body))
			}
			if !strings.Contains(resp.Body, `value="Ring twice"`) || !strings.Contains(resp.Body, `value="`+form.Get("key")+`"`) {
				t.Error("the form lost what was typed")
			}
		})
	}
	if n := len(servicePickups(t, env)); n != 0 {
		t.Errorf("%d pickups ordered by refused forms", n)
	}
	// The same form, corrected, goes through once.
	if resp := b.PostForm("/shipping/pickups", form); resp.StatusCode != 303 || len(servicePickups(t, env)) != 1 {
		t.Errorf("corrected form: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
}

func TestHostilePickupInput(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	b := env.SignedIn(identity.Clerk)
	form := pickupForm(t, b)
	cases := []struct {
		name, field string
		change      []string
	}{
		{"NUL", "note", []string{"note", "a\x00b"}},
		{"InvalidUTF8", "carrier", []string{"carrier", "G\xff\xfe"}},
		{"NaNWeight", "weight", []string{"weight", "NaN"}},
		{"InfWeight", "weight", []string{"weight", "Inf"}},
		{"HugePackages", "packages", []string{"packages", "1e9"}},
		{"LongNote", "note", []string{"note", strings.Repeat("x", 300)}},
		{"BadKey", "form", []string{"key", "../../etc"}},
		{"ScriptAddress", "address", []string{"address", "<script>"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := b.PostForm("/shipping/pickups", with(form, c.change...))
			if resp.StatusCode != 422 || fieldError(resp.Body, c.field) == "" {
				t.Errorf("%d, want 422 with a message at %s: %s", resp.StatusCode, c.field, problemsOf(resp.Body))
			}
		})
	}
	if resp := b.PostForm("/shipping/pickups", with(form, "note", strings.Repeat("y", 100<<10))); resp.StatusCode != 413 || !strings.Contains(resp.Body, "too large") {
		t.Errorf("100 kB note: %d", resp.StatusCode)
	}
	if resp := b.PostForm("/shipping/contacts", url.Values{"contact_street": {strings.Repeat("z", 100<<10)}}); resp.StatusCode != 413 {
		t.Errorf("100 kB street: %d", resp.StatusCode)
	}
	if resp := b.PostForm("/shipping/contacts", url.Values{"contact_city": {"Br\x00no"}, "contact_zip": {"\xff"}}); resp.StatusCode != 422 ||
		fieldError(resp.Body, "contact_city") == "" || fieldError(resp.Body, "contact_zip") == "" {
		t.Errorf("NUL and broken UTF-8 in an address: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if n := len(servicePickups(t, env)); n != 0 {
		t.Errorf("%d pickups ordered by hostile forms", n)
	}
}

func TestPickupLostAnswerIsCheckedBeforeOrderingAgain(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	b := env.SignedIn(identity.Clerk)
	// The answer is lost after the service ordered it: the check finds it.
	env.Sandbox.Fault("/api/v1/pickups/add", map[string]any{"drop_after_rate": 1, "count": 1})
	if resp := b.PostForm("/shipping/pickups", pickupForm(t, b)); resp.StatusCode != 303 {
		t.Fatalf("lost answer: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if page := b.Get("/shipping/pickups").Body; !strings.Contains(page, "PU00000001") || strings.Contains(page, "Order again") {
		t.Errorf("a pickup whose answer was lost is not shown as ordered: %s", problemsOf(page))
	}
	// The service fails before ordering: the check finds nothing, and says so
	// only after the attempt's deadline (the service might still order it);
	// only then may the clerk order again.
	env.Sandbox.Fault("/api/v1/pickups/add", map[string]any{"error_rate": 1, "count": 1})
	form := with(pickupForm(t, b), "time_from", "13:00", "time_to", "16:00")
	if resp := b.PostForm("/shipping/pickups", form); resp.StatusCode != 303 {
		t.Fatalf("503: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	page := b.Get("/shipping/pickups").Body
	check := regexp.MustCompile(`action="(/shipping/pickups/\d+/check)"`).FindStringSubmatch(page)
	if check == nil || strings.Contains(page, "/again") {
		t.Fatalf("before its deadline the pickup may be ordered again, or cannot be checked: %s", problemsOf(page))
	}
	env.Sandbox.Advance(5 * time.Minute) // past the call's limit and the settle window
	if resp := b.PostForm(check[1], url.Values{}); resp.StatusCode != 303 {
		t.Fatalf("check: %d", resp.StatusCode)
	}
	page = b.Get("/shipping/pickups").Body
	m := regexp.MustCompile(`action="/shipping/pickups/(\d+)/again"`).FindStringSubmatch(page)
	if m == nil || !strings.Contains(page, "not ordered") {
		t.Fatalf("no Order again after the service said it has no such pickup: %s", problemsOf(page))
	}
	if resp := b.PostForm("/shipping/pickups/"+m[1]+"/again", url.Values{}); resp.StatusCode != 303 {
		t.Fatalf("order again: %d", resp.StatusCode)
	}
	if n := len(servicePickups(t, env)); n != 2 {
		t.Errorf("%d pickups at the service, want 2", n)
	}
	if resp := b.PostForm("/shipping/pickups/"+m[1]+"/again", url.Values{}); resp.StatusCode != 303 || len(servicePickups(t, env)) != 2 {
		t.Errorf("an ordered pickup was ordered again")
	}
}

func TestPickupRoutesRefuseAgentsAndAnonymous(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	agent := env.SignedIn(identity.Agent)
	anon := env.NewBrowser()
	for _, p := range []string{"/shipping/pickups", "/shipping/pickups?past=1"} {
		if r := agent.Get(p); r.StatusCode != 403 {
			t.Errorf("agent GET %s: %d", p, r.StatusCode)
		}
		if r := anon.Get(p); r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous GET %s: %d", p, r.StatusCode)
		}
	}
	for _, p := range []string{"/shipping/pickups", "/shipping/pickups/1/check", "/shipping/pickups/1/again", "/shipping/contacts"} {
		if r := agent.PostForm(p, url.Values{}); r.StatusCode != 403 {
			t.Errorf("agent POST %s: %d", p, r.StatusCode)
		}
		if r := anon.PostForm(p, url.Values{}); r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous POST %s: %d", p, r.StatusCode)
		}
	}
	manager := env.SignedIn(identity.Manager)
	if r := manager.Get("/shipping/pickups?past=1"); r.StatusCode != 200 || !strings.Contains(r.Body, "Past pickups") {
		t.Errorf("manager: %d", r.StatusCode)
	}
}

func TestAddressBookAddsPickupAddressToTheService(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	b := env.SignedIn(identity.Clerk)
	form := url.Values{"contact_company": {"Sklad Ostrava s.r.o."}, "contact_surname": {"Nová"}, "contact_street": {"Nádražní 7"},
		"contact_city": {"Ostrava"}, "contact_zip": {"702 00"}, "contact_country": {"CZ"}, "contact_phone": {"+420 601 000 009"}}
	bad := with(form, "contact_zip", "70")
	if resp := b.PostForm("/shipping/contacts", bad); resp.StatusCode != 422 || fieldError(resp.Body, "contact_zip") == "" || !strings.Contains(resp.Body, `value="Nádražní 7"`) {
		t.Errorf("bad zip: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	resp := b.PostForm("/shipping/contacts", form)
	if resp.StatusCode != 303 {
		t.Fatalf("add: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	contacts, err := serviceClient(t, env).Contacts(context.Background())
	if err != nil || len(contacts) != 3 || contacts[2].City != "Ostrava" {
		t.Fatalf("the service has %+v %v", contacts, err)
	}
	book := b.Get("/shipping/addresses").Body
	if !strings.Contains(book, "Sklad Ostrava s.r.o.") || !strings.Contains(book, "stored at the service") || !strings.Contains(book, "stored at the service.") {
		t.Errorf("the local list does not show the new address: %s", problemsOf(book))
	}
	// It is a pickup address at once.
	pickups := b.Get("/shipping/pickups").Body
	if !strings.Contains(pickups, "Sklad Ostrava s.r.o., Nádražní 7") {
		t.Error("the new address is not offered for pickups")
	}
}
