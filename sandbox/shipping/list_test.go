package shipping

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"
	"time"
)

// listAll merges the data of shipments/list at offset 0, 100, 200… until a
// page holds fewer than 100, as real clients page the list.
func (e *env) listAll(key, query string) map[string]any {
	e.t.Helper()
	all := map[string]any{}
	for offset := 0; ; offset += ListStep {
		a := e.call("GET", fmt.Sprintf("/api/v1/shipments/list?offset=%d&%s", offset, query), key, nil)
		if a.Status != 200 {
			e.t.Fatalf("list at offset %d: %d %s", offset, a.Status, a.Raw)
		}
		for tn, v := range a.Data() {
			if _, twice := all[tn]; twice {
				e.t.Errorf("%s listed on two pages", tn)
			}
			all[tn] = v
		}
		if len(a.Data()) < ListStep {
			return all
		}
	}
}

var trackingNumberShape = regexp.MustCompile(`^[A-Z0-9]{6,}$`)

// public-evidence.md: data is keyed by tracking number, each entry with
// status and delivery_date; paged by offset in steps of 100, nothing else
// inside data. Merging offset 0, 100 and 200 finds all 130 of 130.
func TestListDataIsKeyedByTrackingNumberAndPagedByOffset(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		body, _ := json.Marshal(orderBody("CREDIT", shipmentTo("ups", "ONDEMAND")))
		made, err := e.svc.CreateMany(key1, body, 130)
		if err != nil {
			t.Fatal(err)
		}
		merged := map[string]any{}
		for _, offset := range []int{0, 100, 200} {
			a := e.call("GET", fmt.Sprintf("/api/v1/shipments/list?offset=%d", offset), key1, nil)
			if want := min(max(130-offset, 0), 100); len(a.Data()) != want {
				t.Errorf("offset %d: %d shipments, want %d", offset, len(a.Data()), want)
			}
			for tn, v := range a.Data() {
				entry, ok := v.(map[string]any)
				if !ok || !trackingNumberShape.MatchString(tn) {
					t.Fatalf("offset %d: data[%q] = %v is not a shipment under its tracking number", offset, tn, v)
				}
				if entry["status"] == nil || entry["delivery_date"] == nil || entry["tracking_number"] != tn {
					t.Errorf("data[%s] lacks status or delivery_date: %v", tn, entry)
				}
				merged[tn] = entry
			}
		}
		for _, m := range made {
			if merged[m.TrackingNumber] == nil {
				t.Errorf("%s is on no page", m.TrackingNumber)
			}
		}
		if len(merged) != 130 {
			t.Errorf("merged %d of 130", len(merged))
		}
		// The newest come first: the last made is on the first page.
		first := e.call("GET", "/api/v1/shipments/list", key1, nil).Data()
		if first[made[129].TrackingNumber] == nil || first[made[0].TrackingNumber] != nil {
			t.Error("the first page does not start with the newest shipments")
		}
	})
}

// The documented filters work together with offset.
func TestListFiltersKeepWorkingWithOffset(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		for i := 0; i < 3; i++ {
			sh := shipmentTo("ups", "ONDEMAND")
			sh["reference"] = fmt.Sprintf("F%d", i)
			e.create(key1, sh)
		}
		e.create(key2, shipmentTo("ups", "ONDEMAND"))
		gone, _ := e.create(key1, shipmentTo("fedex", "ONDEMAND"))
		if a := e.call("POST", "/api/v1/shipments/storno", key1, map[string]any{"shipments": []string{gone}}); a.Status != 200 {
			t.Fatalf("storno: %s", a.Raw)
		}
		for q, want := range map[string]int{
			"": 4, "status=OPEN": 3, "status=STORNO": 1, "reference=F1": 1, "reference=F1&offset=100": 0,
			"date_from=2026-11-23&date_to=2026-11-23": 4, "date_from=2026-11-24": 0, "offset=2": 2,
		} {
			if a := e.call("GET", "/api/v1/shipments/list?"+q, key1, nil); a.Status != 200 || len(a.Data()) != want {
				t.Errorf("%q: %d %d shipments, want %d", q, a.Status, len(a.Data()), want)
			}
		}
		if d := e.call("GET", "/api/v1/shipments/list?status=STORNO", key1, nil).Data(); d[gone] == nil {
			t.Errorf("STORNO lists %v, not %s", d, gone)
		}
		e.advance(10 * time.Minute)
		for tn, v := range e.call("GET", "/api/v1/shipments/list?status=ACTIVE&tracking=1", key1, nil).Data() {
			if v.(map[string]any)["tracking_information"] == nil {
				t.Errorf("%s without tracking_information", tn)
			}
		}
		for _, q := range []string{"offset=-100", "offset=x", "status=LOST"} {
			if a := e.call("GET", "/api/v1/shipments/list?"+q, key1, nil); a.Status != 400 {
				t.Errorf("%q: %d", q, a.Status)
			}
		}
		_, paging := e.call("GET", "/api/v1/shipments/list", key1, nil).Body["paging"]
		if paging != e.svc.documented() {
			t.Errorf("%s shapes: top-level paging %v", e.svc.cfg.Shapes, paging)
		}
	})
}
