package desk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"shipdesk/app"
	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/desk"
	"shipdesk/desk/desktest"
	"shipdesk/requestkey"
	"shipdesk/storage"
)

// returnEnv is a desk on the sandbox with its carriers known, its points
// cached and two senders: the default one, and a returns dock.
type returnEnv struct {
	*desktest.Env
	t              *testing.T
	d              *desk.Desk
	shop, dock     storage.Sender
	point          storage.ParcelPoint // a Czech point of the label-free carrier
	seededCarriers bool
}

func startReturns(t *testing.T, seed bool) *returnEnv {
	t.Helper()
	e := &returnEnv{Env: desktest.Start(t), t: t, seededCarriers: seed}
	ctx := context.Background()
	e.d = desk.New(e.DB, e.Ship, nil, e.Clock, nil)
	if seed {
		if err := e.d.SeedCarriers(ctx, app.SandboxCarriers(e.Sandbox.Sandbox.Shipping.CarrierFacts())); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.d.RefreshPoints(ctx); err != nil {
		t.Fatal(err)
	}
	var err error
	e.shop, err = e.DB.SaveSender(ctx, storage.Sender{Label: "Sklad Praha", Address: storage.Address{Company: "Obchod s.r.o.",
		Street: "Skladová 1", City: "Praha", Zip: "110 00", Country: "CZ", Phone: "+420601000000"}})
	if err != nil {
		t.Fatal(err)
	}
	e.dock, err = e.DB.SaveSender(ctx, storage.Sender{Label: "Vratky Brno", Address: storage.Address{Company: "Obchod s.r.o.",
		Surname: "Reklamace", Street: "Vratková 7", City: "Brno", Zip: "602 00", Country: "CZ", Phone: "+420602000000"}})
	if err != nil {
		t.Fatal(err)
	}
	facts := e.Sandbox.Sandbox.Shipping.CarrierFacts()
	for _, f := range facts {
		if !f.LabelFree {
			continue
		}
		found, err := e.DB.FindPoints(ctx, storage.PointQuery{Carrier: f.Code, Country: "CZ", Limit: 1})
		if err != nil || len(found.Points) == 0 {
			t.Fatalf("no Czech point of the label-free carrier %s: %v", f.Code, err)
		}
		e.point = found.Points[0]
	}
	return e
}

// parcel is a customer's return parcel to the env's point.
func (e *returnEnv) parcel() desk.ReturnParcel {
	key := requestkey.New()
	return desk.ReturnParcel{Key: key, Reference: "RET-" + key[:8],
		From: desk.Address{Firstname: "Jana", Surname: "Nováková", Street: "Lipová 3", City: "Olomouc", Zip: "779 00",
			Country: "CZ", Phone: "+420 777 123 456", Email: "jana@example.cz"},
		Carrier: e.point.Carrier, Point: e.point.Code, Package: desk.Package{Weight: 1.5, Length: 30, Width: 20, Height: 10}}
}

// exported moves the sandbox past the export and refreshes the shipment as
// the pollers do.
func (e *returnEnv) exported(id int64) storage.Shipment {
	e.t.Helper()
	e.Sandbox.Advance(2 * time.Hour)
	r := e.d.Refresher(desk.RefreshConfig{})
	if err := r.RefreshNow(context.Background(), id); err != nil {
		e.t.Fatal(err)
	}
	return e.Shipment(id)
}

// atService is every shipment the sandbox holds for the shop.
func (e *returnEnv) atService() []shipping.ShipmentInfo {
	e.t.Helper()
	held, err := e.Ship.ListAll(context.Background(), shipping.ListQuery{})
	if err != nil {
		e.t.Fatal(err)
	}
	return held
}

func TestReturnParcelIsLabelFreeAndGivesTheCode(t *testing.T) {
	e := startReturns(t, true)
	ctx := context.Background()
	if _, err := e.d.SaveReturnAddress(ctx, url.Values{"return_sender": {strconv.FormatInt(e.dock.ID, 10)}}); err != nil {
		t.Fatal(err)
	}
	p := e.parcel()
	s, err := e.d.OrderReturn(ctx, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.State != storage.StateCreated || !s.LabelLess || s.CreatedBy != nil || s.Reference != p.Reference || s.Tracking() == "" {
		t.Fatalf("return parcel: state %s, label-less %v, by %v, reference %q", s.State, s.LabelLess, s.CreatedBy, s.Reference)
	}
	if code, label, ready := desk.ReturnHandover(s); ready || label || code != "" {
		t.Errorf("before export: code %q, label %v, ready %v", code, label, ready)
	}
	// The return address chose the recipient: the dock's address itself,
	// never a stored contact; the customer is the sender.
	var sent shipping.Order
	if err := json.Unmarshal(s.Request, &sent); err != nil {
		t.Fatal(err)
	}
	sh := sent.Shipments[0]
	if sh.To.Street != "Vratková 7" || sh.To.ID != 0 || sh.From.Street != "Lipová 3" || sh.From.ID != 0 || sh.PickupBranch != e.point.Code || !sh.LabelLess {
		t.Errorf("order sent: to %+v, from %+v, pickup %q, label-less %v", sh.To, sh.From, sh.PickupBranch, sh.LabelLess)
	}
	details, err := e.Ship.Detail(ctx, shipping.DetailRequest{Shipments: []string{s.Tracking()}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if si := details[s.Tracking()]; si.To == nil || si.To.City != "Brno" || si.To.Street != "Vratková 7" {
		t.Errorf("the sandbox's recipient: %+v", si.To)
	}

	got := e.exported(s.ID)
	code, label, ready := desk.ReturnHandover(got)
	if got.LabelMode != shipping.LabelCode || !ready || label || !regexp.MustCompile(`^[A-Z0-9]{6}$`).MatchString(code) {
		t.Errorf("after export: mode %s, code %q, label %v, ready %v", got.LabelMode, code, label, ready)
	}

	// The same key again, as a customer's second click: the first shipment.
	again, err := e.d.OrderReturn(ctx, p, 0)
	if err != nil || again.ID != s.ID {
		t.Errorf("the same key again: shipment %d (first %d), %v", again.ID, s.ID, err)
	}
	if n := len(e.atService()); n != 1 || e.Calls("shipments/create") != 1 {
		t.Errorf("the sandbox holds %d shipments after %d create calls, want 1", n, e.Calls("shipments/create"))
	}
}

// The carrier refuses the label-free export: the service makes an ordinary
// label (the spec's fallback), and the customer gets the label instead.
func TestReturnParcelFallsBackToALabel(t *testing.T) {
	e := startReturns(t, true)
	ctx := context.Background()
	e.Sandbox.Control("POST", "/sandbox/carriers/"+strings.ToLower(e.point.Carrier)+"/behaviour", map[string]any{"refuse_label_less": true})
	s, err := e.d.OrderReturn(ctx, e.parcel(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !s.LabelLess {
		t.Fatal("ordered with a label although the carrier takes label-free parcels")
	}
	got := e.exported(s.ID)
	code, label, ready := desk.ReturnHandover(got)
	if got.LabelMode != shipping.LabelPrint || code != "" || !label || !ready {
		t.Fatalf("after a refused export: mode %s, code %q, label %v, ready %v", got.LabelMode, code, label, ready)
	}
	for _, k := range got.Packages {
		if k.Password != "" {
			t.Errorf("a password after the fallback: %+v", got.Packages)
		}
	}
	pdf, err := e.d.Label(ctx, s.ID)
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF")) {
		t.Errorf("the fallback label: %d bytes, %v", len(pdf), err)
	}
}

// The answer to the create call is lost after the sandbox made the order:
// it is reconciled by our reference to the one shipment, and a retry with
// the same key orders nothing.
func TestReturnParcelWithALostAnswerIsOrderedOnce(t *testing.T) {
	e := startReturns(t, true)
	ctx := context.Background()
	p := e.parcel()
	e.Sandbox.Fault("/api/v1/shipments/create", map[string]any{"drop_after_rate": 1, "count": 1})
	s, err := e.d.OrderReturn(ctx, p, 0)
	if err != nil && !apperr.Is(err, apperr.Unavailable) {
		t.Fatal(err)
	}
	if s.ID == 0 {
		t.Fatal("no shipment recorded for a lost answer")
	}
	if s.State != storage.StateCreated {
		if s, err = e.d.Reconcile(ctx, s.ID); err != nil {
			t.Fatal(err)
		}
	}
	held := e.atService()
	if s.State != storage.StateCreated || len(held) != 1 || held[0].TrackingNumber != s.Tracking() {
		t.Fatalf("after reconciling: state %s, tracking %q; the sandbox holds %d", s.State, s.Tracking(), len(held))
	}
	again, err := e.d.OrderReturn(ctx, p, 0)
	if err != nil || again.ID != s.ID || len(e.atService()) != 1 || e.Calls("shipments/create") != 1 {
		t.Errorf("retry: shipment %d (first %d), %v; %d at the sandbox after %d creates", again.ID, s.ID, err, len(e.atService()), e.Calls("shipments/create"))
	}
}

// Without the carrier table's word, the service is asked whether the
// carrier takes label-free parcels, and the answer is remembered.
func TestReturnParcelLearnsTheLabelFreeCarrier(t *testing.T) {
	e := startReturns(t, false)
	ctx := context.Background()
	s, err := e.d.OrderReturn(ctx, e.parcel(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !s.LabelLess {
		t.Error("the label-free carrier was not asked for a label-free parcel")
	}
	c, err := e.DB.CarrierByCode(ctx, e.point.Carrier)
	if err != nil || !c.LabelFree.Valid || !c.LabelFree.Bool {
		t.Errorf("the carrier table after the order: %+v, %v", c, err)
	}
	// The default sender is the return address while none is chosen.
	if got := e.Shipment(s.ID); got.RecipientCity != "Praha" {
		t.Errorf("recipient without a chosen return address: %s", got.RecipientCity)
	}
}

// What a return parcel cannot be is refused before the service is asked,
// and nothing is stored.
func TestReturnParcelRefusesBadInput(t *testing.T) {
	e := startReturns(t, true)
	ctx := context.Background()
	cases := map[string]func(*desk.ReturnParcel){
		"NoKey":          func(p *desk.ReturnParcel) { p.Key = "" },
		"DamagedKey":     func(p *desk.ReturnParcel) { p.Key = "'; DROP TABLE shipments; --" },
		"NUL":            func(p *desk.ReturnParcel) { p.From.Street = "Lipová\x00 3" },
		"InvalidUTF8":    func(p *desk.ReturnParcel) { p.From.City = "\xff\xfe" },
		"Control":        func(p *desk.ReturnParcel) { p.From.Surname = "a\x1b[2J" },
		"Huge":           func(p *desk.ReturnParcel) { p.Reference = strings.Repeat("x", 100<<10) },
		"ScriptPoint":    func(p *desk.ReturnParcel) { p.Point = "<script>alert(1)</script>" },
		"NoPoint":        func(p *desk.ReturnParcel) { p.Point = "" },
		"NoName":         func(p *desk.ReturnParcel) { p.From.Surname, p.From.Firstname = "", "" },
		"NoContact":      func(p *desk.ReturnParcel) { p.From.Phone, p.From.Email = "", "" },
		"Country":        func(p *desk.ReturnParcel) { p.From.Country = "XX" },
		"NoWeight":       func(p *desk.ReturnParcel) { p.Package.Weight = 0 },
		"HugeParcel":     func(p *desk.ReturnParcel) { p.Package.Length = 1e308 },
		"OtherCarrier":   func(p *desk.ReturnParcel) { p.Carrier = "NOBODY" },
		"MinusDimension": func(p *desk.ReturnParcel) { p.Package.Width = -1 },
	}
	for name, spoil := range cases {
		t.Run(name, func(t *testing.T) {
			p := e.parcel()
			spoil(&p)
			_, err := e.d.OrderReturn(ctx, p, 0)
			if !apperr.Is(err, apperr.Invalid) || len(apperr.ProblemsOf(err)) == 0 {
				t.Errorf("%s: %v", name, err)
			}
		})
	}
	if n := e.Calls("shipments/create") + e.Calls("rates/get"); n != 0 {
		t.Errorf("refused parcels reached the service %d times", n)
	}
	var n int
	if err := e.DB.SQL().QueryRow(`SELECT count(*) FROM shipments`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d shipments stored, %v", n, err)
	}
}

// The customer's point picker lists only points of carriers that take
// label-free parcels.
func TestReturnPointsAreTheLabelFreeCarriers(t *testing.T) {
	e := startReturns(t, true)
	ctx := context.Background()
	found, err := e.d.ReturnPoints(ctx, "", "CZ", "")
	if err != nil || len(found.Points) == 0 || found.Total < len(found.Points) {
		t.Fatalf("return points: %+v, %v", found, err)
	}
	for _, p := range found.Points {
		c, err := e.DB.CarrierByCode(ctx, p.Carrier)
		if err != nil || !c.LabelFree.Bool || p.Country != "CZ" {
			t.Errorf("point %s of %s (%s) listed", p.Code, p.Carrier, p.Country)
		}
	}
	town, err := e.d.ReturnPoints(ctx, "", "", e.point.City)
	if err != nil || len(town.Points) == 0 || !strings.EqualFold(town.Points[0].City, e.point.City) {
		t.Errorf("points in %s: %+v, %v", e.point.City, town, err)
	}
	for _, bad := range []string{"a\x00b", "\xff\xfe", strings.Repeat("x", 100<<10)} {
		if _, err := e.d.ReturnPoints(ctx, "", "CZ", bad); !apperr.Is(err, apperr.Invalid) {
			t.Errorf("search %.20q: %v", bad, err)
		}
	}
	if _, err := e.d.ReturnPoints(ctx, "", "'; DROP", ""); !apperr.Is(err, apperr.Invalid) {
		t.Errorf("country not served: %v", err)
	}
}

// The return address setting: a sender of the address book, or the default
// sender; anything else is refused and changes nothing; a removed sender
// gives way to the default.
func TestReturnAddressSetting(t *testing.T) {
	e := startReturns(t, false)
	ctx := context.Background()
	returnTo := func() storage.Sender {
		t.Helper()
		s, err := e.DB.ReturnSender(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if got := returnTo(); got.ID != e.shop.ID {
		t.Errorf("with none chosen the return address is %s, want the default sender", got.Label)
	}
	dock := strconv.FormatInt(e.dock.ID, 10)
	if _, err := e.d.SaveReturnAddress(ctx, url.Values{"return_sender": {dock}}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"999999", "0", "-1", "abc", "1e308", "NaN", "a\x00b", "\xff\xfe", "a\x1b[2J",
		strings.Repeat("9", 100<<10), "<script>alert(1)</script>", "'; DROP TABLE senders; --"} {
		vals, err := e.d.SaveReturnAddress(ctx, url.Values{"return_sender": {bad}})
		if !apperr.Is(err, apperr.Invalid) || apperr.ProblemsOf(err)["return_sender"].IsZero() {
			t.Errorf("%.20q: %v", bad, err)
		}
		if vals == nil {
			t.Errorf("%.20q: the typed values are not given back", bad)
		}
		if got := returnTo(); got.ID != e.dock.ID {
			t.Errorf("a refused %.20q changed the return address to %s", bad, got.Label)
		}
	}
	if s, err := e.DB.Settings(ctx); err != nil || s.ReturnSenderID == nil || *s.ReturnSenderID != e.dock.ID {
		t.Errorf("settings: %+v, %v", s, err)
	}
	// The COD settings are saved without touching the return address.
	if _, err := e.d.SaveSettings(ctx, url.Values{"cod_currency": {"CZK"}}); err != nil {
		t.Fatal(err)
	}
	if got := returnTo(); got.ID != e.dock.ID {
		t.Errorf("saving the COD settings changed the return address to %s", got.Label)
	}
	if err := e.d.DeleteSender(ctx, e.dock.ID); err != nil {
		t.Fatal(err)
	}
	if got := returnTo(); got.ID != e.shop.ID {
		t.Errorf("after removing the chosen sender the return address is %s", got.Label)
	}
	if _, err := e.d.SaveReturnAddress(ctx, url.Values{"return_sender": {dock}}); !apperr.Is(err, apperr.Invalid) {
		t.Errorf("a removed sender chosen: %v", err)
	}
	if _, err := e.d.SaveReturnAddress(ctx, url.Values{"return_sender": {""}}); err != nil {
		t.Errorf("the default sender chosen: %v", err)
	}
	if err := e.d.DeleteSender(ctx, e.shop.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DB.ReturnSender(ctx); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("an address book without senders: %v", err)
	}
}
