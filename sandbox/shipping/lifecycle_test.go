package shipping

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestStatesTrackingAndReturns(t *testing.T) {
	e := newEnv(t)
	var tns []string
	for i := 0; i < 25; i++ {
		sh := shipmentTo("ups", "ONDEMAND")
		sh["packages"] = []any{pkg(1), pkg(2)}
		tn, _ := e.create(key1, sh)
		tns = append(tns, tn)
	}
	seen := map[string]bool{}
	dateRe, timeRe := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`), regexp.MustCompile(`^\d{2}:\d{2}:\d{2}$`)
	for step := 0; step < 27; step++ {
		e.advance(4 * time.Minute)
		if step == 1 { // exported: the clerk prints before the courier comes
			e.fetchLabels(key1, tns...)
		}
		a := e.call("POST", "/api/v1/shipments/tracking", "", map[string]any{"shipments": append(tns, "UNKNOWN1")})
		if !strings.Contains(a.Body["message"].(string), "Found 25 of 26") {
			t.Errorf("message %q", a.Body["message"])
		}
		for _, tn := range tns {
			tr := a.Data()[tn].(map[string]any)
			seen[tr["status"].(string)] = true
			pk := tr["packages"].([]any)
			if len(pk) != 2 {
				t.Fatalf("%d event lists for 2 packages", len(pk))
			}
			for _, evs := range pk {
				prev := "9999"
				for _, ev := range evs.([]any) {
					m := ev.(map[string]any)
					if !dateRe.MatchString(m["date"].(string)) || !timeRe.MatchString(m["time"].(string)) || m["name"] == "" {
						t.Fatalf("event %v", m)
					}
					at := m["date"].(string) + m["time"].(string)
					if at > prev {
						t.Fatalf("events not newest first: %v", evs)
					}
					prev = at
				}
			}
		}
	}
	for _, st := range []string{"EXPORTED", "ONPICKUP", "INTRANSIT", "ONDELIVERY", "DELIVERED"} {
		if !seen[st] {
			t.Errorf("never saw %s (saw %v)", st, seen)
		}
	}
	returned := 0
	a := e.call("POST", "/api/v1/shipments/tracking", "", map[string]any{"shipments": tns})
	for _, tn := range tns {
		tr := a.Data()[tn].(map[string]any)
		if tr["status"] != "DELIVERED" {
			t.Errorf("%s still %v after 108 minutes", tn, tr["status"])
		}
		if tr["returned"] == true {
			returned++
		}
	}
	if returned == 0 || returned == len(tns) {
		t.Errorf("%d of %d returned; want some", returned, len(tns))
	}
}

func TestListFiltersPagingAndStorno(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < 7; i++ {
		sh := shipmentTo("ups", "ONDEMAND")
		sh["reference"] = fmt.Sprintf("R%d", i)
		e.create(key1, sh)
	}
	e.create(key2, shipmentTo("ups", "ONDEMAND"))
	tn, _ := e.create(key1, shipmentTo("fedex", "ONDEMAND"))
	if a := e.call("POST", "/api/v1/shipments/storno", key2, map[string]any{"shipments": []string{tn}}); a.Status != 404 {
		t.Errorf("storno of another account's shipment: %d", a.Status)
	}
	if a := e.call("POST", "/api/v1/shipments/storno", key1, map[string]any{"shipments": []string{tn}}); a.Status != 200 {
		t.Errorf("storno: %s", a.Raw)
	}
	list := func(q string) map[string]any { return e.call("GET", "/api/v1/shipments/list?"+q, key1, nil).Data() }
	if d := list("status=OPEN"); len(d) != 7 {
		t.Errorf("OPEN: %d", len(d))
	}
	if d := list("status=STORNO"); len(d) != 1 || d[tn] == nil {
		t.Errorf("STORNO: %v", d)
	}
	if d := list("reference=R3"); len(d) != 1 {
		t.Errorf("reference: %d", len(d))
	}
	if d := list("date_from=2026-11-24"); len(d) != 0 {
		t.Errorf("date_from tomorrow: %d", len(d))
	}
	e.advance(10 * time.Minute)
	var active []string
	for num, x := range list("status=ACTIVE&tracking=1") {
		if x.(map[string]any)["tracking_information"] == nil {
			t.Errorf("ACTIVE with tracking: %s has none", num)
		}
		active = append(active, num)
	}
	if len(active) != 7 {
		t.Errorf("ACTIVE: %d", len(active))
	}
	if a := e.call("POST", "/api/v1/shipments/storno", key1, map[string]any{"shipments": []string{active[0]}}); a.Status != 400 {
		t.Errorf("storno on pickup: %d", a.Status)
	}
	e.fetchLabels(key1, active...) // a courier takes only labelled parcels
	e.advance(100 * time.Minute)
	if d := list("status=DELIVERED"); len(d) != 7 {
		t.Errorf("DELIVERED: %d", len(d))
	}
	if a := e.call("GET", "/api/v1/shipments/list?status=LOST", key1, nil); a.Status != 400 || a.FieldError("status") == "" {
		t.Errorf("unknown status filter: %d", a.Status)
	}
	if a := e.call("POST", "/api/v1/shipments/manifest", key1, map[string]any{"shipments": []string{active[1]}}); a.Status != 200 || pdfPages(t, a) < 1 {
		t.Errorf("manifest: %d", a.Status)
	}
}

func TestCartDrafts(t *testing.T) {
	e := newEnv(t)
	a := e.call("POST", "/api/v2/public/cart/create", key1, map[string]any{"to": recipient(), "referenceNumber": "OBJ-77", "pickupBranch": 1})
	if a.Status != 201 || a.Body["source"] != "API" || a.Body["referenceNumber"] != "OBJ-77" || a.Body["rates"] != nil || a.Body["errors"] != nil {
		t.Fatalf("draft: %d %s", a.Status, a.Raw)
	}
	if !regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`).MatchString(a.Body["modified"].(string)) {
		t.Errorf("modified %v", a.Body["modified"])
	}
	defaults := fmt.Sprint(a.Body["defaults"])
	for _, d := range []string{"from", "packages", "serviceId", "pickupBranch"} {
		if !strings.Contains(defaults, d) {
			t.Errorf("default %s not applied: %v", d, defaults)
		}
	}
	if a.Body["serviceId"].(float64) == 0 || a.Body["pickupBranch"] == "" {
		t.Errorf("defaults not filled: %s", a.Raw)
	}
	w := e.call("POST", "/api/v2/public/cart/create", key1, map[string]any{"to": map[string]any{"surname": "Novák"}})
	if w.Status != 201 || w.Body["errors"] == nil {
		t.Errorf("incomplete draft has no warnings: %s", w.Raw)
	}
	if b := e.call("POST", "/api/v2/public/cart/create", key1, map[string]any{"to": map[string]any{"surname": "X", "zip": "12"}}); b.Status != 400 || !strings.Contains(b.FieldError("to.zip"), "postal code") {
		t.Errorf("invalid postal code: %s", b.Raw)
	}
	if b := e.call("POST", "/api/v2/public/cart/create", key1, map[string]any{"referenceNumber": "x"}); b.Status != 400 || b.FieldError("to") == "" {
		t.Errorf("missing recipient: %s", b.Raw)
	}
}
