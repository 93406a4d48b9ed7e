package shipping

import (
	"encoding/base64"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"shipdesk/sandbox/apijson"
	"shipdesk/sandbox/labelpdf"
)

// Register adds the shipping API v1 and cart API v2 routes.
func (s *Service) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/v1/rates/get", s.rates)
	mux.HandleFunc("POST /api/v1/shipments/create", s.create)
	mux.HandleFunc("POST /api/v1/shipments/validate", s.validate)
	mux.HandleFunc("POST /api/v1/shipments/detail", s.detail)
	mux.HandleFunc("GET /api/v1/shipments/list", s.list)
	mux.HandleFunc("POST /api/v1/shipments/tracking", s.tracking)
	mux.HandleFunc("POST /api/v1/shipments/label", s.label)
	mux.HandleFunc("POST /api/v1/shipments/storno", s.storno)
	mux.HandleFunc("POST /api/v1/shipments/manifest", s.manifest)
	mux.HandleFunc("GET /api/v1/parcelpoints/list", s.parcelPoints)
	mux.HandleFunc("GET /api/v1/contacts/list", s.contactsList)
	mux.HandleFunc("POST /api/v1/contacts/add", s.contactsAdd)
	mux.HandleFunc("GET /api/v1/pickups/list", s.pickupsList)
	mux.HandleFunc("POST /api/v1/pickups/add", s.pickupsAdd)
	mux.HandleFunc("POST /api/v2/public/cart/create", s.cartCreate)
}

var errUnauthorized = apijson.Fail(http.StatusUnauthorized, "Missing or invalid API key (x-apikey)")

// rateView is one offer as answered.
type rateView struct {
	Carrier                string `json:"carrier"`
	CarrierGroup           string `json:"carrier_group"`
	Service                string `json:"service"`
	ServiceID              int    `json:"service_id"`
	PickupDate             string `json:"pickup_date"`
	DeliveryDate           string `json:"delivery_date"`
	Price                  money  `json:"price"`
	PriceVAT               money  `json:"price_vat"`
	Selectable             bool   `json:"selectable"`
	Reason                 string `json:"reason,omitempty"`
	LabelMode              string `json:"label_mode"`
	DeliveryBranchRequired bool   `json:"delivery_branch_required"`
	Printable              bool   `json:"printable"` // deprecated: label_mode other than CARRIER
}

func (s *Service) rates(w http.ResponseWriter, r *http.Request) {
	var req rateReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, p)
		return
	}
	acct := s.accountOf(r) // optional: an invalid key is processed as unauthenticated
	now := s.clock.Now()
	currency := req.Currency
	if currency == "" {
		currency = "CZK"
	}
	p := &problems{}
	if currency != "CZK" && currency != "EUR" {
		p.add("currency", "Unknown currency %q: use CZK or EUR", currency)
	}
	s.mu.Lock()
	from := s.checkCommon(p, acct, &req.shipmentReq, true, now)
	s.mu.Unlock()
	if req.To.Country == "" {
		p.add("to.country", "The recipient's country is required")
	}
	if len(p.list) > 0 {
		apijson.WriteProblem(w, apijson.Invalid(p.list...))
		return
	}
	pickup := pickupDate(req.PickupDate, now)
	var out []rateView
	for _, sv := range s.candidates(&req.shipmentReq) {
		op := &problems{}
		pl := s.checkOffer(op, &req.shipmentReq, from, sv, true, currency)
		if LabelMode(sv.carrier.Group, pl.handover) == "" || !sv.carrier.serves(req.To.Country) {
			continue // not offered at all
		}
		price := s.price(sv, req.Packages, pl.cod != nil)
		if currency == "EUR" {
			price = math.Round(price/25*100) / 100
		}
		v := rateView{
			Carrier: sv.carrier.Code, CarrierGroup: sv.carrier.Group, Service: sv.Name, ServiceID: sv.ID,
			PickupDate: pickup.Format("2006-01-02"), DeliveryDate: addWorkdays(pickup, max(sv.TransitDays, 0)).Format("2006-01-02"),
			Price: money{price, currency}, PriceVAT: money{math.Round(price*121) / 100, currency},
			Selectable: len(op.list) == 0, LabelMode: pl.labelMode, DeliveryBranchRequired: sv.ToPoint,
			Printable: pl.labelMode != "CARRIER",
		}
		if pl.labelMode == "CODE" {
			v.LabelMode = "PRINT" // an offer never has CODE: label-free is chosen at order time
		}
		if len(op.list) > 0 {
			v.Reason = op.list[0].Message
		}
		out = append(out, v)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Price.Value < out[j].Price.Value })
	if out == nil {
		out = []rateView{}
	}
	apijson.WriteRaw(w, http.StatusOK, map[string]any{
		"status": http.StatusOK, "message": fmt.Sprintf("Found %d offers", len(out)), "rates": out,
	})
}

