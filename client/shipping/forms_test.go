package shipping_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/client/transport"
)

// The answers below are the forms that public integrations of the real service
// and the provider's published examples show (public-evidence.md), byte for
// byte where an example exists. The client must read every one of them.

// recorded serves fixed answers by path and counts the calls per path.
func recorded(t *testing.T, answers map[string]struct {
	status int
	body   string
}) (*shipping.Client, map[string]*atomic.Int64) {
	t.Helper()
	calls := map[string]*atomic.Int64{}
	for p := range answers {
		calls[p] = &atomic.Int64{}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		a, ok := answers[r.URL.Path]
		if !ok {
			http.Error(w, "unexpected "+r.URL.Path, http.StatusTeapot)
			return
		}
		calls[r.URL.Path].Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.status)
		_, _ = io.WriteString(w, a.body)
	}))
	t.Cleanup(srv.Close)
	c, err := shipping.New(transport.Config{BaseURL: srv.URL, APIKey: "k", Timeout: 5 * time.Second,
		Retry: transport.Retry{Base: time.Millisecond, Max: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return c, calls
}

type answer = struct {
	status int
	body   string
}

func TestCreateReadsThePublishedExample(t *testing.T) {
	// The provider's example: 200, the order as a hash, shipments as strings.
	c, calls := recorded(t, map[string]answer{
		"/api/v1/shipments/create": {200, `{"status": 200, "message": "Order was successfully created", "data": {"order": "3f2a9c", "order_number": "OP23100000X", "shipments": ["IZ0123456789", "IZ1234567890"]}}`},
		"/api/v1/shipments/detail": {200, `{"status": 200, "message": "Found 2", "data": {
			"IZ0123456789": {"tracking_number": "IZ0123456789", "status": "CREATED", "label_mode": "PRINT", "label_status": "PENDING", "packages": [{"number": "P1", "status": "CREATED", "package_password": null, "carrier_tracking": "CT-1"}], "order_date": "2026-11-23 09:00:00", "unknown_field": {"x": 1}},
			"IZ1234567890": {"tracking_number": "IZ1234567890", "status": "CREATED", "label_mode": "CARRIER", "label_status": "NOT_APPLICABLE", "packages": []}}}`},
	})
	got, err := c.Create(ctx, order(shipment("UPS", "A"), shipment("UPS", "B")))
	if err != nil {
		t.Fatal(err)
	}
	if got.OrderToken != "3f2a9c" || got.OrderNumber != "OP23100000X" || len(got.Shipments) != 2 {
		t.Fatalf("created %+v", got)
	}
	if s := got.Shipments[0]; s.TrackingNumber != "IZ0123456789" || s.LabelMode != shipping.LabelPrint || s.LabelStatus != shipping.LabelPending ||
		s.Packages[0].CarrierTracking != "CT-1" || s.OrderDate == "" {
		t.Errorf("first shipment not completed from detail: %+v", s)
	}
	if s := got.Shipments[1]; s.LabelMode != shipping.LabelCarrier {
		t.Errorf("second shipment: %+v", s)
	}
	if n := calls["/api/v1/shipments/detail"].Load(); n != 1 {
		t.Errorf("shipments named by number are followed by exactly one detail call, got %d", n)
	}
}

func TestCreateKeepsTheOrderWhenTheFollowUpFails(t *testing.T) {
	c, _ := recorded(t, map[string]answer{
		"/api/v1/shipments/create": {200, `{"status": 200, "message": "ok", "data": {"order": "h", "order_number": "N1", "shipments": ["IZ1"]}}`},
		"/api/v1/shipments/detail": {404, `{"status": 404, "message": "No shipment found"}`},
	})
	got, err := c.Create(ctx, order(shipment("UPS", "A")))
	if err != nil || got.Shipments[0].TrackingNumber != "IZ1" || got.OrderNumber != "N1" {
		t.Fatalf("an order that was created must not be reported as failed: %+v %v", got, err)
	}
}

func TestCreateReadsObjectsAnd201(t *testing.T) {
	c, calls := recorded(t, map[string]answer{
		"/api/v1/shipments/create": {201, `{"status": 201, "message": "Created", "data": {"order": {"id": 7, "number": "SO7", "token": "tok"}, "shipments": [
			{"tracking_number": "T1", "status": "CREATED", "label_mode": "PRINT", "label_status": "PENDING", "packages": [{"number": "T101", "status": "CREATED", "package_password": null}]}]}}`},
		"/api/v1/shipments/detail": {200, `{"status": 200, "message": "", "data": {}}`},
	})
	got, err := c.Create(ctx, order(shipment("UPS", "A")))
	if err != nil || got.OrderToken != "tok" || got.OrderNumber != "SO7" || got.Shipments[0].LabelStatus != shipping.LabelPending {
		t.Fatalf("created %+v %v", got, err)
	}
	if n := calls["/api/v1/shipments/detail"].Load(); n != 0 {
		t.Errorf("objects need no follow-up, got %d detail calls", n)
	}
}

func TestMoneyAsNumberOrString(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     float64
		ok       bool
	}{
		{"number", `{"value": 500, "currency": "CZK"}`, 500, true},
		{"string", `{"value": "500", "currency": "CZK"}`, 500, true},
		{"decimal string", `{"value": "12.50", "currency": "EUR"}`, 12.5, true},
		{"null", `{"value": null, "currency": "CZK"}`, 0, true},
		{"words", `{"value": "five", "currency": "CZK"}`, 0, false},
		{"NaN", `{"value": "NaN", "currency": "CZK"}`, 0, false},
		{"Inf", `{"value": "Inf", "currency": "CZK"}`, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m shipping.Money
			err := json.Unmarshal([]byte(tc.in), &m)
			if (err == nil) != tc.ok || tc.ok && m.Value != tc.want {
				t.Errorf("%s: %+v %v", tc.in, m, err)
			}
		})
	}
}

