package shop

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/storage"
)

// InboxQuery is what the clerk's inbox ("Objednávky z e-shopu") is asked:
// its filters, and where the page starts (Next of the page before).
type InboxQuery struct {
	Shipping string // a shipping method's GUID
	Status   int    // one of the shop's statuses (0: any)
	Country  string
	Day      string // YYYY-MM-DD in the shop's zone: orders made that day
	After    string
	Limit    int
}

// InboxOrder is an order of the inbox: what the clerk decides by, and
// whether it ships as it is or what it lacks, in words.
type InboxOrder struct {
	Code             string
	Revision         int // what the clerk saw: Ship refuses an order changed since
	Created          time.Time
	StatusID         int
	Status           string
	Recipient        string
	City, Country    string
	ShippingGUID     string
	Shipping         string // the shipping method the customer chose
	PointCode, Point string // the parcel point the customer chose
	COD              bool
	CODAmount        *float64
	Currency         string
	WeightKg         *float64
	ShippedElsewhere string // the tracking number an order shipped elsewhere carries
	Ready            bool
	Problems         []apperr.Text
	ShipmentID       *int64 // our live shipment of the order (the order page)
	State            string
}

// Inbox is a page of the inbox, newest first; Next asks for the page after
// ("" on the last).
type Inbox struct {
	Orders []InboxOrder
	Next   string
}

// Inbox reads a page of the orders waiting to ship.
func (s *Service) Inbox(ctx context.Context, q InboxQuery) (Inbox, error) {
	sq := storage.ShopInboxQuery{Shipping: q.Shipping, Status: q.Status, Country: strings.ToUpper(q.Country), Limit: q.Limit}
	if q.Day != "" {
		day, err := time.ParseInLocation("2006-01-02", q.Day, i18n.Prague)
		if err != nil {
			return Inbox{}, apperr.Fields("form.see_fields", apperr.Problems{"day": apperr.Msg("form.date_picker")})
		}
		sq.From, sq.To = day, day.AddDate(0, 0, 1)
	}
	if q.After != "" {
		c, ok := decodeCursor(q.After)
		if !ok {
			return Inbox{}, apperr.New(apperr.Invalid, "shop.err.page_link")
		}
		sq.After = &c
	}
	page, err := s.db.ShopInbox(ctx, sq)
	if err != nil {
		return Inbox{}, err
	}
	out := Inbox{Orders: make([]InboxOrder, 0, len(page.Orders))}
	for _, o := range page.Orders {
		out.Orders = append(out.Orders, inboxOrder(o))
	}
	if page.Next != nil {
		out.Next = encodeCursor(*page.Next)
	}
	return out, nil
}

func inboxOrder(o storage.ShopOrder) InboxOrder {
	io := InboxOrder{Code: o.Code, Revision: o.Revision, Created: o.CreatedAt, StatusID: o.StatusID, Status: o.StatusName,
		Recipient: o.Recipient, City: o.City, Country: o.Country, ShippingGUID: o.ShippingGUID, Shipping: o.ShippingName,
		PointCode: o.PointCode, Point: o.PointName, COD: o.COD, CODAmount: o.CODAmount, Currency: o.Currency, WeightKg: o.WeightKg,
		ShippedElsewhere: o.TrackingElsewhere, Ready: o.Ready, ShipmentID: o.Shipment, State: o.State}
	_ = json.Unmarshal(o.Problems, &io.Problems)
	return io
}

// encodeCursor writes an order's place in the inbox for a page link.
func encodeCursor(c storage.ShopInboxCursor) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(c.CreatedAt.UnixMicro(), 10) + "~" + c.Code))
}

func decodeCursor(s string) (storage.ShopInboxCursor, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) > 200 {
		return storage.ShopInboxCursor{}, false
	}
	at, code, ok := strings.Cut(string(b), "~")
	micros, err := strconv.ParseInt(at, 10, 64)
	if !ok || err != nil || code == "" {
		return storage.ShopInboxCursor{}, false
	}
	return storage.ShopInboxCursor{CreatedAt: time.UnixMicro(micros), Code: code}, true
}

// Facets are the values the inbox's filters offer, with how many orders
// of the inbox have each.
type Facets struct {
	Shipping, Statuses, Countries []storage.ShopFacet
}

// InboxFacets reads the inbox's filters' values.
func (s *Service) InboxFacets(ctx context.Context) (Facets, error) {
	var f Facets
	var err error
	f.Shipping, f.Statuses, f.Countries, err = s.db.ShopInboxFacets(ctx)
	return f, err
}

// OrderPage is an order as its page in shipdesk shows it: the order kept,
// its judgement, its parcels' shipments, and what was written back and when.
type OrderPage struct {
	InboxOrder
	Order     Order
	Parcels   []storage.ShopParcel
	Shipments []storage.Shipment
	Writes    []storage.ShopWrite
	// Names for the page: the shop's statuses by id, the carriers by code,
	// and the status a handed-over parcel moves the order to ("": none).
	StatusNames  map[int]string
	CarrierNames map[string]string
	Handover     string
}

// StatusName is a status's name in the shop, or "" for one it no longer has.
func (p OrderPage) StatusName(id int) string { return p.StatusNames[id] }

// CarrierName is a carrier's name, or "" for one the desk does not know.
func (p OrderPage) CarrierName(code string) string { return p.CarrierNames[code] }

// Order reads an order's page.
func (s *Service) Order(ctx context.Context, code string) (OrderPage, error) {
	o, err := s.db.ShopOrderByCode(ctx, code)
	if err != nil {
		return OrderPage{}, err
	}
	p := OrderPage{InboxOrder: inboxOrder(o)}
	var k kept
	if err := json.Unmarshal(o.Doc, &k); err != nil {
		return p, err
	}
	p.Order = k.Order
	if p.Parcels, err = s.db.ShopParcels(ctx, code); err != nil {
		return p, err
	}
	for _, pc := range p.Parcels {
		if sh, err := s.db.ShipmentByReference(ctx, pc.Reference); err == nil {
			p.Shipments = append(p.Shipments, sh)
		}
	}
	if p.Writes, err = s.db.ShopWrites(ctx, code); err != nil {
		return p, err
	}
	return p, s.orderNames(ctx, &p)
}

// orderNames reads the names an order's page shows instead of ids and codes.
func (s *Service) orderNames(ctx context.Context, p *OrderPage) error {
	statuses, err := s.db.ShopStatuses(ctx)
	if err != nil {
		return err
	}
	p.StatusNames = make(map[int]string, len(statuses))
	for _, st := range statuses {
		p.StatusNames[st.ID] = st.Name
	}
	carriers, err := s.db.Carriers(ctx)
	if err != nil {
		return err
	}
	p.CarrierNames = make(map[string]string, len(carriers))
	for _, c := range carriers {
		p.CarrierNames[c.Code] = c.Name
	}
	c, err := s.db.ShopConnection(ctx)
	if apperr.Is(err, apperr.NotFound) {
		return nil // disconnected since: the order is kept, nothing moves it
	}
	if err != nil {
		return err
	}
	if c.HandoverStatus != nil {
		p.Handover = p.StatusNames[*c.HandoverStatus]
	}
	return nil
}
