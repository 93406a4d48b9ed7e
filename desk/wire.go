package desk

import (
	"math"
	"strconv"
	"strings"

	"shipdesk/client/shipping"
	"shipdesk/storage"
	"shipdesk/textin"
)

// The desk's own types and their one conversion each way to the service's
// wire types (client/shipping) and to the stored ones (storage). Handlers see
// only the desk's types.

// Address is a sender's or recipient's address.
type Address struct {
	Company, Firstname, Surname string
	Street, City, Zip, Country  string
	Phone, Email                string
}

func (a Address) wire() shipping.Address {
	return shipping.Address{Company: a.Company, Firstname: a.Firstname, Surname: a.Surname, Street: a.Street,
		City: a.City, Zip: a.Zip, Country: a.Country, Phone: a.Phone, Email: a.Email}
}

func addressOf(w shipping.Address) Address {
	return Address{Company: w.Company, Firstname: w.Firstname, Surname: w.Surname, Street: w.Street,
		City: w.City, Zip: w.Zip, Country: w.Country, Phone: w.Phone, Email: w.Email}
}

func (a Address) stored() storage.Address {
	return storage.Address{Company: a.Company, Firstname: a.Firstname, Surname: a.Surname, Street: a.Street,
		City: a.City, Zip: a.Zip, Country: a.Country, Phone: a.Phone, Email: a.Email}
}

// AddressOf is a stored address (a sender's, a saved recipient's) as the desk keeps it.
func AddressOf(s storage.Address) Address {
	return Address{Company: s.Company, Firstname: s.Firstname, Surname: s.Surname, Street: s.Street,
		City: s.City, Zip: s.Zip, Country: s.Country, Phone: s.Phone, Email: s.Email}
}

// Name is how lists show a recipient: the name, and the company.
func (a Address) Name() string {
	name := strings.TrimSpace(a.Firstname + " " + a.Surname)
	if a.Company != "" {
		if name == "" {
			return a.Company
		}
		return name + " (" + a.Company + ")"
	}
	return name
}

// RecipientName is how lists show the recipient of a shipment the service reports.
func RecipientName(a shipping.Address) string { return addressOf(a).Name() }

// Money is an amount in a currency.
type Money struct {
	Value    float64
	Currency string
}

// String is the amount as few digits as it needs, e.g. "1250 CZK".
func (m Money) String() string {
	return strconv.FormatFloat(m.Value, 'f', -1, 64) + " " + m.Currency
}

// Price is the amount with two decimals, e.g. "121.00 CZK".
func (m Money) Price() string {
	return strconv.FormatFloat(m.Value, 'f', 2, 64) + " " + m.Currency
}

func (m Money) wire() shipping.Money { return shipping.Money{Value: m.Value, Currency: m.Currency} }

func moneyOf(w shipping.Money) Money { return Money{Value: w.Value, Currency: w.Currency} }

// known is the price when it is one that can be kept: a currency code and an
// amount from 0 to 10 000 000 in cents (a price the page sent back damaged,
// or none at all, is not known).
func (m Money) known() (Money, bool) {
	if !textin.IsCurrency(m.Currency) || !(m.Value >= 0 && m.Value < 1e7) {
		return Money{}, false
	}
	return Money{Value: math.Round(m.Value*100) / 100, Currency: m.Currency}, true
}

// parsePrice reads a price as Price writes it; what cannot be read is zero
// in no currency.
func parsePrice(s string) Money {
	value, currency, _ := strings.Cut(strings.TrimSpace(s), " ")
	v, err := strconv.ParseFloat(value, 64)
	if err != nil {
		return Money{}
	}
	return Money{Value: v, Currency: currency}
}

