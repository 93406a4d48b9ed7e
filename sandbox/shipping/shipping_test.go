package shipping

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestAuthModel(t *testing.T) {
	e := newEnv(t)
	tn, _ := e.create(key1, shipmentTo("ups", "ONDEMAND"))
	nums := map[string]any{"shipments": []string{tn}}
	for _, key := range []string{"", "wrong-key"} {
		// Public operations process a missing or invalid key as unauthenticated.
		if a := e.call("POST", "/api/v1/rates/get", key, map[string]any{"type": "ONDEMAND", "to": map[string]any{"country": "CZ"}, "packages": []any{pkg(1)}}); a.Status != 200 {
			t.Errorf("rates/get with key %q: %d", key, a.Status)
		}
		if a := e.call("POST", "/api/v1/shipments/tracking", key, nums); a.Status != 200 {
			t.Errorf("tracking with key %q: %d", key, a.Status)
		}
		if a := e.call("POST", "/api/v1/shipments/detail", key, nums); a.Status != 200 {
			t.Errorf("detail with key %q: %d", key, a.Status)
		}
		if a := e.call("POST", "/api/v1/shipments/validate", key, orderBody("CREDIT", shipmentTo("ups", "ONDEMAND"))); a.Status != 400 || a.FieldError("payer") == "" {
			t.Errorf("validate without key and payer: %d %s", a.Status, a.Raw)
		}
		// Login operations answer 401.
		for _, op := range []struct{ method, path string }{
			{"POST", "/api/v1/shipments/label"}, {"GET", "/api/v1/shipments/list"}, {"POST", "/api/v1/shipments/storno"},
			{"POST", "/api/v1/shipments/manifest"}, {"GET", "/api/v1/contacts/list"}, {"POST", "/api/v2/public/cart/create"},
		} {
			var body any
			if op.method == "POST" {
				body = nums
			}
			if a := e.call(op.method, op.path, key, body); a.Status != 401 {
				t.Errorf("%s %s with key %q: %d, want 401", op.method, op.path, key, a.Status)
			}
		}
	}
	// Header names are case-insensitive.
	req, _ := http.NewRequest("GET", e.url+"/api/v1/shipments/list", nil)
	req.Header["X-ApiKey"] = []string{key1}
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("X-ApiKey spelling refused: %v %v", err, resp.StatusCode)
	}
}

func TestCreateWithoutKeyIsOnlineAndUnlinked(t *testing.T) {
	e := newEnv(t)
	o := orderBody("CREDIT", shipmentTo("ups", "ONDEMAND"))
	o["payer"] = map[string]any{"firstname": "Ann", "surname": "Lee", "email": "ann@example.com"}
	a := e.call("POST", "/api/v1/shipments/create", "", o)
	if a.Status != 200 {
		t.Fatalf("anonymous create: %d %s", a.Status, a.Raw)
	}
	token, number := a.Data()["order"].(string), a.Data()["order_number"].(string)
	if token == "" || number == "" {
		t.Errorf("anonymous order %v: want a token and a number", a.Data())
	}
	tn := createdNumbers(t, a)[0]
	if list := e.call("GET", "/api/v1/shipments/list", key1, nil); len(list.Data()) != 0 {
		t.Errorf("an anonymous order appears in an account's list")
	}
	e.advance(30 * time.Minute)
	if d := e.detail("", tn); d["status"] != "CREATED" || d["label_status"] != "PENDING" {
		t.Errorf("unpaid ONLINE after 30 min: %v %v", d["status"], d["label_status"])
	}
	if err := e.svc.PayOrder(number); err != nil {
		t.Fatal(err) // paying proves the order is ONLINE
	}
	e.advance(2 * time.Minute)
	if d := e.detail("", tn); d["status"] != "EXPORTED" || d["label_status"] != "READY" {
		t.Errorf("paid ONLINE after 2 min: %v %v", d["status"], d["label_status"])
	}
	if err := e.svc.PayOrder(token); err == nil {
		t.Error("an order was paid twice")
	}
}