// price is deterministic: base, per kilogram, a COD fee.
func (s *Service) price(sv *Svc, pkgs []pkgReq, withCOD bool) float64 {
	p := 0.0
	for _, k := range pkgs {
		p += sv.BasePrice + sv.PerKg*math.Ceil(k.Weight)
	}
	if withCOD {
		p += 25
	}
	return math.Round(p*100) / 100
}

func pickupDate(s string, now time.Time) time.Time {
	if d, err := time.ParseInLocation("2006-01-02", s, now.Location()); err == nil {
		return d
	}
	return addWorkdays(now, 1)
}

func addWorkdays(t time.Time, n int) time.Time {
	for n > 0 || t.Weekday() == time.Saturday || t.Weekday() == time.Sunday {
		t = t.AddDate(0, 0, 1)
		if t.Weekday() != time.Saturday && t.Weekday() != time.Sunday {
			n--
		}
	}
	return t
}

// checkOrder validates a create or validate body and resolves each shipment.
func (s *Service) checkOrder(acct *account, req *orderReq, now time.Time) ([]plan, []apijson.FieldError) {
	p := &problems{}
	if acct == nil {
		// Without a valid key: not linked to an account, paid online, payer required.
		req.PaymentType = "ONLINE"
		if req.Payer == nil || req.Payer.Email == "" || strings.TrimSpace(req.Payer.Firstname+req.Payer.Surname) == "" {
			p.add("payer", "The payer (name and e-mail) is required when ordering without a valid API key")
		}
	}
	switch req.PaymentType {
	case "CREDIT", "ONLINE":
	case "":
		p.add("payment_type", "The payment type is required: CREDIT or ONLINE")
	default:
		p.add("payment_type", "Unknown payment type %q: use CREDIT or ONLINE", req.PaymentType)
	}
	if req.Currency != "CZK" && req.Currency != "EUR" {
		p.add("currency", "The currency must be CZK or EUR")
	}
	if len(req.Shipments) == 0 {
		p.add("shipments", "At least one shipment is required")
	}
	if len(req.Shipments) > 50 {
		p.add("shipments", "At most 50 shipments per order")
	}
	var plans []plan
	for i := range req.Shipments {
		r := &req.Shipments[i]
		sp := &problems{prefix: fmt.Sprintf("shipments[%d]", i)}
		from := s.checkCommon(sp, acct, r, false, now)
		if r.Carrier == "" && r.ServiceID == 0 {
			sp.add("carrier", "A carrier or a service_id is required")
		}
		var pl plan
		if sv := s.chooseForCreate(r); sv != nil && !sp.has("carrier") && !sp.has("service_id") {
			pl = s.checkOffer(sp, r, from, sv, false, req.Currency)
		}
		p.list = append(p.list, sp.list...)
		plans = append(plans, pl)
	}
	return plans, p.list
}

