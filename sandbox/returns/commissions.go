package returns

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"shipdesk/sandbox/apijson"
)

// The complete list of commission states (the spec names processing and outgoing
// and leaves the rest to us):
//
//	new                one-way order: the customer brings or sends the goods
//	waiting_for_goods  two-way order: transport from the customer is on its way
//	processing         the goods are at the service
//	outgoing           the outgoing shipment to the customer is ordered
//	closed             done: goods delivered back or handed over
//	cancelled          withdrawn before completion
var States = []string{"new", "waiting_for_goods", "processing", "outgoing", "closed", "cancelled"}

// moves are the transitions a person may request with commissions/edit. The
// automatic ones (waiting_for_goods → processing when the inbound shipment is
// delivered, outgoing → closed when the outbound one is) happen by themselves.
var moves = map[string][]string{
	"new":               {"processing", "cancelled"},
	"waiting_for_goods": {"cancelled"},
	"processing":        {"outgoing", "closed", "cancelled"},
}

// Types of service orders.
var Types = []string{"warranty", "paid_repair", "withdrawal"}

// transitTime is how long (simulated) a transport to or from the customer takes.
const transitTime = 30 * time.Minute

type customer struct {
	Name    string `json:"name"`
	Email   string `json:"email"`
	Phone   string `json:"phone,omitempty"`
	Street  string `json:"street,omitempty"`
	City    string `json:"city,omitempty"`
	Zip     string `json:"zip,omitempty"`
	Country string `json:"country,omitempty"`
}

type product struct {
	TypeID       int64  `json:"type_id"`
	ModelID      int64  `json:"model_id"`
	SerialNumber string `json:"serial_number,omitempty"`
	PurchaseDate string `json:"purchase_date,omitempty"`
	Fault        string `json:"fault"`
}

type historyEntry struct {
	Status string `json:"status"`
	At     string `json:"at"`
	Note   string `json:"note,omitempty"` // the client's own note, or said from said

	said apijson.Phrase // the service's own note, said in the answer's language
}

type transport struct {
	Direction      string `json:"direction"` // from_customer or to_customer
	TrackingNumber string `json:"tracking_number"`
	Ordered        string `json:"ordered"`
	Delivered      string `json:"delivered,omitempty"`
}

type activity struct {
	ID      int64  `json:"id"`
	Type    string `json:"type"` // message (public, sent to the customer) or note (internal)
	Public  bool   `json:"public"`
	Text    string `json:"text"`
	Created string `json:"created"`
}

type commission struct {
	ID                   int64          `json:"id"`
	Number               string         `json:"number"`
	Account              int            `json:"-"`
	Type                 string         `json:"type"`
	Status               string         `json:"status"`
	Reference            string         `json:"reference,omitempty"`
	Customer             customer       `json:"customer"`
	Product              product        `json:"product"`
	ShipmentFromCustomer bool           `json:"shipment_from_customer"`
	ShipmentToCustomer   bool           `json:"shipment_to_customer"`
	InvoiceFileToken     string         `json:"invoice_file_token,omitempty"`
	Files                []fileRef      `json:"files"`
	History              []historyEntry `json:"history"`
	Activities           []activity     `json:"activities"`
	Shipments            []transport    `json:"shipments"`
	Created              string         `json:"created"`
	Updated              string         `json:"updated"`

	created  time.Time
	inbound  time.Time // when the transport from the customer was ordered
	outbound time.Time // when the outgoing shipment was ordered
}

// settle applies the automatic moves that have happened by now, each recorded
// at the time it happened.
func (c *commission) settle(now time.Time) {
	if c.Status == "waiting_for_goods" && !c.inbound.IsZero() && !now.Before(c.inbound.Add(transitTime)) {
		at := c.inbound.Add(transitTime)
		c.Shipments[0].Delivered = stamp(at)
		c.move("processing", at, "", noteGoodsAtService)
	}
	if c.Status == "outgoing" && !c.outbound.IsZero() && !now.Before(c.outbound.Add(transitTime)) {
		at := c.outbound.Add(transitTime)
		c.Shipments[len(c.Shipments)-1].Delivered = stamp(at)
		c.move("closed", at, "", noteGoodsAtCustomer)
	}
}

