package desk

import (
	"context"
	"encoding/json"
	"log/slog"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/cart"
	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/requestkey"
	"shipdesk/serviceerr"
	"shipdesk/storage"
	"shipdesk/textin"
)

// Desk runs the shipping desk on the database and the service's clients.
type Desk struct {
	db   *storage.DB
	ship *shipping.Client
	cart *cart.Client
	log  *slog.Logger
	now  func() time.Time
	// OrderTimeout bounds one create call and what follows it; the call goes on
	// when the clerk's browser goes away, so its answer is never lost.
	OrderTimeout time.Duration
	// Settle is how long after a create call's time limit the service may
	// still create the order; only then may an order be called missing.
	Settle time.Duration
}

// DefaultSettle is the settle window when none is configured.
const DefaultSettle = 3 * time.Minute

// New returns a desk.
func New(db *storage.DB, ship *shipping.Client, c *cart.Client, log *slog.Logger) *Desk {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Desk{db: db, ship: ship, cart: c, log: log, now: time.Now, OrderTimeout: 60 * time.Second, Settle: DefaultSettle}
}

// Blank is a new form with the default sender and the COD settings filled in.
func (d *Desk) Blank(ctx context.Context) (Form, error) {
	f := Form{Key: requestkey.New(), Handover: HandoverOnDemand, Packages: []Package{{}}}
	f.To.Country = "CZ"
	senders, err := d.db.Senders(ctx)
	if err != nil {
		return f, err
	}
	if len(senders) > 0 {
		f.SenderID = senders[0].ID
	}
	return f, d.FillCOD(ctx, &f)
}

// FillCOD puts the shop's bank details into empty COD fields.
func (d *Desk) FillCOD(ctx context.Context, f *Form) error {
	s, err := d.db.Settings(ctx)
	if err != nil {
		return err
	}
	fill := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	fill(&f.CODCurrency, s.CODCurrency)
	fill(&f.BankAccount, s.BankAccount)
	fill(&f.BankCode, s.BankCode)
	fill(&f.BankCurrency, s.BankCurrency)
	return nil
}

// invalid turns problems into an Invalid error the form shows field by field.
func invalid(p apperr.Problems) error {
	if len(p) == 0 {
		return nil
	}
	return apperr.Fields("Some fields need attention: see the marked fields.", p)
}

func (d *Desk) sender(ctx context.Context, f Form) (storage.Sender, error) {
	if f.SenderID == 0 {
		return storage.Sender{}, nil
	}
	s, err := d.db.SenderByID(ctx, f.SenderID)
	if apperr.Is(err, apperr.NotFound) {
		return s, invalid(apperr.Problems{"sender": "This sender no longer exists: choose another."})
	}
	return s, err
}

// Offers asks the service for the offers for the form, sorted as the clerk chose.
func (d *Desk) Offers(ctx context.Context, f Form) ([]shipping.Rate, error) {
	from, err := d.sender(ctx, f)
	if err != nil {
		return nil, err
	}
	if err := invalid(f.CheckForOffers(from.Country)); err != nil {
		return nil, err
	}
	sh := d.shipment(f, from)
	sh.Carrier, sh.ServiceID, sh.DeliveryBranch, sh.LabelLess = "", 0, "", false
	if f.COD { // rates need only the value; insurance stays, it is priced in the offers
		sh.Services = slices.DeleteFunc(sh.Services, func(s shipping.Service) bool { return s.Code == shipping.ServiceCodeCOD })
		sh.Services = append(sh.Services, shipping.COD(shipping.ServiceCOD{Value: codMoney(f)}))
	}
	var rates []shipping.Rate
	if f.Handover == HandoverPoint {
		rates, err = d.pointOffers(ctx, sh)
	} else {
		rates, err = d.ship.Rates(ctx, shipping.RateRequest{Currency: "CZK", Shipment: sh})
	}
	if err != nil {
		return nil, UpstreamError("compare offers", err)
	}
	textin.FromService(&rates) // carrier codes are stored, offers are carried in the form
	seen := make([]string, 0, len(rates))
	for _, r := range rates {
		seen = append(seen, r.Carrier)
	}
	if err := d.db.SeeCarriers(ctx, seen); err != nil {
		d.log.Warn("remember carriers", "err", err) // only the carrier table's list suffers
	}
	SortOffers(rates, f.Sort)
	return rates, nil
}