func TestOwnerOnlyFieldsAndOrderToken(t *testing.T) {
	e := newEnv(t)
	p := point(e, "sps", false)
	sh := shipmentTo("sps", "REGULAR")
	sh["pickup_branch"] = p.Code
	tn, token := e.create(key1, sh)
	created := e.call("POST", "/api/v1/shipments/detail", key1, map[string]any{"shipments": []string{tn}}).Data()[tn].(map[string]any)
	if pw := created["packages"].([]any)[0].(map[string]any)["package_password"]; pw != nil {
		t.Errorf("package_password before export: %v", pw)
	}
	e.advance(2 * time.Minute)
	pwOf := func(d map[string]any) any { return d["packages"].([]any)[0].(map[string]any)["package_password"] }
	owner := e.detail(key1, tn)
	if pw, _ := pwOf(owner).(string); len(pw) != 6 {
		t.Errorf("owner sees password %v, want six characters", pwOf(owner))
	}
	if _, ok := owner["label_less"]; !ok {
		t.Error("owner does not see label_less")
	}
	for _, key := range []string{key2, "", "bogus"} {
		d := e.detail(key, tn)
		if pwOf(d) != nil || d["label_less"] != nil || d["to"] != nil || d["reference"] != nil {
			t.Errorf("key %q sees owner-only fields: %v", key, d)
		}
		if d["label_mode"] == nil || d["label_status"] == nil {
			t.Errorf("key %q does not see label_mode and label_status", key)
		}
		if withToken := e.detail(key, tn, token); pwOf(withToken) != pwOf(owner) {
			t.Errorf("key %q with the order token sees password %v", key, pwOf(withToken))
		}
		if wrong := e.detail(key, tn, "not-the-token"); pwOf(wrong) != nil {
			t.Errorf("a wrong token unlocks the password")
		}
	}
}

// The spec's label-mode table: offered combinations and their mode, and
// combinations marked none not offered and refused on create.
func TestLabelModeTable(t *testing.T) {
	e := newEnv(t)
	type cell struct {
		group, typ string
		atPoint    bool
		want       string
	}
	var cells []cell
	for g, modes := range labelModes {
		cells = append(cells, cell{g, "ONDEMAND", false, modes[0]}, cell{g, "REGULAR", false, modes[1]}, cell{g, "OCCASIONAL", false, modes[1]}, cell{g, "REGULAR", true, modes[2]})
	}
	for _, c := range cells {
		for _, car := range e.svc.carriers {
			if car.Group != c.group {
				continue
			}
			req := map[string]any{"type": c.typ, "carrier": car.Code, "to": map[string]any{"country": car.Countries[0]}, "packages": []any{pkg(1)}}
			if c.atPoint {
				req["pickup_branch"] = "1"
			}
			a := e.call("POST", "/api/v1/rates/get", "", req)
			rates, _ := a.Body["rates"].([]any)
			if c.want == "" {
				if len(rates) != 0 {
					t.Errorf("%s %s point=%v: offered %v, the table says none", car.Code, c.typ, c.atPoint, rates)
				}
				sh := shipmentTo(car.Code, c.typ)
				sh["to"].(map[string]any)["country"] = car.Countries[0]
				sh["to"].(map[string]any)["zip"] = "811 01"
				if c.atPoint {
					sh["pickup_branch"] = "1"
				}
				if cr := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", sh)); cr.Status != 400 {
					t.Errorf("%s %s point=%v: create %d, want 400", car.Code, c.typ, c.atPoint, cr.Status)
				}
				continue
			}
			if len(rates) == 0 && car.Points || len(rates) == 0 && !c.atPoint {
				t.Errorf("%s %s point=%v: no offer, want %s", car.Code, c.typ, c.atPoint, c.want)
				continue
			}
			for _, r := range rates {
				if m := r.(map[string]any)["label_mode"]; m != c.want {
					t.Errorf("%s %s point=%v: label_mode %v, want %s", car.Code, c.typ, c.atPoint, m, c.want)
				}
			}
		}
	}
}

