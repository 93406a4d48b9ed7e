package returns

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
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
	apijson.Write(w, r, http.StatusCreated, msgCreated.With(), c.in(apijson.DataLangOf(r)))
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