// pointOffers asks each carrier with points for its offers when the package is
// handed over at any of its points: a point needs its carrier in the request
// (the spec's rule 3), so one question per carrier, asked at once.
func (d *Desk) pointOffers(ctx context.Context, sh shipping.Shipment) ([]shipping.Rate, error) {
	carriers, err := d.db.PointCarriers(ctx)
	if err != nil {
		return nil, err
	}
	type answer struct {
		rates []shipping.Rate
		err   error
	}
	answers := make([]answer, len(carriers))
	var wg sync.WaitGroup
	for i, c := range carriers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := sh
			q.Carrier, q.PickupBranch = c, shipping.AnyBranch
			answers[i].rates, answers[i].err = d.ship.Rates(ctx, shipping.RateRequest{Currency: "CZK", Shipment: q})
		}()
	}
	wg.Wait()
	var out []shipping.Rate
	var firstErr error
	for _, a := range answers {
		switch {
		case a.err == nil:
			out = append(out, a.rates...)
		case transport.HasFieldErrors(a.err):
			// this carrier takes no packages at points for these details
		case firstErr == nil:
			firstErr = a.err
		}
	}
	if out == nil && firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

// SortOffers orders offers by price (default), delivery date or carrier;
// unselectable offers go last.
func SortOffers(rates []shipping.Rate, by string) {
	key := func(r shipping.Rate) string {
		switch by {
		case "delivery":
			return r.DeliveryDate
		case "carrier":
			return r.Carrier
		}
		return ""
	}
	sort.SliceStable(rates, func(i, j int) bool {
		a, b := rates[i], rates[j]
		if a.Selectable != b.Selectable {
			return a.Selectable
		}
		if ka, kb := key(a), key(b); ka != kb {
			return ka < kb
		}
		return a.PriceVAT.Value < b.PriceVAT.Value
	})
}

func codMoney(f Form) shipping.Money {
	v, _ := strconv.ParseFloat(strings.Replace(f.CODValue, ",", ".", 1), 64)
	return shipping.Money{Value: v, Currency: f.CODCurrency}
}

// insuredMoney is the insured value; the shop insures in crowns.
func insuredMoney(f Form) shipping.Money {
	v, _ := strconv.ParseFloat(strings.Replace(f.InsuredValue, ",", ".", 1), 64)
	return shipping.Money{Value: v, Currency: "CZK"}
}

// reference is what identifies the shipment at the service: the clerk's, or
// one made from the request key.
func reference(f Form) string {
	if f.Reference != "" {
		return f.Reference
	}
	return "SD-" + strings.ToUpper(strings.ReplaceAll(f.Key, "-", "")[:12])
}

// shipment builds the shipment of the order from the form.
func (d *Desk) shipment(f Form, from storage.Sender) shipping.Shipment {
	sh := shipping.Shipment{
		Type: f.Handover, Carrier: f.Offer.Carrier, ServiceID: f.Offer.ServiceID, PickupDate: f.PickupDate,
		To: f.To, Reference: reference(f), Note: f.Note, LabelLess: f.LabelLess, DeliveryBranch: f.DeliveryBranch,
	}
	if f.Handover == HandoverPoint {
		sh.Type = shipping.PickupOnDemand
		sh.PickupBranch = f.PickupBranch
		if sh.PickupBranch == "" {
			sh.PickupBranch = shipping.AnyBranch
		}
	}
	if from.ContactID != nil {
		sh.From = shipping.Address{ID: *from.ContactID}
	} else {
		a := from.Address
		sh.From = shipping.Address{Company: a.Company, Firstname: a.Firstname, Surname: a.Surname, Street: a.Street,
			City: a.City, Zip: a.Zip, Country: a.Country, Phone: a.Phone, Email: a.Email}
	}
	for _, k := range f.Packages {
		sh.Packages = append(sh.Packages, shipping.Package{Weight: k.Weight, Length: k.Length, Width: k.Width, Height: k.Height})
	}
	if f.COD {
		sh.Services = []shipping.Service{shipping.COD(shipping.ServiceCOD{Value: codMoney(f),
			BankAccount: strings.ReplaceAll(f.BankAccount, " ", ""), BankCode: f.BankCode,
			BankVariable: f.BankVariable, BankCurrency: f.BankCurrency})}
	}
	if f.Insure {
		sh.Services = append(sh.Services, shipping.Insurance(insuredMoney(f)))
	}
	return sh
}