func TestOffersAreSortedAndExplained(t *testing.T) {
	e := newEnv(t)
	a := e.call("POST", "/api/v1/rates/get", key1, map[string]any{"type": "ONDEMAND", "to": map[string]any{"country": "CZ"}, "packages": []any{pkg(40)},
		"services": []any{map[string]any{"code": "COD", "data": map[string]any{"value": map[string]any{"value": 500, "currency": "CZK"}}}}})
	rates := a.Body["rates"].([]any)
	if len(rates) < 3 || !strings.HasPrefix(a.Body["message"].(string), "Found") {
		t.Fatalf("rates: %s", a.Raw)
	}
	prev := 0.0
	unselectable := 0
	for _, r := range rates {
		m := r.(map[string]any)
		if m["label_mode"] == "CODE" {
			t.Error("an offer with label_mode CODE")
		}
		price := m["price"].(map[string]any)["value"].(float64)
		vat := m["price_vat"].(map[string]any)["value"].(float64)
		if price < prev || vat <= price {
			t.Errorf("prices out of order or VAT missing: %v", m)
		}
		prev = price
		if m["selectable"] == false {
			unselectable++
			if m["reason"] == "" || m["reason"] == nil {
				t.Errorf("unselectable offer without a reason: %v", m)
			}
		}
	}
	if unselectable == 0 {
		t.Error("40 kg with COD made no offer unselectable")
	}
}

func TestLabelStatusAndLabelOperation(t *testing.T) {
	e := newEnv(t)
	printTN, _ := e.create(key1, shipmentTo("ups", "ONDEMAND"))
	carrierTN, _ := e.create(key1, shipmentTo("dpd", "ONDEMAND"))
	if err := e.svc.SetCarrierBehaviour("toptrans", CarrierBehaviour{FailLabels: true}); err != nil {
		t.Fatal(err)
	}
	failTN, _ := e.create(key1, shipmentTo("toptrans", "REGULAR"))
	two := shipmentTo("fedex", "ONDEMAND")
	two["packages"] = []any{pkg(1), pkg(2)}
	twoTN, _ := e.create(key1, two)

	label := func(key string, tns ...string) answer {
		return e.call("POST", "/api/v1/shipments/label", key, map[string]any{"shipments": tns})
	}
	if d := e.detail(key1, printTN); d["label_status"] != "PENDING" || d["status"] != "CREATED" {
		t.Errorf("new PRINT shipment: %v %v", d["status"], d["label_status"])
	}
	if d := e.detail(key1, carrierTN); d["label_status"] != "NOT_APPLICABLE" || d["label_mode"] != "CARRIER" {
		t.Errorf("CARRIER shipment: %v %v", d["label_mode"], d["label_status"])
	}
	if a := label(key1, printTN); a.Status != 404 {
		t.Errorf("label in CREATED: %d, want 404", a.Status)
	}
	e.advance(2 * time.Minute)
	if d := e.detail(key1, printTN); d["label_status"] != "READY" || d["labels_ready"] != true {
		t.Errorf("exported PRINT shipment: %v", d["label_status"])
	}
	if d := e.detail(key1, failTN); d["label_status"] != "FAILED" {
		t.Errorf("failing carrier: %v", d["label_status"])
	}
	if a := label(key1, "G0000000"); a.Status != 404 {
		t.Errorf("label of an unknown shipment: %d", a.Status)
	}
	if a := label(key2, printTN); a.Status != 404 {
		t.Errorf("label of another account's shipment: %d", a.Status)
	}
	if a := label(key1, carrierTN); a.Status != 400 {
		t.Errorf("label of a CARRIER shipment: %d", a.Status)
	}
	if a := label(key1, failTN); a.Status != 400 {
		t.Errorf("label of a FAILED shipment: %d", a.Status)
	}
	a := label(key1, printTN, twoTN)
	if a.Status != 200 {
		t.Fatalf("labels: %d %s", a.Status, a.Raw)
	}
	if n := pdfPages(t, a); n != 3 {
		t.Errorf("two shipments with 1+2 packages gave %d pages, want 3 in one PDF", n)
	}
}

