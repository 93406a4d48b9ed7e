package shoptet_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"shipdesk/apperr"
	"shipdesk/i18n"
	sim "shipdesk/sandbox/shoptet"
	"shipdesk/shop"
)

// The demo shop's orders come over as the desk needs them: the delivery
// address or the billing one, the point chosen at checkout, cash on
// delivery from the billing method, a tracking number already in the
// notes, a cancelled order said so.
func TestDemoOrdersAreConverted(t *testing.T) {
	w := start(t, options{})
	ctx := context.Background()
	seen := map[string]bool{}
	for _, o := range w.sim.Orders() {
		got, err := w.src.Order(ctx, o.Code)
		if err != nil {
			t.Fatalf("order %s: %v", o.Code, err)
		}
		want := o.Billing
		if o.Delivery != nil {
			want = *o.Delivery
			seen["delivery"] = true
		}
		if got.Delivery.Street != want.Street || got.Delivery.City != want.City || got.Delivery.Country != want.Country || got.Delivery.FullName != want.FullName {
			t.Errorf("%s: delivery %+v, want %+v", o.Code, got.Delivery, want)
		}
		if o.Point != nil {
			seen["point"] = true
			if got.Point == nil || got.Point.BranchID != o.Point.BranchID || got.Point.Carrier != o.Point.CompanyCode || got.Point.City != o.Point.City {
				t.Errorf("%s: point %+v, want %+v", o.Code, got.Point, o.Point)
			}
		} else if got.Point != nil {
			t.Errorf("%s: a point %+v for a home delivery", o.Code, got.Point)
		}
		pm := methodOf(o.Payment)
		if got.Payment.GUID != o.Payment || got.Payment.COD != pm.COD || got.Shipping.GUID != o.Shipping {
			t.Errorf("%s: payment %+v, shipping %+v", o.Code, got.Payment, got.Shipping)
		}
		seen["cod"] = seen["cod"] || got.Payment.COD
		if got.TrackingNumber != o.TrackingNumber || got.Cancelled != (o.Status == sim.StatusCancelled) || got.Status.ID != o.Status {
			t.Errorf("%s: tracking %q cancelled %v status %+v", o.Code, got.TrackingNumber, got.Cancelled, got.Status)
		}
		seen["cancelled"] = seen["cancelled"] || got.Cancelled
		seen["elsewhere"] = seen["elsewhere"] || (got.TrackingNumber != "" && !got.Status.Final)
		if len(got.Items) != len(o.Items) || got.Items[0].Weight != o.Items[0].Weight || got.Items[0].Kind != o.Items[0].Type ||
			got.Total == "" || got.Currency != o.Currency || got.Created.IsZero() || got.Changed.Before(got.Created) {
			t.Errorf("%s: items %+v total %q %s", o.Code, got.Items, got.Total, got.Currency)
		}
	}
	for _, k := range []string{"delivery", "point", "cod", "cancelled", "elsewhere"} {
		if !seen[k] {
			t.Errorf("no demo order showed %s", k)
		}
	}
	statuses, err := w.src.Statuses(ctx)
	if err != nil || len(statuses) != len(sim.Statuses) {
		t.Fatalf("statuses %+v %v", statuses, err)
	}
	for _, s := range statuses {
		if s.Final != (s.ID == sim.StatusCancelled) {
			t.Errorf("status %+v", s)
		}
	}
	pms, err := w.src.PaymentMethods(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range pms {
		if m.COD != methodOf(m.GUID).COD {
			t.Errorf("payment method %+v", m)
		}
	}
	if sh, err := w.src.Shop(ctx); err != nil || sh.ID != sim.EshopID || sh.Name == "" || sh.URL == "" {
		t.Errorf("shop %+v %v", sh, err)
	}
}

func methodOf(guid string) sim.PaymentMethod {
	for _, m := range sim.PaymentMethods {
		if m.GUID == guid {
			return m
		}
	}
	return sim.PaymentMethod{}
}

// Orders are hostile ground: their texts and numbers are decoded without
// a panic and passed on as the shop wrote them (invalid UTF-8 as U+FFFD, as
// any JSON reader does); the desk decides what is shippable.
func TestHostileOrdersPassAsData(t *testing.T) {
	w := start(t, options{})
	long := strings.Repeat("Dlouhá ulice ", 800) // over 10 KB
	o := plainOrder()
	o.Currency = "EUR"
	o.Billing.FullName = "Jana\x00Nováková\x07"
	o.Billing.Company = "Bad\xff\xfeUTF-8"
	o.Billing.Street = long
	o.Billing.City = `<script>alert("x")</script>`
	o.CustomerRemark = `'; DROP TABLE orders; --`
	o.Point = &sim.Point{BranchID: "PPL-PRAHA-1", CompanyCode: "zasilkovna", Name: "Jiný dopravce", City: "Praha"}
	o.Items = []sim.Item{
		{Type: "product", Name: "Nula", Amount: "1.000", Weight: "0.000", Price: "0.00", VatRate: "21.00"},
		{Type: "product", Name: "Záporná", Amount: "-1.000", Weight: "-1.000", Price: "10.00", VatRate: "21.00"},
		{Type: "product", Name: "NaN", Amount: "1.000", Weight: "NaN", Price: "NaN", VatRate: "21.00"},
		{Type: "product", Name: "Obří", Amount: "1.000", Weight: "999999.999", Price: "0.00", VatRate: "21.00"},
	}
	code, err := w.sim.AddOrder(o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := w.src.Order(context.Background(), code)
	if err != nil {
		t.Fatalf("a hostile order is not read: %v", err)
	}
	if got.Delivery.FullName != "Jana\x00Nováková\x07" || got.Delivery.Company != "Bad\uFFFD\uFFFDUTF-8" || !utf8.ValidString(got.Delivery.Company) ||
		got.Delivery.Street != long || got.Delivery.City != `<script>alert("x")</script>` || got.CustomerNote != `'; DROP TABLE orders; --` {
		t.Errorf("texts changed: %q %q %d %q %q", got.Delivery.FullName, got.Delivery.Company, len(got.Delivery.Street), got.Delivery.City, got.CustomerNote)
	}
	zero := plainOrder()
	zero.Currency, zero.Items[0].Price = "EUR", "0.00"
	zeroCode, _ := w.sim.AddOrder(zero)
	if z, err := w.src.Order(context.Background(), zeroCode); err != nil || z.Total != "0.00" || z.Currency != "EUR" {
		t.Errorf("a total of 0 in EUR: %q %s, %v", z.Total, z.Currency, err)
	}
	weights := []string{}
	for _, it := range got.Items {
		weights = append(weights, it.Weight)
	}
	if strings.Join(weights, " ") != "0.000 -1.000 NaN 999999.999" || got.Currency != "EUR" || got.Point == nil || got.Point.BranchID != "PPL-PRAHA-1" || got.Point.Carrier != "zasilkovna" {
		t.Errorf("weights %v, currency %s, point %+v", weights, got.Currency, got.Point)
	}
}

// What goes back to the shop lands on the order: the tracking number in
// its notes (and cleared again), its status, with the customer's mail
// suppressed when asked.
func TestWriteBack(t *testing.T) {
	w := start(t, options{})
	ctx := context.Background()
	code := w.addOrders(t, 1)[0]
	w.env.Fault("/shoptet/api/orders/"+code+"/notes", map[string]any{"error_rate": 1, "count": 1})
	if err := w.src.WriteTracking(ctx, code, "Z0012345678", "https://tracking.example/Z0012345678"); err != nil {
		t.Fatal(err)
	}
	if o, _ := w.src.Order(ctx, code); o.TrackingNumber != "Z0012345678" {
		t.Errorf("tracking number %q", o.TrackingNumber)
	}
	written := 0
	o, _ := w.sim.Order(code)
	for _, h := range o.History {
		if strings.Contains(h.Text, "Z0012345678") {
			written++
		}
	}
	if written != 1 || w.calls("orders/notes", "503") != 1 || w.calls("orders/notes", "200") != 1 {
		t.Errorf("answered 503 then 200: written %d times; counters %+v", written, w.metrics.Counters())
	}
	if err := w.src.SetStatus(ctx, code, sim.StatusSent, true); err != nil {
		t.Fatal(err)
	}
	o, _ = w.sim.Order(code)
	mailed := false
	for _, h := range o.History {
		mailed = mailed || h.Mailed || h.Texted
	}
	if o.Status != sim.StatusSent || mailed {
		t.Errorf("status %d, customer told %v: %+v", o.Status, mailed, o.History)
	}
	if err := w.src.WriteTracking(ctx, code, "", ""); err != nil {
		t.Fatal(err)
	}
	if o, _ := w.sim.Order(code); o.TrackingNumber != "" {
		t.Errorf("a storno left the tracking number %q", o.TrackingNumber)
	}
	err := w.src.WriteTracking(ctx, code, strings.Repeat("9", 33), "")
	if !apperr.Is(err, apperr.Invalid) || w.calls("orders/notes", "") != 3 { // 503, 200, the clearing 200
		t.Errorf("33 characters: %v, %d calls", err, w.calls("orders/notes", ""))
	}
}

// The shop's refusals are apperr kinds with words for a person: never
// Shoptet's error codes, the token, or an English-only sentence of ours.
func TestFailuresForPeople(t *testing.T) {
	w := start(t, options{})
	ctx := i18n.WithLang(context.Background(), i18n.Czech)
	code := w.addOrders(t, 1)[0]
	say := func(err error) string { return apperr.MessageOf(ctx, err, "") }

	_, err := w.source(t, options{token: "wrong-token"}).Shop(ctx)
	if !apperr.Is(err, apperr.Unauthorized) || !strings.Contains(say(err), "token") || strings.Contains(say(err), "invalid-token") {
		t.Errorf("a wrong token: %v (%q)", err, say(err))
	}
	err = w.source(t, options{token: sim.ReadOnlyToken}).WriteTracking(ctx, code, "Z1", "")
	if !apperr.Is(err, apperr.Unauthorized) || strings.Contains(say(err), "invalid-token-no-rights") {
		t.Errorf("a token without rights: %v (%q)", err, say(err))
	}
	_, err = w.src.Order(ctx, "1999000001")
	if !apperr.Is(err, apperr.NotFound) || !strings.Contains(say(err), "1999000001") || strings.Contains(say(err), "order-not-found") {
		t.Errorf("no such order: %v (%q)", err, say(err))
	}
	_, err = w.src.Order(ctx, "../eshop")
	if !apperr.Is(err, apperr.Invalid) || say(err) == "" {
		t.Errorf("a bad code: %v", err)
	}
	err = w.src.SetStatus(ctx, code, 999, false)
	if !apperr.Is(err, apperr.Invalid) || strings.Contains(say(err), "invalid-request-data") {
		t.Errorf("an unknown status: %v (%q)", err, say(err))
	}
	w.env.Fault("/shoptet/", map[string]any{"error_rate": 1})
	_, err = w.src.Changes(ctx, w.env.Clock.Now())
	if !apperr.Is(err, apperr.Unavailable) || !strings.Contains(say(err), "503") {
		t.Errorf("a shop down: %v (%q)", err, say(err))
	}
	w.env.Release()
	if strings.Contains(w.logs.String(), sim.Token) || strings.Contains(w.logs.String(), sim.ReadOnlyToken) {
		t.Errorf("a token is in the log")
	}
	var _ shop.Source = w.src
}