// labelProblem says why a shipment has no label to print, or nil.
func labelProblem(s storage.Shipment) error {
	switch {
	case s.State != storage.StateCreated:
		return apperr.New(apperr.Conflict, "Shipment %d is not ordered yet.", s.ID)
	case s.CancelledAt != nil:
		return apperr.New(apperr.Conflict, "Shipment %d is cancelled.", s.ID)
	case s.LabelMode == shipping.LabelCarrier:
		return apperr.New(apperr.Conflict, "The courier brings the label for shipment %d: there is nothing to print.", s.ID)
	case s.LabelStatus == shipping.LabelFailed:
		return apperr.New(apperr.Conflict, "No label could be obtained for shipment %d: contact the service's support.", s.ID)
	case s.LabelStatus != shipping.LabelReady:
		return apperr.New(apperr.Conflict, "The label of shipment %d is not ready yet: it comes once the carrier has the data.", s.ID)
	}
	return nil
}

// Label fetches the label PDF of one shipment whose label is ready.
func (d *Desk) Label(ctx context.Context, id int64) ([]byte, error) {
	s, err := d.db.ShipmentByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := labelProblem(s); err != nil {
		return nil, err
	}
	pdf, err := d.ship.Label(ctx, []string{s.Tracking()})
	if err != nil {
		return nil, UpstreamError("download the label", err)
	}
	return pdf, nil
}

// PrintBatch fetches one PDF with the labels of the shipments (one call) and
// marks them printed.
func (d *Desk) PrintBatch(ctx context.Context, ids []int64) ([]byte, error) {
	if len(ids) == 0 {
		return nil, apperr.Fields("Select the labels to print.", map[string]string{"ids": "Select at least one shipment."})
	}
	list, err := d.db.ShipmentsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	var numbers []string
	var printable []int64
	for _, s := range list {
		if labelProblem(s) == nil {
			numbers, printable = append(numbers, s.Tracking()), append(printable, s.ID)
		}
	}
	if len(numbers) == 0 {
		return nil, apperr.New(apperr.Conflict, "None of the selected shipments has a label ready.")
	}
	pdf, err := d.ship.Label(ctx, numbers)
	if err != nil {
		return nil, UpstreamError("download the labels", err)
	}
	return pdf, d.db.MarkPrinted(ctx, printable, d.now())
}

// Manifest fetches the hand-over protocol of a day's shipments.
func (d *Desk) Manifest(ctx context.Context, day time.Time) ([]byte, int, error) {
	list, err := d.db.ShipmentsOfDay(ctx, day)
	if err != nil {
		return nil, 0, err
	}
	if len(list) == 0 {
		return nil, 0, apperr.New(apperr.NotFound, "No shipments were ordered on %s.", day.Format("2006-01-02"))
	}
	numbers := make([]string, 0, len(list))
	for _, s := range list {
		numbers = append(numbers, s.Tracking())
	}
	pdf, err := d.ship.Manifest(ctx, numbers)
	if err != nil {
		return nil, 0, UpstreamError("download the hand-over protocol", err)
	}
	return pdf, len(list), nil
}

// Storno cancels a shipment at the service.
func (d *Desk) Storno(ctx context.Context, id int64) (storage.Shipment, error) {
	s, err := d.db.ShipmentByID(ctx, id)
	if err != nil {
		return s, err
	}
	if s.State != storage.StateCreated || s.CancelledAt != nil {
		return s, apperr.New(apperr.Conflict, "Shipment %d cannot be cancelled: it is not an active order.", id)
	}
	if err := d.ship.Storno(ctx, []string{s.Tracking()}); err != nil {
		return s, UpstreamError("cancel the shipment", err)
	}
	if err := d.db.MarkCancelled(ctx, id, d.now()); err != nil {
		return s, err
	}
	return d.db.ShipmentByID(ctx, id)
}