// move records a new status with the client's note, or the service's own
// note when the client gave none.
func (c *commission) move(status string, at time.Time, note string, own apijson.Phrase) {
	c.Status = status
	e := historyEntry{Status: status, At: stamp(at), Note: note}
	if note == "" {
		e.said = own
	}
	c.History = append(c.History, e)
	c.Updated = stamp(at)
}

// in is the commission as answered in lang: the service's notes in its words.
func (c *commission) in(lang apijson.Lang) commission {
	out := *c
	out.History = make([]historyEntry, len(c.History))
	for i, e := range c.History {
		if e.said != (apijson.Phrase{}) {
			e.Note = e.said.In(lang)
		}
		out.History[i] = e
	}
	return out
}

var emailPattern = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)

type createReq struct {
	Type                 string    `json:"type"`
	Customer             *customer `json:"customer"`
	Product              *product  `json:"product"`
	ShipmentFromCustomer bool      `json:"shipment_from_customer"`
	InvoiceFileToken     string    `json:"invoice_file_token"`
	Reference            string    `json:"reference"`
}

func (s *Service) create(w http.ResponseWriter, r *http.Request) {
	acct := s.account(r)
	if acct < 0 {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	var req createReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	p := &problems{}
	if !slices.Contains(Types, req.Type) {
		p.add("type", msgTypeOneOf, strings.Join(Types, ", "))
	}
	if req.Customer == nil {
		p.add("customer", msgCustomerRequired)
	} else {
		c := req.Customer
		if strings.TrimSpace(c.Name) == "" || len(c.Name) > 200 {
			p.add("customer.name", msgCustomerName)
		}
		if !emailPattern.MatchString(c.Email) {
			p.add("customer.email", msgCustomerEmail)
		}
		if req.ShipmentFromCustomer && (c.Street == "" || c.City == "" || c.Zip == "") {
			p.add("customer.street", msgCustomerStreet)
		}
	}
	if req.Product == nil {
		p.add("product", msgProductRequired)
	} else {
		if !s.typeExists(req.Product.TypeID) {
			p.add("product.type_id", msgTypeUnknown, req.Product.TypeID)
		}
		if m := s.model(req.Product.ModelID); m == nil {
			p.add("product.model_id", msgModelUnknown, req.Product.ModelID)
		} else if m.TypeID != req.Product.TypeID {
			p.add("product.model_id", msgModelType, req.Product.ModelID, req.Product.TypeID)
		}
		if strings.TrimSpace(req.Product.Fault) == "" || len(req.Product.Fault) > 5000 {
			p.add("product.fault", msgFault)
		}
		if d := req.Product.PurchaseDate; d != "" {
			if _, err := time.Parse("2006-01-02", d); err != nil {
				p.add("product.purchase_date", msgPurchaseDate)
			}
		}
	}
	if len(req.Reference) > 64 {
		p.add("reference", msgReferenceLong)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	var up *upload
	if req.InvoiceFileToken != "" {
		up = s.uploads[req.InvoiceFileToken]
		switch {
		case up == nil || up.Account != acct:
			p.add("invoice_file_token", msgTokenUnknown)
		case up.UsedBy != 0:
			p.add("invoice_file_token", msgTokenUsed, up.UsedBy)
		}
	} else if req.Type == "warranty" {
		p.add("invoice_file_token", msgProofRequired)
	}
	if len(p.list) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(p.list...))
		return
	}
	now := s.clock.Now()
	s.next++
	c := &commission{ID: s.next, Number: fmt.Sprintf("RMA-%06d", s.next), Account: acct, Type: req.Type, Reference: req.Reference,
		Customer: *req.Customer, Product: *req.Product, ShipmentFromCustomer: req.ShipmentFromCustomer,
		InvoiceFileToken: req.InvoiceFileToken, Files: []fileRef{}, Activities: []activity{}, Shipments: []transport{},
		Created: stamp(now), created: now}
	if up != nil {
		up.UsedBy = c.ID
		c.Files = append(c.Files, up.ref())
	}
	c.move("new", now, "", noteCreated)
	if req.ShipmentFromCustomer {
		c.inbound = now
		c.Shipments = append(c.Shipments, transport{Direction: "from_customer", TrackingNumber: fmt.Sprintf("RT%08dIN", c.ID), Ordered: stamp(now)})
		c.move("waiting_for_goods", now, "", noteTransportFrom)
	}
	s.commissions[c.ID] = c
	apijson.Write(w, r, http.StatusCreated, msgCreated.With(), c.in(apijson.LangOf(r)))
}

