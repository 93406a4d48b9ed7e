package shipping

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
)

// codeCases are the ways a client may write a carrier code: as the service
// gives it, in lower case (as the provider's web app imports it) and mixed.
func codeCases(code string) []string {
	mixed := []rune(strings.ToLower(code))
	for i := 0; i < len(mixed); i += 2 {
		mixed[i] = unicode.ToUpper(mixed[i])
	}
	return []string{code, strings.ToLower(code), string(mixed)}
}

// carrierShipment is a shipment the carrier can take: a recipient in a country
// it serves, and a hand-over its group allows (the same-day courier collects
// one-off only, the postal carrier takes packages at its points and delivers
// to them).
func carrierShipment(e *env, c *Carrier, code string) map[string]any {
	sh := shipmentTo(code, "REGULAR")
	if !c.serves("CZ") {
		sh["to"] = map[string]any{"firstname": "Ján", "surname": "Kováč", "street": "Obchodná 52", "city": "Bratislava", "zip": "811 06", "country": "SK", "phone": "+421905312448"}
	}
	switch {
	case LabelMode(c.Group, FromPickupAddress) == "" && LabelMode(c.Group, FromAddress) != "":
		sh["type"] = "ONDEMAND"
	case LabelMode(c.Group, FromPickupAddress) == "":
		p := point(e, c.Code, false)
		sh["pickup_branch"], sh["delivery_branch"] = p.Code, p.Code
	}
	return sh
}

// Real clients name carriers by the carriers' own codes, in any case: every
// code of the catalog finds offers on rates/get and orders on
// shipments/create, and the answers name the carrier by its code as the
// service has it (upper case); the tracking number starts with the code's
// letters.
func TestRealCarrierCodesInAnyCase(t *testing.T) {
	codes := CarrierCodes()[:len(carrierSeeds)]
	for _, want := range []string{"PPL", "DPD", "GLS", "GLS-SK", "TOPTRANS", "UPS", "FEDEX", "SPS", "WEDO", "LIFTAGO", "BALIKOVNA", "ZASILKOVNA"} {
		if !slices.Contains(codes, want) {
			t.Errorf("the catalog has no carrier %s: %v", want, codes)
		}
	}
	bothShapes(t, func(t *testing.T, e *env) {
		for _, c := range e.svc.carriers {
			for _, code := range codeCases(c.Code) {
				sh := carrierShipment(e, c, code)
				rates := e.call("POST", "/api/v1/rates/get", "", sh)
				list, _ := rates.Body["rates"].([]any)
				if rates.Status != 200 || len(list) == 0 {
					t.Errorf("rates/get carrier %q: %d %s", code, rates.Status, rates.Raw)
					continue
				}
				for _, r := range list {
					if got := r.(map[string]any)["carrier"]; got != c.Code {
						t.Errorf("rates/get carrier %q: an offer of %v", code, got)
					}
				}
				created := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", sh))
				if created.Status != 200 {
					t.Errorf("shipments/create carrier %q: %d %s", code, created.Status, created.Raw)
					continue
				}
				tn := createdNumbers(t, created)[0]
				if !strings.HasPrefix(tn, strings.ReplaceAll(c.Code, "-", "")) {
					t.Errorf("carrier %q: tracking number %s", code, tn)
				}
				if d := e.detail(key1, tn); d["carrier"] != c.Code {
					t.Errorf("carrier %q: detail names %v", code, d["carrier"])
				}
			}
		}
	})
}

// A code the service does not know — a made-up one, or the neutral codes the
// sandbox once had — is refused as a field error on carrier, by every
// operation that takes one.
func TestUnknownCarrierCodeIsAFieldError(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		for _, code := range []string{"NOPE", "G3A", "g1", "GLS_SK", "PPL-"} {
			rates := e.call("POST", "/api/v1/rates/get", "", shipmentTo(code, "REGULAR"))
			if rates.Status != 400 || !strings.Contains(rates.FieldError("carrier"), "Unknown carrier") {
				t.Errorf("rates/get carrier %q: %d %s", code, rates.Status, rates.Raw)
			}
			for _, path := range []string{"/api/v1/shipments/create", "/api/v1/shipments/validate"} {
				a := e.call("POST", path, key1, orderBody("CREDIT", shipmentTo(code, "REGULAR")))
				if a.Status != 400 || !strings.Contains(a.FieldError("shipments[0].carrier"), "Unknown carrier") {
					t.Errorf("%s carrier %q: %d %s", path, code, a.Status, a.Raw)
				}
			}
			points := e.call("GET", "/api/v1/parcelpoints/list?country=CZ&carrier="+code, "", nil)
			if points.Status != 400 || points.FieldError("carrier") == "" {
				t.Errorf("parcelpoints/list carrier %q: %d %s", code, points.Status, points.Raw)
			}
		}
	})
}

