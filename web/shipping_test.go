package web_test

import (
	"context"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/desk"
	"shipdesk/identity"
)

// desk starts a dashboard with the demo shipping data and the points cached.
func deskEnv(t *testing.T) (*apptest.Env, *apptest.Browser) {
	t.Helper()
	env := apptest.Start(t)
	ctx := context.Background()
	if err := env.App.Desk.SeedDemo(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := env.App.Desk.RefreshPoints(ctx); err != nil || n < 1000 {
		t.Fatalf("refresh points: %d %v", n, err)
	}
	return env, env.SignedIn(identity.Clerk)
}

// shipmentForm is a complete form for a parcel from the demo sender to Brno.
func shipmentForm(t *testing.T, env *apptest.Env) url.Values {
	t.Helper()
	senders, err := env.App.DB.Senders(context.Background())
	if err != nil || len(senders) == 0 {
		t.Fatalf("senders: %v", err)
	}
	return url.Values{
		"key": {desk.NewKey()}, "sender": {itoa(senders[0].ID)}, "handover": {"ONDEMAND"},
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

var offerRow = regexp.MustCompile(`(?s)<tr[^>]*data-service="(\d+)"[^>]*>\s*<td>(G\d) · ([a-z0-9]+)</td>(.*?)</tr>`)

// offerOf finds the service id of a selectable offer of a carrier group.
func offerOf(t *testing.T, body, group string) string {
	t.Helper()
	for _, m := range offerRow.FindAllStringSubmatch(body, -1) {
		if m[2] == group && strings.Contains(m[4], `name="choose"`) {
			return m[1]
		}
	}
	t.Fatalf("no selectable %s offer in:\n%s", group, body)
	return ""
}

func TestCompareOffersAndOrder(t *testing.T) {
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	resp := b.PostForm("/shipping/new", with(form, "action", "compare"))
	if resp.StatusCode != 200 || !strings.Contains(resp.Body, `data-testid="offers"`) {
		t.Fatalf("compare: %d %s", resp.StatusCode, resp.Body)
	}
	for _, want := range []string{"you print the label", "the courier brings the label", "With VAT"} {
		if !strings.Contains(resp.Body, want) {
			t.Errorf("offers lack %q", want)
		}
	}
	id := offerOf(t, resp.Body, "G3")
	resp = b.PostForm("/shipping/new", with(form, "choose", id))
	if resp.StatusCode != 200 || !strings.Contains(resp.Body, `data-testid="chosen"`) {
		t.Fatalf("choose: %d %s", resp.StatusCode, resp.Body)
	}
	hidden := hiddenFields(resp.Body)
	resp = b.PostForm("/shipping/new", with(merge(form, hidden), "action", "create"))
	if resp.StatusCode != 303 || !strings.HasPrefix(resp.Header.Get("Location"), "/shipping/shipments/") {
		t.Fatalf("create: %d %s", resp.StatusCode, resp.Body)
	}
	page := b.Get(resp.Header.Get("Location")).Body
	if !strings.Contains(page, "Nováková") || !strings.Contains(page, "PENDING") {
		t.Errorf("shipment page: %s", page)
	}
}

var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)"`)

func hiddenFields(body string) url.Values {
	v := url.Values{}
	for _, m := range hiddenInput.FindAllStringSubmatch(body, -1) {
		v.Set(m[1], htmlUnescape(m[2]))
	}
	return v
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&#34;", `"`, "&#39;", "'", "&lt;", "<", "&gt;", ">").Replace(s)
}

func merge(a, b url.Values) url.Values {
	out := with(a)
	for k, v := range b {
		out[k] = v
	}
	return out
}