// SendDraft creates a cart draft from the form for a person to review in the
// provider's manager. Omitted sender, packages and service take the account's
// defaults, which the draft reports.
func (d *Desk) SendDraft(ctx context.Context, f Form, by int64) (storage.Draft, error) {
	from, err := d.sender(ctx, f)
	if err != nil {
		return storage.Draft{}, err
	}
	p := apperr.Problems{}
	if f.To.Surname == "" && f.To.Company == "" {
		p.Add("to_surname", "Type the recipient's surname or company.")
	}
	if f.To.Country == "" {
		p.Add("to_country", "Choose the recipient's country.")
	}
	if err := invalid(p); err != nil {
		return storage.Draft{}, err
	}
	req := cart.Request{To: f.To, ServiceID: f.Offer.ServiceID, ReferenceNumber: f.Reference}
	if f.SenderID != 0 {
		sh := d.shipment(f, from)
		req.From = &sh.From
	}
	for _, k := range f.Packages {
		req.Packages = append(req.Packages, cart.Package{Weight: k.Weight, Width: k.Width, Height: k.Height, Length: k.Length})
	}
	if f.Handover == HandoverPoint {
		req.PickupBranch = f.PickupBranch
		if req.PickupBranch == "" {
			req.PickupBranch = shipping.AnyBranch
		}
	}
	draft, err := d.cart.Create(ctx, req)
	if err != nil {
		return storage.Draft{}, UpstreamError("create the draft", err)
	}
	textin.FromService(draft)
	warnings, _ := json.Marshal(orEmpty(draft.Warnings))
	defaults, _ := json.Marshal(orEmpty(draft.Defaults))
	return d.db.SaveDraft(ctx, storage.Draft{DraftID: draft.ID, Reference: draft.ReferenceNumber, Recipient: RecipientName(f.To),
		Warnings: warnings, Defaults: defaults, Modified: draft.Modified, CreatedBy: storage.UserRef(by)})
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Texts a person reads when the link to the service failed: no answer, a
// dropped connection, a 5xx, an answer we cannot read. What exactly happened
// ("EOF", "connection reset", …) is for the log only; the transport logs every
// failed call with it.
const (
	NoAnswer       = "The shipping service did not answer in time. Nothing was lost: try again, or check the shipment's status."
	OutcomeUnknown = "The shipping service did not answer in time. Nothing was lost: the order is being checked with the service by its reference."
)

// upstream maps the service's failures for the shipping desk's forms.
var upstream = serviceerr.Mapper{Field: FormField, NoAnswer: NoAnswer,
	NotFound: "the service does not know this shipment (yet).",
	Refused:  "The shipping service refused our API key: a manager should check the Connection page."}

// UpstreamError turns a failed call into a message for the clerk: the service's
// field errors onto the form's fields, its refusals into one sentence, and a
// failed link into NoAnswer.
func UpstreamError(doing string, err error) error { return upstream.Map(doing, err) }

var (
	shipmentPrefix = regexp.MustCompile(`^shipments\[\d+\]\.`)
	packagePath    = regexp.MustCompile(`^packages\[(\d+)\](?:\.(weight|length|width|height))?$`)
	servicePath    = regexp.MustCompile(`^services\[\d+\]\.data\.?(.*)$`)
)

// FormField names the form field of a field path in the service's answer.
func FormField(path string) string {
	path = shipmentPrefix.ReplaceAllString(path, "")
	if m := packagePath.FindStringSubmatch(path); m != nil {
		if m[2] == "" {
			return "packages"
		}
		return "pkg_" + m[2] + "_" + m[1]
	}
	if m := servicePath.FindStringSubmatch(path); m != nil {
		if m[1] == "" {
			return "cod"
		}
		return codField(m[1])
	}
	switch {
	case strings.HasPrefix(path, "to."):
		return "to_" + strings.TrimPrefix(path, "to.")
	case strings.HasPrefix(path, "from"):
		return "sender"
	}
	switch path {
	case "label_less", "reference", "pickup_date", "note", "delivery_branch", "pickup_branch":
		return path
	case "pickup_branch_location":
		return "pickup_branch"
	case "delivery_branch_location":
		return "delivery_branch"
	case "type":
		return "handover"
	case "service_id", "carrier", "currency", "payment_type", "serviceId":
		return "offer"
	case "packages":
		return "packages"
	case "pickupBranch":
		return "pickup_branch"
	case "referenceNumber":
		return "reference"
	}
	return "form"
}