func TestLabelFree(t *testing.T) {
	e := newEnv(t)
	g1 := point(e, "zasilkovna", false)
	ok := func() map[string]any {
		sh := shipmentTo("zasilkovna", "REGULAR")
		sh["pickup_branch"] = g1.Code
		sh["label_less"] = true
		return sh
	}
	cases := map[string]struct {
		mod  func(map[string]any)
		want string
	}{
		"other carrier": {func(s map[string]any) { s["carrier"] = "sps"; s["pickup_branch"] = point(e, "sps", false).Code }, msgLabelLessCarrier.EN},
		"two packages":  {func(s map[string]any) { s["packages"] = []any{pkg(1), pkg(1)} }, msgLabelLessPackages.EN},
		"to Slovakia": {func(s map[string]any) {
			to := recipient()
			to["country"], to["zip"], to["city"] = "SK", "811 01", "Bratislava"
			s["to"] = to
		}, msgLabelLessCountry.EN},
		"from an address": {func(s map[string]any) { delete(s, "pickup_branch") }, msgLabelLessPoint.EN},
	}
	for name, tc := range cases {
		sh := ok()
		tc.mod(sh)
		a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", sh))
		if a.Status != 400 || !strings.Contains(a.FieldError("shipments[0].label_less"), tc.want) {
			t.Errorf("%s: %d %s, want %q on shipments[0].label_less", name, a.Status, a.Raw, tc.want)
		}
	}
	tn, _ := e.create(key1, ok())
	if d := e.detail(key1, tn); d["label_mode"] != "CODE" || d["label_status"] != "PENDING" {
		t.Errorf("label-free before export: %v %v", d["label_mode"], d["label_status"])
	}
	e.advance(2 * time.Minute)
	d := e.detail(key1, tn)
	pw, _ := d["packages"].([]any)[0].(map[string]any)["package_password"].(string)
	if d["label_mode"] != "CODE" || d["label_status"] != "READY" || len(pw) != 6 || d["label_less"] != true {
		t.Errorf("label-free after export: %v", d)
	}
	if a := e.call("POST", "/api/v1/shipments/label", key1, map[string]any{"shipments": []string{tn}}); a.Status != 200 || pdfPages(t, a) != 1 {
		t.Errorf("information sheet: %d", a.Status)
	}

	// The carrier refuses the label-free export: an ordinary label instead.
	e.svc.SetCarrierBehaviour("zasilkovna", CarrierBehaviour{RefuseLabelLess: true})
	fb, _ := e.create(key1, ok())
	e.advance(2 * time.Minute)
	d = e.detail(key1, fb)
	if d["label_mode"] != "PRINT" || d["label_less"] != false || d["packages"].([]any)[0].(map[string]any)["package_password"] != nil {
		t.Errorf("refused label-free export: %v", d)
	}
}

func TestCODThroughTheAPI(t *testing.T) {
	e := newEnv(t)
	withCOD := func(data map[string]any) map[string]any {
		sh := shipmentTo("ups", "ONDEMAND")
		sh["services"] = []any{map[string]any{"code": "COD", "data": data}}
		return sh
	}
	val := func(v float64, cur string) map[string]any { return map[string]any{"value": v, "currency": cur} }
	a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", withCOD(map[string]any{"value": val(29.5, "CZK"), "bank_account": "19-2000145398", "bank_code": "800", "bank_variable": "12x"})))
	for field, says := range map[string]string{
		"shipments[0].services[0].data.value.value":   "minimum",
		"shipments[0].services[0].data.bank_account":  "modulo 11",
		"shipments[0].services[0].data.bank_code":     "four digits",
		"shipments[0].services[0].data.bank_variable": "digits",
	} {
		if !strings.Contains(a.FieldError(field), says) {
			t.Errorf("%s: %q, want %q (%s)", field, a.FieldError(field), says, a.Raw)
		}
	}
	good := map[string]any{"value": val(1250, "CZK"), "bank_account": "CZ6508000000192000145399"}
	if tn, _ := e.create(key1, withCOD(good)); tn == "" {
		t.Error("valid COD with an IBAN refused")
	}
	// rates/get accepts COD with only a value.
	r := e.call("POST", "/api/v1/rates/get", key1, withCOD(map[string]any{"value": val(300, "CZK")}))
	if r.Status != 200 || len(r.Body["rates"].([]any)) == 0 {
		t.Errorf("rates with COD value only: %d %s", r.Status, r.Raw)
	}
	// K1: the postal point carrier takes COD only for a single package.
	sh := withCOD(map[string]any{"value": val(300, "CZK"), "bank_account": "2000145399", "bank_code": "0800"})
	sh["carrier"], sh["type"], sh["pickup_branch"] = "balikovna", "REGULAR", point(e, "balikovna", false).Code
	sh["delivery_branch"] = point(e, "balikovna", false).Code
	sh["packages"] = []any{pkg(1), pkg(1)}
	if a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", sh)); !strings.Contains(a.FieldError("shipments[0].packages"), "single package") {
		t.Errorf("K1 two packages: %s", a.Raw)
	}
}

