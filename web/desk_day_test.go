package web_test

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/requestkey"
	"shipdesk/storage"
)

// Compare on an empty form names every missing field at once, each beside
// its field, and asks the service nothing; the focus goes to the first.
func TestCompareNamesEveryMissingField(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	senders, err := env.App.DB.Senders(context.Background())
	if err != nil || len(senders) == 0 {
		t.Fatalf("senders: %v", err)
	}
	before := countCalls(env, "rates/get")
	empty := url.Values{"key": {requestkey.New()}, "sender": {itoa(senders[0].ID)}, "handover": {"ONDEMAND"}, "to_country": {"CZ"},
		"pkg_weight": {""}, "pkg_length": {""}, "pkg_width": {""}, "pkg_height": {""}}
	resp := b.PostForm("/shipping/new/compare", empty)
	if resp.StatusCode != 422 {
		t.Fatalf("empty compare: %d", resp.StatusCode)
	}
	for field, want := range map[string]string{
		"to_surname": "surname or company",
		"to_city":    "town",
		"to_zip":     "postal code",
		"to_phone":   "phone number or an e-mail",
		"packages":   "at least one package",
	} {
		if got := fieldError(resp.Body, field); !strings.Contains(got, want) {
			t.Errorf("%s says %q, want %q", field, got, want)
		}
	}
	if countCalls(env, "rates/get") != before {
		t.Error("the service was asked about an empty form")
	}
	doc := page(t, resp.Body)
	if focus := doc.Find(`[autofocus]`); focus.Length() != 1 || focus.AttrOr("id", "") != "to_surname" {
		t.Errorf("focus on %d elements, the first %q; want the surname", focus.Length(), focus.AttrOr("id", ""))
	}
	if doc.Find(`#to_surname[aria-invalid=true][aria-describedby~=to_surname-error]`).Length() != 1 {
		t.Error("the surname's problem is not tied to its field")
	}
	// Bad shapes are named the same way, with the rest.
	bad := with(empty, "to_surname", "Nová", "to_city", "Brno", "to_zip", "602 00", "to_phone", "call me", "to_email", "nobody", "pkg_weight", "lots")
	resp = b.PostForm("/shipping/new/compare", bad)
	for field, want := range map[string]string{"to_phone": "phone number", "to_email": "e-mail address", "pkg_weight_0": ""} {
		if got := fieldError(resp.Body, field); resp.StatusCode != 422 || got == "" || !strings.Contains(got, want) {
			t.Errorf("%d: %s says %q, want %q", resp.StatusCode, field, got, want)
		}
	}
	// An e-mail instead of the phone is enough for the offers and the order.
	form := with(shipmentForm(t, env), "to_phone", "")
	resp = b.PostForm("/shipping/new/compare", form)
	if resp.StatusCode != 200 {
		t.Fatalf("compare with an e-mail only: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
}

// A package of one parcel from and to the Czech Republic is offered
// label-free in the first offers, before any change of the hand-over:
// choosing it hands over at a point, with the label-free box ticked.
func TestLabelFreeOfferedInTheFirstOffers(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env) // courier pickup, one package, Brno
	resp := b.PostForm("/shipping/new/compare", form)
	if resp.StatusCode != 200 {
		t.Fatalf("compare: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	doc := page(t, resp.Body)
	rows := doc.Find(`[data-testid=label-free-offers] [data-testid=label-free-offer]`)
	if rows.Length() == 0 {
		t.Fatalf("no label-free offers for one package within the Czech Republic")
	}
	rows.Each(func(_ int, r *goquery.Selection) {
		if c := r.AttrOr("data-carrier", ""); !strings.EqualFold(c, "ZASILKOVNA") {
			t.Errorf("label-free offered for carrier %s", c)
		}
	})
	toAddress := rows.FilterFunction(func(_ int, r *goquery.Selection) bool {
		return strings.TrimSpace(r.Find(`[data-testid=offer-delivery-point]`).Text()) == "no"
	})
	choice := toAddress.First().Find(`button[name=choose]`).AttrOr("value", "")
	if !strings.HasSuffix(choice, "-label-free") {
		t.Fatalf("label-free choice %q", choice)
	}
	chosen := b.PostForm("/shipping/new/choose", with(form, "choose", choice))
	cdoc := page(t, chosen.Body)
	if chosen.StatusCode != 200 || cdoc.Find(`#handover option[value=POINT][selected]`).Length() != 1 {
		t.Fatalf("choosing label-free: %d, hand-over %q", chosen.StatusCode, cdoc.Find(`#handover option[selected]`).AttrOr("value", ""))
	}
	if cdoc.Find(`input[name=label_less][checked]`).Length() != 1 {
		t.Errorf("label-free is not ticked after choosing it: %s", problemsOf(chosen.Body))
	}
	if cdoc.Find(`[data-testid=create][autofocus]`).Length() != 1 {
		t.Error("the focus is not on the Order button after choosing")
	}
	full := merge(form, hiddenFields(chosen.Body))
	full.Set("handover", "POINT")
	full.Set("label_less", "on")
	order := b.PostForm("/shipping/new/order", full)
	if order.StatusCode != 303 {
		t.Fatalf("label-free order: %d %s", order.StatusCode, problemsOf(order.Body))
	}
	shipment := b.Get(order.Header.Get("Location")).Body
	if got := strings.TrimSpace(page(t, shipment).Find(`[data-testid=point-pickup]`).Text()); !strings.Contains(got, "any point") {
		t.Errorf("the shipment page's hand-over point says %q", got)
	}

	// Two packages: no label-free offers.
	two := with(form)
	two["pkg_weight"], two["pkg_length"], two["pkg_width"], two["pkg_height"] = []string{"1", "2"}, []string{"", ""}, []string{"", ""}, []string{"", ""}
	resp = b.PostForm("/shipping/new/compare", two)
	if page(t, resp.Body).Find(`[data-testid=label-free-offer]`).Length() != 0 {
		t.Error("label-free offered for two packages")
	}
	// Abroad: none either.
	sk := with(form, "to_country", "SK", "to_city", "Bratislava", "to_zip", "811 01")
	resp = b.PostForm("/shipping/new/compare", sk)
	if page(t, resp.Body).Find(`[data-testid=label-free-offer]`).Length() != 0 {
		t.Error("label-free offered abroad")
	}
}

// The point picker starts with nothing typed (the town is its placeholder),
// says when nothing matches and when it shows only some of the matches; the
// shipment page then shows the chosen point.
func TestPointPickerSaysWhatItFound(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env) // to Brno
	resp := b.PostForm("/shipping/new/compare", form)
	chosen := b.PostForm("/shipping/new/choose", with(form, "choose", offerOf(t, resp.Body, "Zásilkovna To Point")))
	doc := page(t, chosen.Body)
	box := doc.Find(`#delivery_q`)
	if box.AttrOr("value", "") != "" || box.AttrOr("placeholder", "") != "Brno" {
		t.Errorf("the picker starts with %q, placeholder %q; want empty, Brno", box.AttrOr("value", ""), box.AttrOr("placeholder", ""))
	}
	if _, ok := box.Attr("autofocus"); !ok {
		t.Error("after choosing a service to a point the focus is not in the picker")
	}
	status := strings.TrimSpace(doc.Find(`[data-testid=delivery-points-status]`).Text())
	if !strings.Contains(status, "Brno") {
		t.Errorf("the picker's first list says %q", status)
	}
	full := merge(form, hiddenFields(chosen.Body))
	ask := func(q string) (string, int) {
		resp := b.PostForm("/shipping/points?for=delivery", with(full, "delivery_q", q))
		if resp.StatusCode != 200 {
			t.Fatalf("picker %q: %d", q, resp.StatusCode)
		}
		d := page(t, resp.Body)
		return strings.TrimSpace(d.Find(`[data-testid=delivery-points-status]`).Text()), d.Find(`input[name=delivery_branch]`).Length()
	}
	if status, n := ask("Xqzwyv"); n != 0 || !strings.Contains(status, "Nothing matches “Xqzwyv”") {
		t.Errorf("nonsense: %d points, %q", n, status)
	}
	if status, n := ask("a"); n != 15 || !regexp.MustCompile(`^Showing 15 of \d{2,} points`).MatchString(status) {
		t.Errorf("a broad search: %d points, %q", n, status)
	}
	if status, n := ask("Brno"); n == 0 || strings.Contains(status, "Nothing") {
		t.Errorf("Brno: %d points, %q", n, status)
	}
	if status, n := ask(""); n == 0 || !strings.Contains(status, "Brno") {
		t.Errorf("nothing typed: %d points, %q (want the recipient's town)", n, status)
	}
	// Order to the first point of Brno; the shipment page names it.
	d := page(t, b.PostForm("/shipping/points?for=delivery", with(full, "delivery_q", "Brno")).Body)
	code := d.Find(`input[name=delivery_branch]`).First().AttrOr("value", "")
	name := strings.TrimSpace(d.Find(`.point-text strong`).First().Contents().First().Text())
	order := b.PostForm("/shipping/new/order", with(full, "delivery_branch", code))
	if order.StatusCode != 303 {
		t.Fatalf("order to point %s: %d %s", code, order.StatusCode, problemsOf(order.Body))
	}
	got := page(t, b.Get(order.Header.Get("Location")).Body).Find(`[data-testid=point-delivery]`).Text()
	for _, want := range []string{code, name, "Brno"} {
		if !strings.Contains(got, want) {
			t.Errorf("the shipment page's delivery point %q lacks %q", strings.Join(strings.Fields(got), " "), want)
		}
	}
}

// Each step of the form puts the focus (one autofocus) on what comes next:
// the first field, the new package's weight, the first offer, the Order
// button, the pressed sort button; a saved recipient leaves the package next.
func TestFocusFollowsTheSteps(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	focusOf := func(what string, resp apptest.Response) *goquery.Selection {
		t.Helper()
		f := page(t, resp.Body).Find(`[autofocus]`)
		if f.Length() != 1 {
			t.Fatalf("%s: %d elements with autofocus (%d %s)", what, f.Length(), resp.StatusCode, problemsOf(resp.Body))
		}
		return f
	}
	if id := focusOf("a new form", b.Get("/shipping/new")).AttrOr("id", ""); id != "to_firstname" {
		t.Errorf("a new form focuses %q", id)
	}
	if id := focusOf("a package added", b.PostForm("/shipping/new/packages", form)).AttrOr("id", ""); id != "pkg_weight_1" {
		t.Errorf("after adding a package the focus is on %q", id)
	}
	offers := b.PostForm("/shipping/new/compare", form)
	first := page(t, offers.Body).Find(`[data-testid=offers] [data-selectable=true] button[name=choose]`).First().AttrOr("value", "")
	if f := focusOf("offers", offers); f.AttrOr("name", "") != "choose" || f.AttrOr("value", "") != first {
		t.Errorf("after Compare the focus is on %s=%s, want the first offer %s", f.AttrOr("name", ""), f.AttrOr("value", ""), first)
	}
	if f := focusOf("chosen", b.PostForm("/shipping/new/choose", with(form, "choose", offerOf(t, offers.Body, "UPS")))); f.AttrOr("data-testid", "") != "create" {
		t.Errorf("after Choose the focus is on %q", f.AttrOr("id", ""))
	}
	if id := focusOf("sorted", b.PostForm("/shipping/new/sort", with(form, "sort", "carrier"))).AttrOr("id", ""); id != "sort-carrier" {
		t.Errorf("after sorting the focus is on %q", id)
	}
	saved, err := env.App.DB.SaveRecipient(context.Background(), storage.Address{Firstname: "Jana", Surname: "Nováková",
		Street: "Masarykova 5", City: "Brno", Zip: "602 00", Country: "CZ", Phone: "+420 777 123 456"})
	if err != nil {
		t.Fatal(err)
	}
	if id := focusOf("a saved recipient", b.Get("/shipping/new?recipient="+itoa(saved.ID))).AttrOr("id", ""); id != "pkg_weight_0" {
		t.Errorf("with a saved recipient the focus is on %q", id)
	}
	// The sign-in form: the username, or the password once the username is typed.
	anon := env.NewBrowser()
	if id := focusOf("sign-in", anon.Get("/login")).AttrOr("id", ""); id != "username" {
		t.Errorf("the sign-in form focuses %q", id)
	}
	if id := focusOf("wrong password", anon.PostForm("/login", url.Values{"username": {"clara"}, "password": {"nope"}})).AttrOr("id", ""); id != "password" {
		t.Errorf("after a wrong password the focus is on %q", id)
	}
}
