package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/requestkey"
)

func TestHandoverProtocolPerCarrierWithSignatures(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	placeN(t, b, with(form, "cod", "on", "cod_value", "1250", "cod_currency", "CZK", "cod_bank_account", "19-2000145399", "cod_bank_code", "0800"), "UPS", 1)
	placeN(t, b, form, "UPS", 1)
	placeN(t, b, form, "PPL", 1)
	senders, err := env.App.DB.Senders(context.Background())
	if err != nil || len(senders) == 0 || senders[0].Street == "" {
		t.Fatalf("the demo sender: %v %v", senders, err)
	}
	sender := senders[0]
	body := b.Get("/shipping/manifest").Body
	doc := page(t, body)
	protocols := doc.Find(`[data-testid=protocol]`)
	if protocols.Length() != 2 {
		t.Fatalf("%d protocols for two carriers: %s", protocols.Length(), problemsOf(body))
	}
	counts := map[string]string{}
	protocols.Each(func(_ int, s *goquery.Selection) {
		carrier := s.AttrOr("data-carrier", "")
		counts[carrier] = s.Find(`[data-testid=protocol-count]`).Text()
		if s.Find(`[data-testid=sign-sender]`).Length() != 1 || s.Find(`[data-testid=sign-courier]`).Length() != 1 {
			t.Errorf("%s: no signature lines for the sender and the courier", carrier)
		}
		if !strings.Contains(s.Text(), "Place of hand-over") || !strings.Contains(s.Text(), sender.Street) || !strings.Contains(s.Text(), sender.City) {
			t.Errorf("%s: the place of hand-over is not the sender's address %s, %s", carrier, sender.Street, sender.City)
		}
	})
	if counts["UPS"] != "2 parcels, 2 packages" || counts["PPL"] != "1 parcel, 1 package" {
		t.Errorf("counts: %v", counts)
	}
	if !strings.Contains(doc.Find(`[data-carrier=UPS]`).Text(), "CZK\u00a01,250.00") {
		t.Error("the COD amount is not on the protocol")
	}
	// The PDF: a protocol per carrier, each signed by a courier.
	resp := b.Get("/shipping/manifest.pdf")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("protocols PDF: %d", resp.StatusCode)
	}
	if n := drawn(resp.Body, "Taken over by (courier): name and signature"); n != 2 {
		t.Errorf("courier's signature line %d times, want 2", n)
	}
	if n := len(pdfPage.FindAllString(resp.Body, -1)); n != 2 {
		t.Errorf("%d pages for two short protocols", n)
	}
	one := b.Get("/shipping/manifest.pdf?carrier=PPL")
	if one.StatusCode != 200 || drawn(one.Body, "Taken over by (courier): name and signature") != 1 || drawn(one.Body, "1 parcel, 1 package") < 1 {
		t.Errorf("one carrier's protocol: %d", one.StatusCode)
	}
	// In Czech, with Czech letters.
	b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/shipping/manifest"}})
	cs := b.Get("/shipping/manifest.pdf?carrier=UPS")
	for _, want := range []string{"Předávací protokol", "Převzal (kurýr): jméno a podpis", "Předal (odesílatel): jméno a podpis", "2 zásilky, 2 balíky", "Nováková"} {
		if drawn(cs.Body, want) == 0 {
			t.Errorf("the Czech protocol lacks %q", want)
		}
	}
	if body := b.Get("/shipping/manifest").Body; !strings.Contains(body, "Převzal (kurýr)") || !strings.Contains(body, "2 zásilky, 2 balíky") {
		t.Error("the protocols page is not in Czech")
	}
	b.PostForm("/language", url.Values{"lang": {"en"}, "back": {"/"}})
	// Bad or empty days, unknown carriers.
	if r := b.Get("/shipping/manifest?date=yesterday"); r.StatusCode != 422 || !strings.Contains(r.Body, "not a date") {
		t.Errorf("bad date: %d", r.StatusCode)
	}
	if r := b.Get("/shipping/manifest.pdf?date=2026-13-45"); r.StatusCode != 422 {
		t.Errorf("bad date PDF: %d", r.StatusCode)
	}
	if r := b.Get("/shipping/manifest?date=2001-01-01"); r.StatusCode != 200 || !strings.Contains(r.Body, "Nothing to hand over") {
		t.Errorf("empty day: %d", r.StatusCode)
	}
	if r := b.Get("/shipping/manifest.pdf?date=2001-01-01"); r.StatusCode != 404 {
		t.Errorf("empty day PDF: %d", r.StatusCode)
	}
	if r := b.Get("/shipping/manifest.pdf?carrier=<script>"); r.StatusCode != 404 || strings.Contains(r.Body, "<script>") {
		t.Errorf("unknown carrier PDF: %d", r.StatusCode)
	}
}