func (s *Service) validate(w http.ResponseWriter, r *http.Request) {
	var req orderReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, p)
		return
	}
	s.mu.Lock()
	_, errs := s.checkOrder(s.accountOf(r), &req, s.clock.Now())
	s.mu.Unlock()
	if len(errs) > 0 {
		apijson.WriteProblem(w, apijson.Invalid(errs...))
		return
	}
	apijson.Write(w, http.StatusOK, "The order is valid", map[string]any{"valid": true, "shipments": len(req.Shipments)})
}

func (s *Service) create(w http.ResponseWriter, r *http.Request) {
	var req orderReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, p)
		return
	}
	acct := s.accountOf(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	plans, errs := s.checkOrder(acct, &req, now)
	if len(errs) > 0 {
		apijson.WriteProblem(w, apijson.Invalid(errs...))
		return
	}
	s.nextOrder++
	o := &order{ID: s.nextOrder, Number: fmt.Sprintf("SO%08d", s.nextOrder), Token: randomToken(), Account: -1,
		Payment: req.PaymentType, Currency: req.Currency, Created: now}
	if acct != nil {
		o.Account = acct.Index
	}
	s.orders[o.ID] = o
	views := []map[string]any{}
	for i, pl := range plans {
		sh := s.newShipment(o, req.Shipments[i], pl, now)
		o.Shipments = append(o.Shipments, sh.TrackingNumber)
		views = append(views, s.view(sh, acct, nil, now, false))
	}
	apijson.Write(w, http.StatusCreated, fmt.Sprintf("Created %d shipments", len(views)), map[string]any{
		"order":     map[string]any{"id": o.ID, "number": o.Number, "token": o.Token, "payment_type": o.Payment},
		"shipments": views,
	})
}

func (s *Service) newShipment(o *order, r shipmentReq, pl plan, now time.Time) *shipment {
	s.nextShip++
	c := pl.svc.carrier
	tn := fmt.Sprintf("%s%09d", strings.ToUpper(c.Code), 100000000+s.nextShip)
	b := s.behaviour[c.Code]
	sh := &shipment{
		TrackingNumber: tn, OrderID: o.ID, Account: o.Account, Created: now, Req: r, From: pl.from,
		Carrier: c.Code, ServiceID: pl.svc.ID, Handover: pl.handover, LabelMode: pl.labelMode,
		FailLabel: b.FailLabels, RefuseCode: b.RefuseLabelLess && pl.labelMode == "CODE",
		Returned: hash(tn)%10 == 3,
	}
	if pl.pickup != nil {
		sh.PickupPoint = pl.pickup.ID
	}
	if pl.delivery != nil {
		sh.DeliveryPoint = pl.delivery.ID
	}
	for i, k := range r.Packages {
		sh.Packages = append(sh.Packages, packageRec{Number: fmt.Sprintf("%s%02d", tn, i+1), Weight: k.Weight, Width: k.Width, Height: k.Height, Length: k.Length})
	}
	s.shipments[tn] = sh
	return sh
}