// Offer is one of the service's offers for a shipment, and the chosen one
// carried in the form between steps.
type Offer struct {
	ServiceID        int
	Carrier          string
	Service          string
	LabelMode        string
	DeliveryRequired bool // the service delivers to a point: one must be chosen
	Price, PriceVAT  Money
	Delivery         string // expected delivery date, YYYY-MM-DD
	Selectable       bool   // the service offers it for these details
	// LabelFree: offered for a label-free hand-over at one of the carrier's
	// points, beside the offers for the hand-over the form names. Choosing it
	// makes the hand-over a point and asks for no label.
	LabelFree bool
}

// labelFreeChoice marks the label-free variant of an offer in a choice.
const labelFreeChoice = "-label-free"

// Choice is what the offer's Choose button sends: its service, and whether it
// is the label-free variant.
func (o Offer) Choice() string {
	if o.LabelFree {
		return strconv.Itoa(o.ServiceID) + labelFreeChoice
	}
	return strconv.Itoa(o.ServiceID)
}

func offerOf(r shipping.Rate) Offer {
	return Offer{ServiceID: r.ServiceID, Carrier: r.Carrier, Service: r.Service, LabelMode: r.LabelMode,
		DeliveryRequired: r.DeliveryBranchRequired, Price: moneyOf(r.Price), PriceVAT: moneyOf(r.PriceVAT),
		Delivery: r.DeliveryDate, Selectable: r.Selectable}
}

func offersOf(rates []shipping.Rate) []Offer {
	out := make([]Offer, 0, len(rates))
	for _, r := range rates {
		out = append(out, offerOf(r))
	}
	return out
}

// PickupAddress is an address stored at the service that a courier can come to.
type PickupAddress struct {
	ID   int64
	Line string // the address on one line
}

func pickupAddressOf(c shipping.Contact) PickupAddress {
	return PickupAddress{ID: c.ID, Line: contactLine(c)}
}

// shipment builds the shipment of the order from the form.
func (d *Desk) shipment(f Form, from storage.Sender) shipping.Shipment {
	sh := shipping.Shipment{
		Type: f.Handover, Carrier: f.Offer.Carrier, ServiceID: f.Offer.ServiceID, PickupDate: f.PickupDate,
		To: f.To.wire(), Reference: reference(f), Note: f.Note, LabelLess: f.LabelLess, DeliveryBranch: f.DeliveryBranch,
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
		sh.From = AddressOf(from.Address).wire()
	}
	for _, k := range f.Packages {
		sh.Packages = append(sh.Packages, shipping.Package{Weight: k.Weight, Length: k.Length, Width: k.Width, Height: k.Height})
	}
	if f.COD {
		sh.Services = []shipping.Service{shipping.COD(shipping.ServiceCOD{Value: codMoney(f).wire(),
			BankAccount: strings.ReplaceAll(f.BankAccount, " ", ""), BankCode: f.BankCode,
			BankVariable: f.BankVariable, BankCurrency: f.BankCurrency})}
	}
	if f.Insure {
		sh.Services = append(sh.Services, shipping.Insurance(insuredMoney(f).wire()))
	}
	sh.Customs = f.customsWire()
	return sh
}

func codMoney(f Form) Money { return Money{Value: amount(f.CODValue), Currency: f.CODCurrency} }

// insuredMoney is the insured value; the shop insures in crowns.
func insuredMoney(f Form) Money { return Money{Value: amount(f.InsuredValue), Currency: "CZK"} }

// amount reads an amount as the form's checks read it ("1 299,50"); what is no
// amount is 0, which the checks have refused already.
func amount(s string) float64 {
	v, problem := textin.Decimal(s, textin.Range{Above: -math.MaxFloat64, Max: math.MaxFloat64})
	if !problem.IsZero() {
		return 0
	}
	return v
}

// reference is what identifies the shipment at the service: the clerk's, or
// one made from the request key.
func reference(f Form) string {
	if f.Reference != "" {
		return f.Reference
	}
	return "SD-" + strings.ToUpper(strings.ReplaceAll(f.Key, "-", "")[:12])
}
