package web_test

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"shipdesk/i18n"
	"shipdesk/identity"
	sbshop "shipdesk/sandbox/shoptet"
)

// The inbox lists the orders waiting to ship newest first, a page at a
// time, and each filter (shipping method, status, country, day) keeps the
// orders it names and only them; a filter that cannot be read says so.
func TestShopInboxFiltersNewestFirst(t *testing.T) {
	t.Parallel()
	sd := startShopDesk(t)
	now := sd.env.Sandbox.Clock.Now()
	home := sd.order(func(o *sbshop.Order) {
		o.Shipping, o.Point, o.Payment = sbshop.ShippingMethods[2].GUID, nil, sbshop.PaymentMethods[1].GUID
	})
	slovak := sd.order(func(o *sbshop.Order) {
		o.Billing = sbshop.Address{FullName: "Ján Kováč", Street: "Obchodná", HouseNumber: "5", City: "Bratislava", Zip: "811 06", Country: "SK"}
		o.Shipping, o.Point, o.Payment, o.Currency = sbshop.ShippingMethods[5].GUID, nil, sbshop.PaymentMethods[1].GUID, "EUR"
	})
	old := sd.order(func(o *sbshop.Order) { o.Created = now.AddDate(0, 0, -3) })
	waiting := sd.order(func(o *sbshop.Order) { o.Status = sbshop.StatusAwaitPay })

	all, _ := sd.inboxRows("")
	if len(all) <= 50 {
		t.Fatalf("the demo shop's inbox fits one page: %d orders", len(all))
	}
	seen := map[string]bool{}
	var last time.Time
	for i, code := range all {
		if seen[code] {
			t.Fatalf("order %s is listed twice", code)
		}
		seen[code] = true
		created := sd.kept(code).CreatedAt
		if i > 0 && created.After(last) {
			t.Errorf("order %s (%s) after an older one (%s): not newest first", code, created, last)
		}
		last = created
	}
	for _, c := range []string{home, slovak, old, waiting} {
		if !seen[c] {
			t.Errorf("order %s is not in the inbox", c)
		}
	}

	day := sd.kept(old).CreatedAt.In(i18n.Prague).Format(time.DateOnly)
	for _, f := range []struct {
		name, query string
		want        []string
		not         []string
		keeps       func(code string) bool
	}{
		{"shipping method", "?shipping=" + url.QueryEscape(sbshop.ShippingMethods[2].GUID), []string{home}, []string{slovak, old},
			func(c string) bool { return sd.kept(c).ShippingGUID == sbshop.ShippingMethods[2].GUID }},
		{"country", "?country=SK", []string{slovak}, []string{home, old},
			func(c string) bool { return sd.kept(c).Country == "SK" }},
		{"status", "?status=" + strconv.Itoa(sbshop.StatusAwaitPay), []string{waiting}, []string{home, old},
			func(c string) bool { return sd.kept(c).StatusID == sbshop.StatusAwaitPay }},
		{"day", "?day=" + day, []string{old}, []string{home, slovak, waiting},
			func(c string) bool { return sd.kept(c).CreatedAt.In(i18n.Prague).Format(time.DateOnly) == day }},
	} {
		t.Run(f.name, func(t *testing.T) {
			codes, _ := sd.inboxRows(f.query)
			for _, c := range f.want {
				if !slices.Contains(codes, c) {
					t.Errorf("order %s is not listed", c)
				}
			}
			for _, c := range f.not {
				if slices.Contains(codes, c) {
					t.Errorf("order %s is listed", c)
				}
			}
			for _, c := range codes {
				if !f.keeps(c) {
					t.Errorf("order %s does not match the filter", c)
				}
			}
		})
	}

	// The filters offer the shop's names, never its ids.
	doc := sd.page("/shipping/orders")
	shipping := doc.Find(`select[name=shipping] option[value="` + sbshop.ShippingMethods[2].GUID + `"]`).Text()
	status := doc.Find(`select[name=status] option[value="` + strconv.Itoa(sbshop.StatusAwaitPay) + `"]`).Text()
	if !strings.HasPrefix(shipping, sbshop.ShippingMethods[2].Name) || !strings.HasPrefix(status, "Čeká na platbu") {
		t.Errorf("the filters offer %q and %q", shipping, status)
	}

	for _, q := range []string{"?status=nine", "?day=yesterday", "?after=%00", "?after=bm90IGEgY3Vyc29y", "?country=%ff"} {
		r := sd.clerk.Get("/shipping/orders" + q)
		if r.StatusCode < 400 || r.StatusCode >= 500 || !strings.Contains(r.Body, "<main") {
			t.Errorf("%s: %d, a page that says why expected", q, r.StatusCode)
		}
	}
}

// A cancelled order leaves the inbox; an order whose notes carry a
// tracking number already is shown as shipped elsewhere, with the number,
// and offers neither Ship nor a tick.
func TestShopInboxCancelledLeavesShippedElsewhereSaysSo(t *testing.T) {
	t.Parallel()
	sd := startShopDesk(t)
	cancelled := sd.order(nil)
	elsewhere := sd.order(func(o *sbshop.Order) { o.TrackingNumber = "Z 0001234567" })
	codes, _ := sd.inboxRows("")
	if !slices.Contains(codes, cancelled) {
		t.Fatalf("order %s is not in the inbox before it is cancelled", cancelled)
	}
	if err := sd.sim.CancelOrder(cancelled); err != nil {
		t.Fatal(err)
	}
	sd.pull(cancelled)
	codes, text := sd.inboxRows("")
	if slices.Contains(codes, cancelled) {
		t.Errorf("the cancelled order %s stays in the inbox", cancelled)
	}
	if !strings.Contains(text[elsewhere], "Shipped elsewhere: Z 0001234567") {
		t.Errorf("the order shipped elsewhere reads %q", text[elsewhere])
	}
	row := sd.page("/shipping/orders").Find(`[data-code="` + elsewhere + `"]`)
	if row.Find(`button, input[type=checkbox]`).Length() != 0 {
		t.Errorf("the order shipped elsewhere can be shipped again: %q", text[elsewhere])
	}
	if n := sd.shipmentsOf(elsewhere); n != 0 {
		t.Errorf("%d shipments of an order shipped elsewhere", n)
	}
}

