package shop

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"shipdesk/apperr"
	"shipdesk/countries"
	"shipdesk/desk"
	"shipdesk/storage"
	"shipdesk/textin"
)

// Whether an order ships as it is, or what it lacks, is judged when it is
// stored and again when a manager changes what its statuses and methods
// mean: by the new-shipment form's own rules (the order read as the form
// reads a clerk's typing) and the shop's: the shipping method's mapping, the
// parcel point as the service knows it, the weight, cash on delivery, and
// text the shop sent that no record may hold.

// kept is an order as the desk keeps it: cleaned of what no record may hold
// (NUL, broken UTF-8, control characters), with the fields that had such.
type kept struct {
	Order
	Cleaned []string `json:"cleaned,omitempty"`
}

// cleaned is the order cleaned (textin.FromService) and what cleaning changed.
func cleaned(o Order) kept {
	k := kept{Order: o}
	k.Items = slices.Clone(o.Items)
	if o.Point != nil {
		p := *o.Point
		k.Point = &p
	}
	fields := []struct {
		label string
		s     *string
	}{{"name", &k.Delivery.FullName}, {"company", &k.Delivery.Company}, {"street", &k.Delivery.Street},
		{"street", &k.Delivery.HouseNumber}, {"city", &k.Delivery.City}, {"zip", &k.Delivery.Zip},
		{"country", &k.Delivery.Country}, {"phone", &k.Phone}, {"email", &k.Email}}
	if k.Point != nil {
		fields = append(fields, struct {
			label string
			s     *string
		}{"point", &k.Point.BranchID})
	}
	for _, f := range fields {
		// U+FFFD: bytes broken on the way, replaced already by the platform's JSON.
		broken := textin.ServiceText(*f.s) != *f.s || strings.ContainsRune(*f.s, utf8.RuneError)
		if broken && !slices.Contains(k.Cleaned, f.label) {
			k.Cleaned = append(k.Cleaned, f.label)
		}
	}
	textin.FromService(&k.Order)
	return k
}

// basis is what orders are judged against, read once for many.
type basis struct {
	db       *storage.DB
	conn     storage.ShopConnection
	methods  map[string]storage.ShopMethod // by kind and GUID
	sender   storage.Sender                // the default sender (ID 0: none)
	settings storage.ShippingSettings
	points   map[string][]storage.ParcelPoint // the service's points by code
	carriers map[string]string                // the carrier table's names by code
	handover string
}

func methodKey(kind, guid string) string { return kind + "\x00" + guid }

// basisFor reads what orders are judged against, the points they name
// looked up by code in one statement.
func (s *Service) basisFor(ctx context.Context, orders []kept) (*basis, error) {
	b := &basis{db: s.db, methods: map[string]storage.ShopMethod{}, points: map[string][]storage.ParcelPoint{}, handover: s.cfg.Handover}
	var err error
	if b.conn, err = s.db.ShopConnection(ctx); err != nil {
		return nil, err
	}
	methods, err := s.db.ShopMethods(ctx)
	if err != nil {
		return nil, err
	}
	for _, m := range methods {
		b.methods[methodKey(m.Kind, m.GUID)] = m
	}
	senders, err := s.db.Senders(ctx)
	if err != nil {
		return nil, err
	}
	if len(senders) > 0 {
		b.sender = senders[0]
	}
	if b.settings, err = s.db.Settings(ctx); err != nil {
		return nil, err
	}
	carriers, err := s.db.Carriers(ctx)
	if err != nil {
		return nil, err
	}
	b.carriers = make(map[string]string, len(carriers))
	for _, c := range carriers {
		b.carriers[c.Code] = cmp.Or(c.Name, c.Code)
	}
	var codes []string
	for _, o := range orders {
		if o.Point != nil && o.Point.BranchID != "" {
			codes = append(codes, o.Point.BranchID)
		}
	}
	found, err := s.db.PointsByCodes(ctx, codes)
	if err != nil {
		return nil, err
	}
	for _, p := range found {
		b.points[p.Code] = append(b.points[p.Code], p)
	}
	return b, nil
}

// judged is an order judged: the inbox's row, the form it ships with, its
// shipping method's mapping and the service's point.
type judged struct {
	row      storage.ShopOrder
	form     desk.Form
	method   storage.ShopMethod
	point    *storage.ParcelPoint
	problems []apperr.Text
	facts    shipFacts
}

// ready says the order ships as it is.
func (j judged) ready() bool { return j.row.State == storage.ShopWaiting && len(j.problems) == 0 }