// view is a shipment as answered to acct (nil: no valid key). Owner-only fields
// go to the owner; package_password also to whoever gives the order token.
func (s *Service) view(sh *shipment, acct *account, tokens []string, now time.Time, withTracking bool) map[string]any {
	owner := acct != nil && acct.Index == sh.Account
	o := s.orders[sh.OrderID]
	tokenOK := false
	for _, t := range tokens {
		if t != "" && t == o.Token {
			tokenOK = true
		}
	}
	pkgs := []map[string]any{}
	for i, k := range sh.Packages {
		pm := map[string]any{"number": k.Number, "status": s.packageStatus(sh, i, now), "package_password": nil}
		if pw := s.password(sh, i, now); pw != "" && (owner || tokenOK) {
			pm["package_password"] = pw
		}
		if owner {
			pm["weight"], pm["width"], pm["height"], pm["length"] = k.Weight, k.Width, k.Height, k.Length
		}
		pkgs = append(pkgs, pm)
	}
	st := s.labelStatus(sh, now)
	v := map[string]any{
		"tracking_number": sh.TrackingNumber,
		"status":          s.status(sh, now),
		"carrier":         sh.Carrier,
		"label_mode":      s.labelMode(sh, now),
		"label_status":    st,
		"labels_ready":    st == "READY", // deprecated: use label_status
		"packages":        pkgs,
	}
	if owner {
		v["label_less"] = s.labelLess(sh, now) // deprecated as an indicator: use label_mode CODE
		v["service_id"] = sh.ServiceID
		v["type"] = sh.Req.Type
		v["pickup_date"] = pickupDate(sh.Req.PickupDate, sh.Created).Format("2006-01-02")
		v["reference"] = sh.Req.Reference
		v["order"] = map[string]any{"id": o.ID, "number": o.Number, "payment_type": o.Payment, "paid": o.Payment == "CREDIT" || o.PaidAt != nil}
		v["from"] = sh.From
		v["to"] = sh.Req.To
		v["services"] = sh.Req.Services
		if sh.Req.Services == nil {
			v["services"] = []serviceReq{}
		}
		v["created"] = sh.Created.Format("2006-01-02 15:04:05")
		if p := s.pointByID[sh.PickupPoint]; p != nil {
			v["pickup_branch"] = p.Code
		} else if sh.Req.PickupBranch != "" {
			v["pickup_branch"] = sh.Req.PickupBranch
		}
		if p := s.pointByID[sh.DeliveryPoint]; p != nil {
			v["delivery_branch"] = p.Code
		}
	}
	if withTracking {
		v["tracking_information"] = s.trackingOf(sh, now)
	}
	return v
}

func (s *Service) trackingOf(sh *shipment, now time.Time) map[string]any {
	pk := [][]event{}
	for i := range sh.Packages {
		pk = append(pk, s.packageEvents(sh, i, now))
	}
	return map[string]any{"status": s.status(sh, now), "returned": s.returnedAt(sh, now), "packages": pk}
}

// numbers decodes {shipments: [...]} with its limits.
func (s *Service) numbers(w http.ResponseWriter, r *http.Request, max int) (numbersReq, bool) {
	var req numbersReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, p)
		return req, false
	}
	switch {
	case len(req.Shipments) == 0:
		apijson.WriteProblem(w, apijson.Invalid(apijson.FieldError{Field: "shipments", Message: "At least one tracking number is required"}))
		return req, false
	case len(req.Shipments) > max:
		apijson.WriteProblem(w, apijson.Invalid(apijson.FieldError{Field: "shipments", Message: fmt.Sprintf("At most %d tracking numbers per request", max)}))
		return req, false
	}
	return req, true
}

// MaxBatch is the most tracking numbers one detail, tracking, label, storno or
// manifest request may name.
const MaxBatch = 100

func (s *Service) detail(w http.ResponseWriter, r *http.Request) {
	req, ok := s.numbers(w, r, MaxBatch)
	if !ok {
		return
	}
	acct := s.accountOf(r)
	withTracking := flag(r.URL.Query(), "tracking")
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	out := map[string]any{}
	for _, tn := range req.Shipments {
		if sh := s.shipments[tn]; sh != nil {
			out[tn] = s.view(sh, acct, req.Tokens, now, withTracking)
		}
	}
	if len(out) == 0 {
		apijson.WriteProblem(w, apijson.Fail(http.StatusNotFound, "No shipment found"))
		return
	}
	apijson.Write(w, http.StatusOK, fmt.Sprintf("Found %d shipments", len(out)), out)
}

func flag(q map[string][]string, name string) bool {
	v, ok := q[name]
	if !ok {
		return false
	}
	return len(v) == 0 || (v[0] != "0" && v[0] != "false")
}

func (s *Service) tracking(w http.ResponseWriter, r *http.Request) {
	req, ok := s.numbers(w, r, MaxBatch)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	out := map[string]any{}
	for _, tn := range req.Shipments {
		if sh := s.shipments[tn]; sh != nil {
			out[tn] = s.trackingOf(sh, now)
		}
	}
	apijson.Write(w, http.StatusOK, fmt.Sprintf("Found %d of %d shipments", len(out), len(req.Shipments)), out)
}