// Each order says in words whether it ships as it is or what it lacks; an
// order that lacks something has no Ship button and no tick, only "Fill
// the form", and no key or code of ours or the service's shows.
func TestShopInboxSaysWhatIsMissing(t *testing.T) {
	t.Parallel()
	sd := startShopDesk(t)
	cases := []struct {
		name string
		edit func(o *sbshop.Order)
		says string
	}{
		{"ready", nil, "Can ship as it is"},
		{"an unmapped shipping method", func(o *sbshop.Order) { o.Shipping, o.Point = sbshop.ShippingMethods[7].GUID, nil },
			"The shipping method “" + sbshop.ShippingMethods[7].Name + "” has no carrier yet"},
		{"no weight", func(o *sbshop.Order) { o.Items[0].Weight = "0.000" }, "has no weight in the shop"},
		{"no phone for a point", func(o *sbshop.Order) { o.Phone = "" }, "A parcel point texts the recipient: the order has no phone."},
		{"a country outside the service", func(o *sbshop.Order) {
			o.Billing.Country, o.Shipping, o.Point = "BR", sbshop.ShippingMethods[2].GUID, nil
		}, "a country the shipping service does not deliver to"},
	}
	codes := make([]string, len(cases))
	for i, c := range cases {
		codes[i] = sd.order(c.edit)
	}
	_, text := sd.inboxRows("")
	doc := sd.page("/shipping/orders")
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(text[codes[i]], c.says) {
				t.Errorf("the row reads %q, want %q", text[codes[i]], c.says)
			}
			for _, raw := range []string{"shop.why", "unmapped", sbshop.ShippingMethods[7].GUID, "ZASILKOVNA"} {
				if strings.Contains(text[codes[i]], raw) {
					t.Errorf("the row shows %q: %q", raw, text[codes[i]])
				}
			}
			row := doc.Find(`[data-code="` + codes[i] + `"]`)
			if row.Length() == 0 {
				t.Fatal("the new order is not on the first page")
			}
			ship := row.Find(`form[action$="/ship"] button`).Length() + row.Find(`input[type=checkbox]`).Length()
			fill, _ := row.Find(`a.button`).Attr("href")
			if c.edit == nil {
				if ship != 2 {
					t.Errorf("a ready order without its Ship button and tick")
				}
				return
			}
			if ship != 0 || fill != "/shipping/new?order="+codes[i] {
				t.Errorf("an order that lacks something: %d ship controls, fill link %q", ship, fill)
			}
		})
	}
	// The same in Czech.
	if r := sd.clerk.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/shipping/orders"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("switch to Czech: %d", r.StatusCode)
	}
	_, text = sd.inboxRows("")
	if !strings.Contains(text[codes[3]], "Výdejní místo posílá příjemci SMS: objednávka nemá telefon.") ||
		!strings.Contains(text[codes[1]], "Způsob dopravy „"+sbshop.ShippingMethods[7].Name+"“ ještě nemá dopravce") {
		t.Errorf("in Czech: %q, %q", text[codes[3]], text[codes[1]])
	}
}

// The inbox, an order's page and its buttons are the shipping area's: an
// agent is refused, an anonymous visitor is sent to sign in, and neither
// ships anything.
func TestShopOrdersRefuseOtherRoles(t *testing.T) {
	t.Parallel()
	sd := startShopDesk(t)
	code := sd.order(nil)
	agent, anon := sd.env.SignedIn(identity.Agent), sd.env.NewBrowser()
	gets := []string{"/shipping/orders", "/shipping/orders/" + code, "/shipping/new?order=" + code}
	posts := map[string]url.Values{
		"/shipping/orders/" + code + "/ship":       {"revision": {sd.revision(code)}},
		"/shipping/orders/" + code + "/new-parcel": {"key": {"0f0e0d0c-0b0a-4908-8706-050403020100"}},
		"/shipping/orders/ship":                    {"code": {code}},
	}
	for _, p := range gets {
		if r := agent.Get(p); r.StatusCode != http.StatusForbidden {
			t.Errorf("agent GET %s: %d", p, r.StatusCode)
		}
		if r := anon.Get(p); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous GET %s: %d %s", p, r.StatusCode, r.Header.Get("Location"))
		}
	}
	for p, form := range posts {
		if r := agent.PostForm(p, form); r.StatusCode != http.StatusForbidden {
			t.Errorf("agent POST %s: %d", p, r.StatusCode)
		}
		if r := anon.PostForm(p, form); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous POST %s: %d %s", p, r.StatusCode, r.Header.Get("Location"))
		}
	}
	if n := sd.shipmentsOf(code); n != 0 {
		t.Errorf("refused users made %d shipments", n)
	}
	manager := sd.env.SignedIn(identity.Manager)
	if r := manager.Get("/shipping/orders"); r.StatusCode != http.StatusOK {
		t.Errorf("a manager reads the inbox: %d", r.StatusCode)
	}
}
