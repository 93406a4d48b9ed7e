package web_test

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

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