func TestRatesWithStringPrices(t *testing.T) {
	c, _ := recorded(t, map[string]answer{
		"/api/v1/rates/get": {200, `{"status": 200, "message": "Found 1 offers", "rates": [{"carrier": "UPS", "service": "Express", "service_id": 701,
			"pickup_date": "2026-11-24", "delivery_date": "2026-11-25", "price": {"value": "180.00", "currency": "CZK"},
			"price_vat": {"value": "217.80", "currency": "CZK"}, "selectable": true, "label_mode": "PRINT", "delivery_branch_required": false, "printable": true, "extra": 1}]}`},
	})
	rates, err := c.Rates(ctx, shipping.RateRequest{Currency: "CZK", Shipment: shipment("", "")})
	if err != nil || len(rates) != 1 || rates[0].PriceVAT.Value != 217.8 || rates[0].Carrier != "UPS" {
		t.Fatalf("rates %+v %v", rates, err)
	}
}

func TestDetailKeyedOrListed(t *testing.T) {
	for name, data := range map[string]string{
		"keyed":  `{"T1": {"status": "EXPORTED", "label_mode": "PRINT", "label_status": "READY", "packages": []}}`,
		"listed": `[{"tracking_number": "T1", "status": "EXPORTED", "label_mode": "PRINT", "label_status": "READY", "packages": []}]`,
	} {
		t.Run(name, func(t *testing.T) {
			c, _ := recorded(t, map[string]answer{"/api/v1/shipments/detail": {200, `{"status": 200, "message": "", "data": ` + data + `}`}})
			d, err := c.Detail(ctx, shipping.DetailRequest{Shipments: []string{"T1"}}, false)
			if err != nil || d["T1"].LabelStatus != shipping.LabelReady || d["T1"].TrackingNumber != "T1" {
				t.Errorf("detail %+v %v", d, err)
			}
		})
	}
}

func TestPointsWithoutPagingAreAllOfThem(t *testing.T) {
	c, _ := recorded(t, map[string]answer{"/api/v1/parcelpoints/list": {200, `{"status": 200, "message": "Found 2", "data": {
		"12": {"code": "A1", "name": "Point A", "street": "S 1", "city": "Praha", "zip": "110 00", "country": "CZ", "carrier": "SPS", "is_locker": false, "location": {"lat": 50, "lng": 14}, "pickup_branch_location_id": 900},
		"7": {"code": "B2", "name": "Point B", "street": "S 2", "city": "Brno", "zip": "602 00", "country": "CZ", "carrier": "SPS", "is_locker": true, "pickup_branch_location_id": 901}}}`}})
	page, err := c.ParcelPoints(ctx, shipping.PointQuery{Carrier: "SPS", Country: "CZ"})
	if err != nil || len(page.Points) != 2 || page.Pages != 1 || page.Total != 2 {
		t.Fatalf("points %+v %v", page, err)
	}
	if page.Points[0].ID != 7 || page.Points[1].ID != 12 || !strings.EqualFold(page.Points[1].Code, "A1") {
		t.Errorf("ids come from the keys, in order: %+v", page.Points)
	}
}