// A shipment with a pickup date is handed over that day, not on the day it
// was ordered.
func TestHandoverOnThePickupDate(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	tomorrow := env.App.Upstream.Now().AddDate(0, 0, 1) // on the dashboard's clock
	for tomorrow.Weekday() == time.Saturday || tomorrow.Weekday() == time.Sunday {
		tomorrow = tomorrow.AddDate(0, 0, 1)
	}
	day := tomorrow.Format(time.DateOnly)
	placeN(t, b, with(shipmentForm(t, env), "pickup_date", day), "UPS", 1)
	if body := b.Get("/shipping/manifest").Body; !strings.Contains(body, "Nothing to hand over") {
		t.Error("a shipment picked up later is on today's protocol")
	}
	if body := b.Get("/shipping/manifest?date=" + day).Body; page(t, body).Find(`[data-testid=protocol]`).Length() != 1 {
		t.Errorf("the shipment is not on the protocol of its pickup day %s", day)
	}
}

// A parcel handed in at a point goes on that point's protocol, named by the
// point's name and address, apart from the parcels the courier takes at the
// warehouse (whose protocol names the sender).
func TestHandoverAtAPointNamesThePoint(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	_, full := order(t, b, with(form, "handover", "POINT"), "Zásilkovna Home")
	d := page(t, b.PostForm("/shipping/points?for=pickup", with(full, "pickup_q", "Brno")).Body)
	code := d.Find(`input[name=pickup_branch]`).First().AttrOr("value", "")
	if code == "" {
		t.Fatalf("no point to hand in at: %s", problemsOf(d.Text()))
	}
	p, err := env.App.DB.PointByCode(context.Background(), "ZASILKOVNA", code)
	if err != nil {
		t.Fatal(err)
	}
	if resp := b.PostForm("/shipping/new/order", with(full, "pickup_branch", code, "key", requestkey.New())); resp.StatusCode != 303 {
		t.Fatalf("order handed in at %s: %d %s", code, resp.StatusCode, problemsOf(resp.Body))
	}
	placeN(t, b, form, "Zásilkovna Home", 1) // from the warehouse
	senders, err := env.App.DB.Senders(context.Background())
	if err != nil || len(senders) == 0 {
		t.Fatal(err)
	}
	places := map[string]string{}
	page(t, b.Get("/shipping/manifest").Body).Find(`[data-testid=protocol][data-carrier=ZASILKOVNA]`).Each(func(_ int, s *goquery.Selection) {
		text := strings.Join(strings.Fields(s.Text()), " ")
		switch {
		case strings.Contains(text, p.Name) && strings.Contains(text, p.Street):
			places["point"] = s.Find(`[data-testid=protocol-count]`).Text()
			if strings.Contains(text, senders[0].Street) {
				t.Errorf("the point's protocol names the warehouse too: %s", text)
			}
		case strings.Contains(text, senders[0].Street):
			places["warehouse"] = s.Find(`[data-testid=protocol-count]`).Text()
		default:
			t.Errorf("a protocol of neither place: %s", text)
		}
	})
	if places["point"] != "1 parcel, 1 package" || places["warehouse"] != "1 parcel, 1 package" {
		t.Errorf("protocols by place: %v", places)
	}
}
