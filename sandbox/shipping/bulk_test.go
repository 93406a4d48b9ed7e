package shipping

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Shipments made at once are the shipments create makes: in orders of at most
// 50, answered by detail, tracking and list like any other.
func TestCreateManyMakesWhatCreateMakes(t *testing.T) {
	e := newEnv(t)
	body, _ := json.Marshal(orderBody("CREDIT", shipmentTo("ups", "ONDEMAND")))
	made, err := e.svc.CreateMany(key1, body, 120)
	if err != nil {
		t.Fatal(err)
	}
	if len(made) != 120 {
		t.Fatalf("%d made", len(made))
	}
	orders := map[int64]int{}
	numbers := map[string]bool{}
	for i, m := range made {
		orders[m.OrderID]++
		numbers[m.TrackingNumber] = true
		if want := "REF-1-" + strconv.Itoa(i+1); m.Reference != want || len(m.Packages) != 1 || !strings.HasPrefix(m.Packages[0], m.TrackingNumber) {
			t.Errorf("made %+v, want reference %s and one package", m, want)
		}
	}
	if len(orders) != 3 || orders[made[0].OrderID] != 50 || orders[made[119].OrderID] != 20 || len(numbers) != 120 {
		t.Errorf("orders %v, %d numbers", orders, len(numbers))
	}
	// The next shipment ordered over HTTP follows on.
	tn, _ := e.create(key1, shipmentTo("ups", "ONDEMAND"))
	if numbers[tn] {
		t.Errorf("create reused %s", tn)
	}
	d := e.detail(key1, made[7].TrackingNumber, made[7].OrderToken)
	if d["reference"] != "REF-1-8" || d["service_id"].(float64) != float64(made[7].ServiceID) || d["carrier"] != made[7].Carrier {
		t.Errorf("detail %v", d)
	}
	e.advance(20 * time.Minute)
	a := e.call("POST", "/api/v1/shipments/tracking", key1, map[string]any{"shipments": []string{made[0].TrackingNumber, made[119].TrackingNumber}})
	if a.Status != 200 || len(a.Data()) != 2 {
		t.Fatalf("tracking: %d %s", a.Status, a.Raw)
	}
	if total := len(e.listAll(key1, "status=ACTIVE")); total != 121 {
		t.Errorf("%v active shipments listed", total)
	}
}

func TestCreateManyRefusesWhatCreateRefuses(t *testing.T) {
	e := newEnv(t)
	bad := shipmentTo("ups", "ONDEMAND")
	delete(bad, "to")
	for name, c := range map[string]struct {
		key  string
		body any
		n    int
	}{
		"invalid order":   {key1, orderBody("CREDIT", bad), 3},
		"unknown key":     {"nope", orderBody("CREDIT", shipmentTo("ups", "ONDEMAND")), 3},
		"two shipments":   {key1, orderBody("CREDIT", shipmentTo("ups", "ONDEMAND"), shipmentTo("ups", "ONDEMAND")), 3},
		"none":            {key1, orderBody("CREDIT", shipmentTo("ups", "ONDEMAND")), 0},
		"invoice refused": {key2, orderBody("INVOICE", shipmentTo("ups", "ONDEMAND")), 3},
	} {
		body, _ := json.Marshal(c.body)
		if made, err := e.svc.CreateMany(c.key, body, c.n); err == nil || len(made) > 0 {
			t.Errorf("%s: made %d, err %v", name, len(made), err)
		}
	}
	if total := len(e.listAll(key1, "")); total != 0 {
		t.Errorf("%v shipments after refusals", total)
	}
}