// listStatus maps the list filter to shipment statuses.
var listStatus = map[string][]string{
	"OPEN":      {"CREATED"},
	"ACTIVE":    {"EXPORTED", "ONPICKUP", "INTRANSIT", "ONDELIVERY"},
	"DELIVERED": {"DELIVERED"},
	"STORNO":    {"CANCELLED"},
}

// List paging: page from 1, per_page up to MaxPerPage.
const (
	DefaultPerPage = 50
	MaxPerPage     = 100
)

func (s *Service) list(w http.ResponseWriter, r *http.Request) {
	acct := s.accountOf(r)
	if acct == nil {
		apijson.WriteProblem(w, errUnauthorized)
		return
	}
	q := r.URL.Query()
	p := &problems{}
	status := q.Get("status")
	if status != "" && listStatus[status] == nil {
		p.add("status", "Unknown status %q: use OPEN, ACTIVE, DELIVERED or STORNO", status)
	}
	var from, to time.Time
	for name, dst := range map[string]*time.Time{"date_from": &from, "date_to": &to} {
		if v := q.Get(name); v != "" {
			d, err := time.Parse("2006-01-02", v)
			if err != nil {
				p.add(name, "Must be a date in the form YYYY-MM-DD")
			}
			*dst = d
		}
	}
	page, perPage := intParam(p, q.Get("page"), "page", 1, 1, 1<<20), intParam(p, q.Get("per_page"), "per_page", DefaultPerPage, 1, MaxPerPage)
	if len(p.list) > 0 {
		apijson.WriteProblem(w, apijson.Invalid(p.list...))
		return
	}
	ref := q.Get("reference")
	withTracking := flag(q, "tracking")
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	var match []*shipment
	for _, sh := range s.shipments {
		if sh.Account != acct.Index || (ref != "" && sh.Req.Reference != ref) {
			continue
		}
		day := time.Date(sh.Created.Year(), sh.Created.Month(), sh.Created.Day(), 0, 0, 0, 0, time.UTC)
		if (!from.IsZero() && day.Before(from)) || (!to.IsZero() && day.After(to)) {
			continue
		}
		if status != "" && !slices.Contains(listStatus[status], s.status(sh, now)) {
			continue
		}
		match = append(match, sh)
	}
	sort.Slice(match, func(i, j int) bool {
		if !match[i].Created.Equal(match[j].Created) {
			return match[i].Created.After(match[j].Created)
		}
		return match[i].TrackingNumber > match[j].TrackingNumber
	})
	total := len(match)
	lo := min((page-1)*perPage, total)
	hi := min(lo+perPage, total)
	items := []map[string]any{}
	for _, sh := range match[lo:hi] {
		items = append(items, s.view(sh, acct, nil, now, withTracking))
	}
	apijson.Write(w, http.StatusOK, fmt.Sprintf("Found %d shipments", total), map[string]any{
		"shipments": items, "page": page, "per_page": perPage, "total": total, "pages": (total + perPage - 1) / perPage,
	})
}

func intParam(p *problems, v, name string, def, lo, hi int) int {
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		p.add(name, "Must be a whole number from %d to %d", lo, hi)
		return def
	}
	return n
}

// lockOwned is the start of the operations that need a valid key and act on the
// account's own shipments (label, storno, manifest): on success the service is
// locked and the caller unlocks.
func (s *Service) lockOwned(w http.ResponseWriter, r *http.Request) (*account, numbersReq, []*shipment, time.Time, bool) {
	acct := s.accountOf(r)
	if acct == nil {
		apijson.WriteProblem(w, errUnauthorized)
		return nil, numbersReq{}, nil, time.Time{}, false
	}
	req, ok := s.numbers(w, r, MaxBatch)
	if !ok {
		return nil, req, nil, time.Time{}, false
	}
	s.mu.Lock()
	list, ok := s.owned(w, acct, req.Shipments)
	if !ok {
		s.mu.Unlock()
		return nil, req, nil, time.Time{}, false
	}
	return acct, req, list, s.clock.Now(), true
}