func TestParcelPointsAndBranchRules(t *testing.T) {
	e := newEnv(t)
	all := e.call("GET", "/api/v1/parcelpoints/list?per_page=1000", "", nil)
	total := int(all.Body["paging"].(map[string]any)["total"].(float64))
	if total < 1000 || len(all.Data()) != 1000 {
		t.Fatalf("%d points, page of %d", total, len(all.Data()))
	}
	for _, q := range []string{"carrier=sps&city=Plzen", "country=SK&q=bratislava", "zip=602", "q=" + point(e, "zasilkovna", false).Code} {
		a := e.call("GET", "/api/v1/parcelpoints/list?"+q, "", nil)
		if len(a.Data()) == 0 {
			t.Errorf("%s found nothing", q)
		}
		for _, v := range a.Data() {
			p := v.(map[string]any)
			if strings.Contains(q, "carrier=sps") && (p["carrier"] != "SPS" || p["city"] != "Plzeň") {
				t.Errorf("%s found %v", q, p)
			}
			if strings.Contains(q, "country=SK") && p["country"] != "SK" {
				t.Errorf("%s found %v", q, p)
			}
		}
	}
	if a := e.call("GET", "/api/v1/parcelpoints/list?per_page=5000", "", nil); a.Status != 400 || a.FieldError("per_page") == "" {
		t.Errorf("per_page 5000: %d", a.Status)
	}
	// A location shared by several carriers serves only those carriers.
	var shared int64
	var served map[string]bool
	for loc, pts := range e.svc.pointsByLoc {
		if len(pts) >= 2 && pts[0].Country == "CZ" {
			shared, served = loc, map[string]bool{}
			for _, p := range pts {
				served[p.Carrier] = true
			}
			break
		}
	}
	if shared == 0 {
		t.Fatal("no location serves several carriers")
	}
	for _, c := range []string{"zasilkovna", "ppl", "sps"} {
		sh := shipmentTo(c, "REGULAR")
		sh["pickup_branch_location"] = shared
		a := e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", sh))
		refused := strings.Contains(a.FieldError("shipments[0].pickup_branch_location"), "does not serve")
		if refused == served[strings.ToUpper(c)] {
			t.Errorf("location %d for %s: served=%v but refused=%v (%s)", shared, c, served[c], refused, a.Raw)
		}
	}
	// Branches need the carrier, belong to it, and '1' means any branch.
	sh := shipmentTo("sps", "REGULAR")
	delete(sh, "carrier")
	sh["service_id"] = e.svc.carrier("sps").Services[0].ID
	sh["pickup_branch"] = point(e, "sps", false).Code
	if a := e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", sh)); a.FieldError("shipments[0].carrier") == "" {
		t.Errorf("branch without carrier: %s", a.Raw)
	}
	sh = shipmentTo("sps", "REGULAR")
	sh["pickup_branch"] = "1"
	if a := e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", sh)); a.Status != 200 {
		t.Errorf("pickup_branch 1: %s", a.Raw)
	}
	sh["delivery_branch"] = point(e, "zasilkovna", false).Code
	if a := e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", sh)); a.FieldError("shipments[0].delivery_branch") == "" {
		t.Errorf("delivery branch of another carrier: %s", a.Raw)
	}
	// A package too big for a locker.
	locker := point(e, "sps", true)
	sh = shipmentTo("sps", "REGULAR")
	sh["pickup_branch"] = locker.Code
	sh["packages"] = []any{map[string]any{"weight": 2, "width": 50, "height": 50, "length": 70}}
	if a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", sh)); !strings.Contains(a.FieldError("shipments[0].packages[0]"), "too big for the pickup branch") {
		t.Errorf("oversized package at a locker: %s", a.Raw)
	}
}