// Point codes are in the carriers' style: numbered through the carrier
// (PPL--1) or by town (ZASILKOVNA-PRAHA-1, BALIKOVNA-CESKE-BUDEJOVICE-3);
// unique within the carrier and the same for the same seed. The list answers
// them so, and a create finds a point by its code in any case.
func TestPointCodesInTheCarriersStyle(t *testing.T) {
	e := newEnv(t)
	seen := map[string]bool{}
	styles := map[string]map[bool]int{}
	for _, p := range e.svc.points {
		code := regexp.QuoteMeta(p.Carrier)
		numbered := regexp.MustCompile(`^` + code + `--[1-9][0-9]*$`).MatchString(p.Code)
		byTown := regexp.MustCompile(`^` + code + `-[A-Z]+(-[A-Z]+)*-[1-9][0-9]*$`).MatchString(p.Code)
		if !numbered && !byTown {
			t.Errorf("point %d of %s: code %q", p.ID, p.Carrier, p.Code)
		}
		if byTown {
			town := strings.TrimPrefix(p.Code[:strings.LastIndex(p.Code, "-")], p.Carrier+"-")
			if want := strings.ToUpper(strings.Join(strings.FieldsFunc(fold(p.City), func(r rune) bool { return r == ' ' || r == '-' }), "-")); town != want {
				t.Errorf("point %s is in %s", p.Code, p.City)
			}
		}
		if styles[p.Carrier] == nil {
			styles[p.Carrier] = map[bool]int{}
		}
		styles[p.Carrier][numbered]++
		if seen[p.Carrier+"/"+p.Code] {
			t.Errorf("point code %s of %s twice", p.Code, p.Carrier)
		}
		seen[p.Carrier+"/"+p.Code] = true
		if len(p.Code) > 40 {
			t.Errorf("point code %s is longer than a dashboard keeps", p.Code)
		}
	}
	for carrier, s := range styles {
		if len(s) != 1 {
			t.Errorf("%s mixes styles: %v", carrier, s)
		}
	}
	if styles["PPL"][true] == 0 || styles["ZASILKOVNA"][false] == 0 {
		t.Errorf("styles %v", styles)
	}
	for _, want := range []string{"PPL/PPL--1", "ZASILKOVNA/ZASILKOVNA-PRAHA-1", "BALIKOVNA/BALIKOVNA-CESKE-BUDEJOVICE-1", "SPS/SPS-BRATISLAVA-1"} {
		if !seen[want] {
			t.Errorf("no point %s", want)
		}
	}
	again, other := newEnv(t), generatePoints(2, e.svc.carriers)
	for i, p := range e.svc.points {
		if q := again.svc.points[i]; q.Code != p.Code || q.Carrier != p.Carrier {
			t.Fatalf("point %d: %s/%s, then %s/%s with the same seed", p.ID, p.Carrier, p.Code, q.Carrier, q.Code)
		}
	}
	if len(other) == len(e.svc.points) && other[len(other)-1].Code == e.svc.points[len(other)-1].Code && other[0].Code == e.svc.points[0].Code {
		t.Error("another seed, the same points")
	}

	bothShapes(t, func(t *testing.T, e *env) {
		a := e.call("GET", "/api/v1/parcelpoints/list?country=CZ&carrier=zasilkovna&city=Praha", "", nil)
		if a.Status != 200 || len(a.Data()) == 0 {
			t.Fatalf("points: %d %s", a.Status, a.Raw)
		}
		for _, x := range a.Data() {
			if p := x.(map[string]any); p["carrier"] != "ZASILKOVNA" || !strings.HasPrefix(p["code"].(string), "ZASILKOVNA-PRAHA-") {
				t.Errorf("point %v", p)
			}
		}
		sh := shipmentTo("Zasilkovna", "REGULAR")
		sh["pickup_branch"] = "zasilkovna-praha-1"
		tn := createdNumbers(t, e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", sh)))[0]
		if d := e.detail(key1, tn); d["carrier"] != "ZASILKOVNA" {
			t.Errorf("detail %v", d)
		}
	})
}

// The OpenAPI document says which carrier plays which of the spec's groups.
func TestCarrierRolesNameEveryCarrierAndGroup(t *testing.T) {
	doc := CarrierRoles()
	for _, s := range carrierSeeds {
		if !strings.Contains(doc, s.code) || !strings.Contains(doc, s.group+",") {
			t.Errorf("the description lacks %s (%s): %s", s.code, s.group, doc)
		}
	}
}

// A state saved when the carriers had neutral codes is read with the real
// ones: its shipments, pickups and behaviours name UPS where they said G3A,
// and work on as before.
func TestFormerCodesInASavedStateAreRead(t *testing.T) {
	e := newEnv(t)
	tn, _ := e.create(key1, shipmentTo("ups", "ONDEMAND"))
	if err := e.svc.SetCarrierBehaviour("fedex", CarrierBehaviour{FailLabels: true}); err != nil {
		t.Fatal(err)
	}
	snap, err := e.svc.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	old := strings.ReplaceAll(strings.ReplaceAll(string(snap), `"carrier":"UPS"`, `"carrier":"G3A"`), `"FEDEX":`, `"g3b":`)
	if old == string(snap) || strings.Contains(old, `"FEDEX"`) {
		t.Fatalf("the snapshot names no carrier as expected: %s", snap)
	}
	again := newEnv(t)
	if err := again.svc.Restore([]byte(old)); err != nil {
		t.Fatal(err)
	}
	if d := again.detail(key1, tn); d["carrier"] != "UPS" {
		t.Errorf("restored carrier %v", d["carrier"])
	}
	if !again.svc.behaviour["FEDEX"].FailLabels {
		t.Errorf("behaviours %v", again.svc.behaviour)
	}
	again.advance(10 * time.Minute)
	again.fetchLabels(key1, tn)
}