// owned finds the account's shipments; anything unknown or another account's is
// a 404, as the spec says for labels.
func (s *Service) owned(w http.ResponseWriter, acct *account, numbers []string) ([]*shipment, bool) {
	var out []*shipment
	for _, tn := range numbers {
		sh := s.shipments[tn]
		if sh == nil || sh.Account != acct.Index {
			apijson.WriteProblem(w, apijson.Fail(http.StatusNotFound, fmt.Sprintf("Shipment %s not found", clip(tn))))
			return nil, false
		}
		out = append(out, sh)
	}
	return out, true
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func (s *Service) label(w http.ResponseWriter, r *http.Request) {
	_, _, list, now, ok := s.lockOwned(w, r)
	if !ok {
		return
	}
	var pages []labelpdf.Page
	for _, sh := range list {
		switch st := s.status(sh, now); {
		case st == "CREATED":
			s.mu.Unlock()
			apijson.WriteProblem(w, apijson.Fail(http.StatusNotFound, fmt.Sprintf("Shipment %s not found: it has not been exported yet", sh.TrackingNumber)))
			return
		case sh.LabelMode == "CARRIER":
			s.mu.Unlock()
			apijson.WriteProblem(w, apijson.Invalid(apijson.FieldError{Field: "shipments", Message: fmt.Sprintf("Shipment %s has no label: the courier brings it (label_mode CARRIER)", sh.TrackingNumber)}))
			return
		case s.labelStatus(sh, now) == "FAILED":
			s.mu.Unlock()
			apijson.WriteProblem(w, apijson.Invalid(apijson.FieldError{Field: "shipments", Message: fmt.Sprintf("No label could be obtained for shipment %s (label_status FAILED): contact support", sh.TrackingNumber)}))
			return
		case s.labelStatus(sh, now) != "READY":
			s.mu.Unlock()
			apijson.WriteProblem(w, apijson.Fail(http.StatusNotFound, fmt.Sprintf("The label of shipment %s is not ready yet", sh.TrackingNumber)))
			return
		}
		pages = append(pages, s.pages(sh, now)...)
	}
	s.mu.Unlock()
	pdf, err := s.cfg.Render(pages)
	if err != nil {
		apijson.WriteProblem(w, apijson.Fail(http.StatusInternalServerError, "The label could not be drawn"))
		return
	}
	apijson.Write(w, http.StatusOK, fmt.Sprintf("Labels of %d shipments", len(list)), base64.StdEncoding.EncodeToString(pdf))
}

func (s *Service) pages(sh *shipment, now time.Time) []labelpdf.Page {
	c := s.carrierByCode[sh.Carrier]
	if s.labelMode(sh, now) == "CODE" {
		pt := ""
		if p := s.pointByID[sh.PickupPoint]; p != nil {
			pt = p.Name
		}
		return []labelpdf.Page{{CodeSheet: &labelpdf.CodeSheet{
			TrackingNumber: sh.TrackingNumber, Carrier: c.Name, PackageNumber: sh.Packages[0].Number,
			Password: s.password(sh, 0, now), RecipientName: fullName(sh.Req.To), PickupBranch: pt,
		}}}
	}
	l := &labelpdf.Label{
		TrackingNumber: sh.TrackingNumber, Carrier: c.Name, CarrierGroup: c.Group, Service: s.serviceByID[sh.ServiceID].Name,
		From: printAddr(sh.From), To: printAddr(sh.Req.To), Reference: sh.Req.Reference, Created: sh.Created,
	}
	for _, k := range sh.Packages {
		l.Packages = append(l.Packages, labelpdf.Package{Number: k.Number, Weight: k.Weight})
	}
	if p := s.pointByID[sh.PickupPoint]; p != nil {
		l.PickupBranch = p.Code + " " + p.Name
	}
	if p := s.pointByID[sh.DeliveryPoint]; p != nil {
		l.DeliveryBranch = p.Code + " " + p.Name
		l.To.Street, l.To.City, l.To.Zip = p.Street, p.City, p.Zip
	}
	if m := codMoney(sh.Req.Services); m != nil {
		l.COD = m
	}
	return []labelpdf.Page{{Label: l}}
}

func codMoney(svcs []serviceReq) *labelpdf.Money {
	for _, sv := range svcs {
		if sv.Code != "COD" {
			continue
		}
		var d codData
		if jsonUnmarshal(sv.Data, &d) == nil && d.Value != nil {
			return &labelpdf.Money{Value: d.Value.Value, Currency: d.Value.Currency}
		}
	}
	return nil
}

func fullName(a address) string {
	n := strings.TrimSpace(a.Firstname + " " + a.Surname)
	if n == "" {
		return a.Company
	}
	return n
}

func printAddr(a address) labelpdf.Address {
	name := fullName(a)
	if a.Company != "" && name != a.Company {
		name = a.Company + ", " + name
	}
	return labelpdf.Address{Name: name, Street: a.Street, City: a.City, Zip: a.Zip, Country: a.Country, Phone: a.Phone, Email: a.Email}
}

func (s *Service) storno(w http.ResponseWriter, r *http.Request) {
	_, req, list, now, ok := s.lockOwned(w, r)
	if !ok {
		return
	}
	defer s.mu.Unlock()
	var errs []apijson.FieldError
	for i, sh := range list {
		if st := s.status(sh, now); st != "CREATED" && st != "EXPORTED" {
			errs = append(errs, apijson.FieldError{Field: fmt.Sprintf("shipments[%d]", i), Message: fmt.Sprintf("Shipment %s cannot be cancelled in state %s", sh.TrackingNumber, st)})
		}
	}
	if len(errs) > 0 {
		apijson.WriteProblem(w, apijson.Invalid(errs...))
		return
	}
	for _, sh := range list {
		t := now
		sh.Cancelled = &t
	}
	apijson.Write(w, http.StatusOK, fmt.Sprintf("Cancelled %d shipments", len(list)), map[string]any{"cancelled": req.Shipments})
}

func (s *Service) manifest(w http.ResponseWriter, r *http.Request) {
	acct, _, list, now, ok := s.lockOwned(w, r)
	if !ok {
		return
	}
	m := labelpdf.Manifest{Account: acct.Contacts[0].Company, Sender: printAddr(acct.Contacts[0].address), Date: now}
	for _, sh := range list {
		if s.status(sh, now) == "CANCELLED" {
			s.mu.Unlock()
			apijson.WriteProblem(w, apijson.Invalid(apijson.FieldError{Field: "shipments", Message: fmt.Sprintf("Shipment %s is cancelled", sh.TrackingNumber)}))
			return
		}
		weight := 0.0
		for _, k := range sh.Packages {
			weight += k.Weight
		}
		ms := labelpdf.ManifestShipment{TrackingNumber: sh.TrackingNumber, Carrier: s.carrierByCode[sh.Carrier].Name,
			Recipient: printAddr(sh.Req.To), Packages: len(sh.Packages), Weight: weight, Reference: sh.Req.Reference, COD: codMoney(sh.Req.Services)}
		m.Shipments = append(m.Shipments, ms)
	}
	s.mu.Unlock()
	pdf, err := s.cfg.RenderManifest(m)
	if err != nil {
		apijson.WriteProblem(w, apijson.Fail(http.StatusInternalServerError, "The protocol could not be drawn"))
		return
	}
	apijson.Write(w, http.StatusOK, fmt.Sprintf("Hand-over protocol of %d shipments", len(list)), base64.StdEncoding.EncodeToString(pdf))
}