type editReq struct {
	ID                 int64     `json:"id"`
	Status             string    `json:"status"`
	ShipmentToCustomer *bool     `json:"shipment_to_customer"`
	Customer           *customer `json:"customer"`
	Reference          *string   `json:"reference"`
	Note               string    `json:"note"`
}

func (s *Service) edit(w http.ResponseWriter, r *http.Request) {
	acct := s.account(r)
	if acct < 0 {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	var req editReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.commissions[req.ID]
	if c == nil || c.Account != acct {
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusNotFound, msgNotFound, req.ID))
		return
	}
	now := s.clock.Now()
	c.settle(now)
	p := &problems{}
	wantsShipment := req.ShipmentToCustomer != nil && *req.ShipmentToCustomer
	if req.Status != "" {
		switch {
		case !slices.Contains(States, req.Status):
			p.add("status", msgStatusUnknownOf, req.Status, strings.Join(States, ", "))
		case req.Status == c.Status:
		case !slices.Contains(moves[c.Status], req.Status):
			p.add("status", msgCannotMove, c.Status, req.Status)
		case req.Status == "outgoing" && !wantsShipment:
			p.add("shipment_to_customer", msgOutgoingShipment)
		}
	}
	if wantsShipment && req.Status != "outgoing" {
		p.add("status", msgOutgoingTogether)
	}
	if req.Customer != nil && req.Customer.Email != "" && !emailPattern.MatchString(req.Customer.Email) {
		p.add("customer.email", msgEmailInvalid)
	}
	if len(req.Note) > 1000 {
		p.add("note", msgNoteLong)
	}
	if len(p.list) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(p.list...))
		return
	}
	if req.Customer != nil {
		mergeCustomer(&c.Customer, *req.Customer)
	}
	if req.Reference != nil {
		c.Reference = *req.Reference
	}
	if req.Status != "" && req.Status != c.Status {
		own := apijson.Phrase{}
		if req.Status == "outgoing" {
			c.ShipmentToCustomer = true
			c.outbound = now
			c.Shipments = append(c.Shipments, transport{Direction: "to_customer", TrackingNumber: fmt.Sprintf("RT%08dOUT", c.ID), Ordered: stamp(now)})
			own = noteOutgoing
		}
		c.move(req.Status, now, req.Note, own)
	}
	c.Updated = stamp(now)
	apijson.Write(w, r, http.StatusOK, msgUpdated.With(), c.in(apijson.LangOf(r)))
}

func mergeCustomer(dst *customer, src customer) {
	for _, f := range []struct {
		d *string
		v string
	}{{&dst.Name, src.Name}, {&dst.Email, src.Email}, {&dst.Phone, src.Phone},
		{&dst.Street, src.Street}, {&dst.City, src.City}, {&dst.Zip, src.Zip}, {&dst.Country, src.Country}} {
		if f.v != "" {
			*f.d = f.v
		}
	}
}

func (s *Service) get(w http.ResponseWriter, r *http.Request) {
	acct := s.account(r)
	if acct < 0 {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		apijson.WriteProblem(w, r, apijson.Invalid(apijson.Err("id", msgIDWhole)))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.commissions[id]
	if c == nil || c.Account != acct {
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusNotFound, msgNotFound, id))
		return
	}
	c.settle(s.clock.Now())
	apijson.Write(w, r, http.StatusOK, msgFound.With(), c.in(apijson.LangOf(r)))
}

// List paging.
const (
	DefaultPerPage = 50
	MaxPerPage     = 200
)

