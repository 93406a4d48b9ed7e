package shipping_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/client/transport"
)

// The provider's published examples (public-evidence.md), kept byte for byte
// in testdata: the client encodes the published request and decodes the
// published answers.

func testdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fixed answers every path from the map, 404 in the envelope otherwise.
func fixed(t *testing.T, answers map[string][]byte) *shipping.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		b, ok := answers[r.URL.Path]
		if !ok {
			w.WriteHeader(404)
			b = []byte(`{"status":404,"message":"No shipment found"}`)
		}
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	c, err := shipping.New(transport.Config{BaseURL: srv.URL, APIKey: "k", Timeout: 5 * time.Second, Retry: transport.Retry{Attempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPublishedCreateRequestIsWhatTheClientSends(t *testing.T) {
	o := shipping.Order{Currency: "CZK", PaymentType: "invoice",
		Payer: &shipping.Payer{Company: "Obchod s.r.o.", Tin: "12345678", Vatin: "CZ12345678", Email: "obchod@example.com"},
		Shipments: []shipping.Shipment{{Type: shipping.PickupOccasional, Carrier: "PPL", PickupDate: "2026-11-24", From: shipping.Address{ID: 1},
			To:        shipping.Address{Firstname: "Jan", Surname: "Novák", Street: "Dlouhá 5", City: "Brno", Zip: "602 00", Country: "CZ", Phone: "+420777111222"},
			Services:  []shipping.Service{shipping.Insurance(shipping.Money{Value: 12500, Currency: "CZK"}), shipping.COD(shipping.ServiceCOD{Value: shipping.Money{Value: 500, Currency: "CZK"}})},
			Packages:  []shipping.Package{{Weight: 2, Width: 20, Height: 10, Length: 30, Value: &shipping.Money{Value: 12500, Currency: "CZK"}, Content: "Knihy"}},
			Reference: "OBJ-2026-0412"}}}
	got, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := json.Compact(&want, testdata(t, "create_request.json")); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("the client sends\n%s\nthe published request is\n%s", got, want.Bytes())
	}
}

func TestPublishedCreateAnswerIsRead(t *testing.T) {
	c := fixed(t, map[string][]byte{"/api/v1/shipments/create": testdata(t, "create_answer.json")})
	o := order(shipment("PPL", "A"), shipment("PPL", "B"))
	got, err := c.Create(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if got.OrderToken != "5f1c0e6b2a9d4c7e8b3a1f0d9c8e7b6a" || got.OrderNumber != "OP23100000X" || len(got.Shipments) != 2 ||
		got.Shipments[0].TrackingNumber != "IZ0123456789" || got.Shipments[1].TrackingNumber != "IZ1234567890" {
		t.Errorf("read %+v", got)
	}
}

func TestPublishedRatesAnswerIsRead(t *testing.T) {
	c := fixed(t, map[string][]byte{"/api/v1/rates/get": testdata(t, "rates_answer.json")})
	rates, err := c.Rates(ctx, shipping.RateRequest{Currency: "CZK", Shipment: shipping.Shipment{From: shipping.Address{Country: "CZ"}, To: shipping.Address{Country: "SK"}}})
	if err != nil || len(rates) != 1 {
		t.Fatalf("rates %+v %v", rates, err)
	}
	r := rates[0]
	if r.Carrier != "UPS" || r.Service != "Export SK" || r.ServiceID != 21 || r.PriceVAT.Value != 218 || r.Price.Value != 180.5 || !r.Selectable || r.LabelMode != shipping.LabelPrint {
		t.Errorf("read %+v", r)
	}
}

func TestPublishedParcelPointsAnswerIsRead(t *testing.T) {
	c := fixed(t, map[string][]byte{"/api/v1/parcelpoints/list": testdata(t, "parcelpoints_answer.json")})
	page, err := c.ParcelPoints(ctx, shipping.PointQuery{Country: "CZ"})
	if err != nil || len(page.Points) != 2 {
		t.Fatalf("points %+v %v", page, err)
	}
	shop, box := page.Points[0], page.Points[1]
	if shop.ID != 1043 || shop.Code != "PPL--1" || shop.IsLocker || shop.Location == nil || shop.Location.Lat != 50.0819 || shop.LocationID != 77 {
		t.Errorf("shop %+v %+v", shop, shop.Location)
	}
	if box.ID != 1044 || box.Code != "ZASILKOVNA-PRAHA-1" || !box.IsLocker || box.Location.Lng != 14.4253 {
		t.Errorf("box %+v %+v", box, box.Location)
	}
	// The older forms still read: a boolean and numbers.
	var p shipping.ParcelPoint
	if err := json.Unmarshal([]byte(`{"code":"X","is_locker":true,"location":{"lat":50.1,"lng":14.2}}`), &p); err != nil || !p.IsLocker || p.Location.Lat != 50.1 {
		t.Errorf("older form: %+v %v", p, err)
	}
}