// judge judges a kept order; ours are the tracking numbers our shipments
// of its parcels carry, key the request key its form is sent with.
func (b *basis) judge(ctx context.Context, k kept, ours []string, key string) judged {
	o := k.Order
	j := judged{method: b.methods[methodKey(storage.ShopShipping, o.Shipping.GUID)]}
	var p problems
	for _, f := range k.Cleaned {
		p.add(apperr.Msg("shop.why.cleaned", apperr.Msg(fieldLabels[f])))
	}
	j.row = b.row(k, ours)
	if j.row.State == storage.ShopElsewhere {
		p.add(apperr.Msg("shop.why.elsewhere", j.row.TrackingElsewhere))
	}
	switch j.method.Mapping {
	case storage.MapService, storage.MapRules:
	case storage.MapNotOurs:
		p.add(apperr.Msg("shop.why.not_ours", o.Shipping.Name))
	default:
		p.add(apperr.Msg("shop.why.unmapped", o.Shipping.Name))
	}
	country := strings.ToUpper(strings.TrimSpace(o.Delivery.Country))
	if country != "" && !countries.IsServed(country) {
		p.add(apperr.Msg("shop.why.country", country))
	}
	f := shipFacts{senderID: b.sender.ID, bankAccount: b.settings.BankAccount, bankCode: b.settings.BankCode,
		bankCurrency: b.settings.BankCurrency, handover: b.handover}
	if kg, why := Weight(o.Items); why.IsZero() {
		f.weight = kg
	} else {
		p.add(why)
	}
	// Cash on delivery is what the manager's mapping says; a payment method
	// the mapping does not know yet, what the order says.
	pay, mapped := b.methods[methodKey(storage.ShopPayment, o.Payment.GUID)]
	if pay.COD || !mapped && o.Payment.COD {
		f.cod = true
		if amount, why := CODAmount(o.Total, o.Currency); why.IsZero() {
			f.codAmount = amount
		} else {
			p.add(why)
		}
	}
	j.point = b.pointOf(ctx, o, j.method, &p)
	if j.point != nil {
		f.point = j.point.Code
	}
	if (j.method.Mapping == storage.MapService && j.method.ToPoint || o.Point != nil) && strings.TrimSpace(o.Phone) == "" {
		p.add(apperr.Msg("shop.why.phone_point"))
	}
	j.facts = f
	var read apperr.Problems
	j.form, read = parse(formValues(o, key, f))
	p.fields(read, country)
	p.fields(j.form.CheckForOffers(b.sender.Country), country)
	order := j.form
	order.Offer = desk.Offer{ServiceID: 1, DeliveryRequired: f.point != ""}
	checks := order.CheckForOrder(b.sender.Country)
	delete(checks, "offer")
	delete(checks, "form") // the request key: the parcel's, given when it ships
	p.fields(checks, country)
	j.problems = p.list
	j.row.Ready = j.ready()
	j.row.Problems, _ = json.Marshal(orEmpty(j.problems))
	if f.weight > 0 {
		j.row.WeightKg = &f.weight
	}
	if f.cod && f.codAmount > 0 {
		j.row.CODAmount = &f.codAmount
	}
	j.row.COD = f.cod
	return j
}

// row is the inbox's columns of a kept order, its state among them.
func (b *basis) row(k kept, ours []string) storage.ShopOrder {
	o := k.Order
	doc, _ := json.Marshal(k)
	cut := func(s string) string { c, _ := textin.Cut(strings.TrimSpace(s), 200); return c }
	r := storage.ShopOrder{Code: o.Code, CreatedAt: o.Created, ChangedAt: o.Changed, StatusID: o.Status.ID, StatusName: cut(o.Status.Name),
		ShippingGUID: o.Shipping.GUID, ShippingName: cut(o.Shipping.Name), PaymentGUID: o.Payment.GUID,
		Recipient: cut(cmpOr(o.Delivery.FullName, o.Delivery.Company)), City: cut(o.Delivery.City),
		Country: strings.ToUpper(cut(o.Delivery.Country)), Currency: cut(strings.ToUpper(o.Currency)), Doc: doc}
	if o.Point != nil {
		r.PointCode, r.PointName = cut(o.Point.BranchID), cut(pointName(*o.Point))
	}
	shipStatus := slices.Contains(b.conn.ShipStatuses, int64(o.Status.ID))
	switch {
	case o.Cancelled:
		r.State = storage.ShopCancelled
	case !shipStatus:
		r.State = storage.ShopOther
	case o.TrackingNumber != "" && !slices.Contains(ours, o.TrackingNumber):
		r.State, r.TrackingElsewhere = storage.ShopElsewhere, cut(o.TrackingNumber)
	default:
		r.State = storage.ShopWaiting
	}
	return r
}