func (s *Service) list(w http.ResponseWriter, r *http.Request) {
	acct := s.account(r)
	if acct < 0 {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	q := r.URL.Query()
	p := &problems{}
	status, typ := q.Get("status"), q.Get("type")
	if status != "" && !slices.Contains(States, status) {
		p.add("status", msgStatusUnknown, status)
	}
	if typ != "" && !slices.Contains(Types, typ) {
		p.add("type", msgKindUnknown, typ)
	}
	var from, to string
	for name, dst := range map[string]*string{"date_from": &from, "date_to": &to} {
		if v := q.Get(name); v != "" {
			if _, err := time.Parse("2006-01-02", v); err != nil {
				p.add(name, msgDateForm)
			}
			*dst = v
		}
	}
	page, perPage := intParam(p, q.Get("page"), "page", 1, 1<<20), intParam(p, q.Get("per_page"), "per_page", DefaultPerPage, MaxPerPage)
	if len(p.list) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(p.list...))
		return
	}
	cust, prod := strings.ToLower(q.Get("customer")), q.Get("product")
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	var match []*commission
	for _, c := range s.commissions {
		c.settle(now)
		day := c.Created[:10]
		if c.Account != acct || (status != "" && c.Status != status) || (typ != "" && c.Type != typ) ||
			(from != "" && day < from) || (to != "" && day > to) ||
			(cust != "" && !strings.Contains(strings.ToLower(c.Customer.Name+" "+c.Customer.Email), cust)) ||
			(prod != "" && fmt.Sprint(c.Product.ModelID) != prod && fmt.Sprint(c.Product.TypeID) != prod) {
			continue
		}
		match = append(match, c)
	}
	sort.Slice(match, func(i, j int) bool { return match[i].ID > match[j].ID })
	total := len(match)
	lo := min((page-1)*perPage, total)
	hi := min(lo+perPage, total)
	items := []commission{}
	for _, c := range match[lo:hi] {
		items = append(items, c.in(apijson.LangOf(r)))
	}
	apijson.Write(w, r, http.StatusOK, msgFoundCommissions.With(total), map[string]any{
		"commissions": items, "page": page, "per_page": perPage, "total": total, "pages": (total + perPage - 1) / perPage,
	})
}

type activityReq struct {
	CommissionID int64  `json:"commission_id"`
	Type         string `json:"type"`
	Text         string `json:"text"`
}

func (s *Service) addActivity(w http.ResponseWriter, r *http.Request) {
	acct := s.account(r)
	if acct < 0 {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	var req activityReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	p := &problems{}
	if req.Type != "message" && req.Type != "note" {
		p.add("type", msgActivityType)
	}
	if strings.TrimSpace(req.Text) == "" || len(req.Text) > 5000 {
		p.add("text", msgTextRequired)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.commissions[req.CommissionID]
	if c == nil || c.Account != acct {
		p.add("commission_id", msgNotFound, req.CommissionID)
	}
	if len(p.list) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(p.list...))
		return
	}
	now := s.clock.Now()
	s.nextAct++
	a := activity{ID: s.nextAct, Type: req.Type, Public: req.Type == "message", Text: req.Text, Created: stamp(now)}
	c.Activities = append(c.Activities, a)
	c.Updated = stamp(now)
	apijson.Write(w, r, http.StatusCreated, msgActivityAdded.With(), a)
}

func (s *Service) productTypes(w http.ResponseWriter, r *http.Request) {
	if s.account(r) < 0 {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	apijson.Write(w, r, http.StatusOK, msgFoundTypes.With(len(s.types)), typesIn(s.types, apijson.LangOf(r)))
}

func (s *Service) productModels(w http.ResponseWriter, r *http.Request) {
	if s.account(r) < 0 {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	out := []ProductModel{}
	tid := r.URL.Query().Get("type_id")
	for _, m := range s.models {
		if tid == "" || fmt.Sprint(m.TypeID) == tid {
			out = append(out, m)
		}
	}
	apijson.Write(w, r, http.StatusOK, msgFoundModels.With(len(out)), modelsIn(out, apijson.LangOf(r)))
}

func (s *Service) typeExists(id int64) bool {
	for _, t := range s.types {
		if t.ID == id {
			return true
		}
	}
	return false
}

func (s *Service) model(id int64) *ProductModel {
	for i := range s.models {
		if s.models[i].ID == id {
			return &s.models[i]
		}
	}
	return nil
}

// problems collects field errors.
type problems struct{ list []apijson.FieldError }

func (p *problems) add(field string, msg apijson.Phrase, args ...any) {
	p.list = append(p.list, apijson.Err(field, msg, args...))
}

func intParam(p *problems, v, name string, def, hi int) int {
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > hi {
		p.add(name, msgWholeNumber, hi)
		return def
	}
	return n
}

var errUnauthorized = apijson.Fail(http.StatusUnauthorized, msgUnauthorized)
