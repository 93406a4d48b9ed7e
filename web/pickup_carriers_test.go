package web_test

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/sandbox/sandboxtest"
)

// carrierOptions are the carrier select's options: value and label.
func carrierOptions(doc *goquery.Document) [][2]string {
	var out [][2]string
	doc.Find(`select#carrier option`).Each(func(_ int, o *goquery.Selection) {
		out = append(out, [2]string{o.AttrOr("value", ""), strings.TrimSpace(o.Text())})
	})
	return out
}

func hasOption(opts [][2]string, value string) bool {
	return slices.ContainsFunc(opts, func(o [2]string) bool { return o[0] == value })
}

// The pickup form's carrier is chosen by name from the carriers that collect
// from the chosen stored address (the service's offers from there), with
// "any carrier" first; the server takes only those. A carrier typed by hand,
// one that collects from no address, or one that does not serve the
// address's country is refused on the field, and nothing is ordered; the
// carrier chosen is ordered and listed by its name.
func TestPickupCarrierChosenFromThoseTheAddressServes(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	doc := page(t, b.Get("/shipping/pickups").Body)
	opts := carrierOptions(doc)
	if len(opts) < 3 || opts[0] != [2]string{"", "Any carrier"} {
		t.Fatalf("carrier options: %v", opts)
	}
	for _, o := range opts[1:] {
		if o[1] == o[0] && strings.ToUpper(o[1]) == o[1] && strings.Contains(o[1], "-") {
			t.Errorf("a carrier shown by its code: %v", o)
		}
	}
	if !slices.Contains(opts, [2]string{"ZASILKOVNA", "Zásilkovna"}) || !hasOption(opts, "GLS") {
		t.Errorf("the carriers collecting in Czechia are missing: %v", opts)
	}
	for _, never := range []string{"BALIKOVNA", "LIFTAGO", "GLS-SK"} { // points only, same day only, Slovakia only
		if hasOption(opts, never) {
			t.Errorf("%s offered for a Czech pickup address", never)
		}
	}

	// A Slovak stored address: its own carriers, through the htmx fragment.
	if r := b.PostForm("/shipping/contacts", url.Values{"contact_company": {"Sklad Bratislava"}, "contact_street": {"Obchodná 52"},
		"contact_city": {"Bratislava"}, "contact_zip": {"811 06"}, "contact_country": {"SK"}, "contact_phone": {"+421 905 312 448"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("store a Slovak address: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	contacts, err := serviceClient(t, env).Contacts(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	sk := ""
	for _, c := range contacts {
		if c.Country == "SK" {
			sk = strconv.FormatInt(c.ID, 10)
		}
	}
	frag := getHTMX(env, b, "/shipping/pickups/carriers?address="+sk)
	skOpts := carrierOptions(page(t, frag.Body))
	if frag.StatusCode != 200 || !hasOption(skOpts, "GLS-SK") || hasOption(skOpts, "GLS") || !hasOption(skOpts, "") {
		t.Errorf("carriers of the Slovak address: %d %v", frag.StatusCode, skOpts)
	}
	if r := getHTMX(env, b, "/shipping/pickups/carriers?address=%3Cscript%3E"); r.StatusCode != 422 || strings.Contains(r.Body, "<script>") {
		t.Errorf("a hostile address: %d", r.StatusCode)
	}

	form := pickupForm(t, b)
	for _, c := range []struct{ name, carrier, address, want string }{
		{"TypedName", "Zásilkovna", "1", "Choose a carrier from the list"},
		{"PointsOnly", "BALIKOVNA", "1", "does not collect from this address"},
		{"OtherCountry", "GLS", sk, "does not collect from this address"},
	} {
		r := b.PostForm("/shipping/pickups", with(form, "carrier", c.carrier, "address", c.address))
		if r.StatusCode != 422 || !strings.Contains(fieldError(r.Body, "carrier"), c.want) {
			t.Errorf("%s: %d %q", c.name, r.StatusCode, fieldError(r.Body, "carrier"))
		}
		if got := carrierOptions(page(t, r.Body)); !hasOption(got, "ZASILKOVNA") && c.address == "1" {
			t.Errorf("%s: the form came back without the carriers: %v", c.name, got)
		}
	}
	if n := len(servicePickups(t, env)); n != 0 {
		t.Fatalf("%d pickups ordered by refused forms", n)
	}
	if r := b.PostForm("/shipping/pickups", with(form, "carrier", "ZASILKOVNA")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("order with Zásilkovna: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	if list := servicePickups(t, env); len(list) != 1 || list[0].Carrier != "ZASILKOVNA" || list[0].Date != sandboxtest.Day(1) {
		t.Fatalf("the service has %+v", list)
	}
	listed := page(t, b.Get("/shipping/pickups").Body).Find(`[data-testid=pickups]`).Text()
	if !strings.Contains(listed, "Zásilkovna") || strings.Contains(listed, "ZASILKOVNA") {
		t.Errorf("the list names the carrier as %q", listed)
	}
}

// The carriers' fragment is the shipping area's, like the page.
func TestPickupCarriersRefuseWrongRoleAndAnonymous(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	if r := env.SignedIn(identity.Agent).Get("/shipping/pickups/carriers?address=1"); r.StatusCode != http.StatusForbidden {
		t.Errorf("an agent: %d", r.StatusCode)
	}
	if r := env.NewBrowser().Get("/shipping/pickups/carriers?address=1"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("anonymous: %d", r.StatusCode)
	}
	if r := env.SignedIn(identity.Clerk).Get("/shipping/pickups/carriers?address=1"); r.StatusCode != http.StatusOK || !strings.Contains(r.Body, `value="ZASILKOVNA"`) {
		t.Errorf("a clerk: %d", r.StatusCode)
	}
}