// pointOf is the service's point the customer chose: found by its code
// among the service's points of the mapped carrier (or of any, by the
// offer rules); a code the service knows only for another carrier is that
// carrier's (a branchId of another network); a code it does not know at all
// is looked for by the point's address. nil when the order names none, or
// with a problem when it cannot be found.
func (b *basis) pointOf(ctx context.Context, o Order, m storage.ShopMethod, p *problems) *storage.ParcelPoint {
	if o.Point == nil || strings.TrimSpace(o.Point.BranchID) == "" {
		if m.Mapping == storage.MapService && m.ToPoint {
			p.add(apperr.Msg("shop.why.no_point"))
		}
		return nil
	}
	if m.Mapping == storage.MapService && !m.ToPoint {
		p.add(apperr.Msg("shop.why.point_for_address", o.Shipping.Name))
		return nil
	}
	// By the offer rules the point's carrier is whoever's the code is; the
	// platform's name of the carrier only tells apart codes two carriers share.
	carrier, byRules := m.Carrier, m.Mapping != storage.MapService
	if byRules {
		carrier = o.Point.Carrier
	}
	found := b.points[o.Point.BranchID]
	for _, pt := range found {
		if byRules && len(found) == 1 || strings.EqualFold(pt.Carrier, carrier) {
			return &pt
		}
	}
	if len(found) > 0 && !byRules {
		p.add(apperr.Msg("shop.why.point_carrier", o.Point.BranchID, cmp.Or(b.carriers[found[0].Carrier], found[0].Carrier)))
		return nil
	}
	if pt := b.pointByAddress(ctx, carrier, o.Point); pt != nil {
		return pt
	}
	p.add(apperr.Msg("shop.why.point_unknown", o.Point.BranchID))
	return nil
}

// pointByAddress finds the carrier's one point at the point's postal code
// whose street (and town) reads the same.
func (b *basis) pointByAddress(ctx context.Context, carrier string, at *Point) *storage.ParcelPoint {
	if carrier == "" || at.Zip == "" || at.Street == "" {
		return nil
	}
	list, err := b.db.PointsAtZip(ctx, strings.ToUpper(carrier), at.Zip)
	if err != nil {
		return nil
	}
	var match []storage.ParcelPoint
	for _, pt := range list {
		if folded(pt.Street) == folded(at.Street) && (at.City == "" || folded(pt.City) == folded(at.City)) {
			match = append(match, pt)
		}
	}
	if len(match) != 1 {
		return nil
	}
	return &match[0]
}

// folded is text with case, diacritics, spaces and punctuation left out.
func folded(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, storage.Fold(s))
}

// problems are an order's problems in words, each once.
type problems struct{ list []apperr.Text }

func (p *problems) add(t apperr.Text) {
	for _, have := range p.list {
		if have.String() == t.String() {
			return
		}
	}
	p.list = append(p.list, t)
}

// fields adds the form's problems, each said with its field; a country the
// service does not serve is said once, by the shop's own words.
func (p *problems) fields(ps apperr.Problems, country string) {
	names := make([]string, 0, len(ps))
	for k := range ps {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if k == "to_country" && country != "" && !countries.IsServed(country) {
			continue
		}
		p.add(apperr.Msg("shop.why.field", apperr.Msg(fieldLabels[fieldGroup(k)]), ps[k]))
	}
}

// fieldGroup names the part of an order a form field holds.
func fieldGroup(field string) string {
	switch {
	case field == "to_firstname" || field == "to_surname" || field == "to_company":
		return "name"
	case strings.HasPrefix(field, "pkg_") || field == "packages":
		return "weight"
	case strings.HasPrefix(field, "cod"):
		return "cod"
	case strings.HasPrefix(field, "customs_"):
		return "customs"
	case field == "delivery_branch":
		return "point"
	case strings.HasPrefix(field, "to_"):
		return strings.TrimPrefix(field, "to_")
	case field == "sender" || field == "reference":
		return field
	}
	return "order"
}

// fieldLabels say the parts of an order in words.
var fieldLabels = map[string]string{
	"name": "shop.field.name", "company": "shop.field.company", "street": "shop.field.street", "city": "shop.field.city",
	"zip": "shop.field.zip", "country": "shop.field.country", "phone": "shop.field.phone", "email": "shop.field.email",
	"weight": "shop.field.weight", "cod": "shop.field.cod", "customs": "shop.field.customs", "point": "shop.field.point",
	"sender": "shop.field.sender", "reference": "shop.field.reference", "order": "shop.field.order",
}

func orEmpty(ts []apperr.Text) []apperr.Text {
	if ts == nil {
		return []apperr.Text{}
	}
	return ts
}

func cmpOr(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}

// pointName is a point in words: its name, then what of its street and
// town the name does not say already (carriers name points by the street).
func pointName(p Point) string {
	parts := nonEmpty(p.Name)
	for _, s := range nonEmpty(p.Street, p.City) {
		if !strings.Contains(strings.Join(parts, ", "), s) {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

func nonEmpty(parts ...string) []string {
	var out []string
	for _, s := range parts {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
