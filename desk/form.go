// Package desk is the shipping desk: the new-shipment form and its rules, offers,
// ordering with a recorded intent and reconciliation, labels, the print queue,
// hand-over protocols, storno, cart drafts and the parcel-point cache.
package desk

import (
	"cmp"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/cod"
	"shipdesk/countries"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/textin"
)

// Hand-over choices: three pickup types, or the clerk takes it to a point.
const (
	HandoverOnDemand   = shipping.PickupOnDemand
	HandoverRegular    = shipping.PickupRegular
	HandoverOccasional = shipping.PickupOccasional
	HandoverPoint      = "POINT"
)

// Limits of the form, so nothing oversized reaches the database or the service.
const (
	MaxPackages  = 20
	maxText      = 100
	maxNote      = 300
	maxReference = 64
	maxWeightKg  = 1000
	maxDimCm     = 500
)

// Countries the shop ships to (the dashboard's list in package countries;
// which carrier goes where, the offers say).
var Countries = countries.Served

// maxInsuredCZK bounds the insured value the form accepts; the service has a
// lower maximum per service, which its offers and errors say.
const maxInsuredCZK = 10_000_000

// Package is one row of the packages table.
type Package struct {
	Weight, Length, Width, Height float64
	Raw                           [4]string // what was typed, shown again on errors
}

// Form is the new-shipment form: everything the clerk typed.
type Form struct {
	Key            string // request key: one order per form, whatever is clicked twice
	SenderID       int64
	To             Address
	SaveRecipient  bool
	Packages       []Package
	Handover       string
	PickupDate     string
	COD            bool
	CODValue       string
	Insure         bool
	InsuredValue   string // CZK; prefilled from the COD amount
	CODCurrency    string
	BankAccount    string
	BankCode       string
	BankVariable   string
	BankCurrency   string
	Reference      string
	Note           string
	Offer          Offer  // the chosen offer
	PickupBranch   string // point code, or "1" for any branch
	DeliveryBranch string
	LabelLess      bool
	NoCustomerMail bool    // the recipient gets no mail of the parcel's steps
	Sort           string  // offers: price, delivery, carrier
	Customs        Customs // outside the EU customs territory (NeedsCustoms)

	// Carrier is what is known of the chosen offer's carrier; the desk fills
	// it in, it is never posted.
	Carrier storage.Carrier
}

// ParseForm reads the posted form. Values that cannot be read are problems;
// the form keeps them as typed.
func ParseForm(v url.Values) (Form, apperr.Problems) {
	p := apperr.Problems{}
	fields := textin.NewFields(v, p)
	text := fields.Line
	f := Form{
		Key:        strings.ToLower(text("key", 40)),
		Handover:   text("handover", 20),
		PickupDate: isoDay(text("pickup_date", 20)),
		COD:        v.Get("cod") == "on",
		Insure:     v.Get("insure") == "on",
		Reference:  text("reference", maxReference),
		Note:       text("note", maxNote),
		Sort:       cmp.Or(text("sort", 20), text("sorted", 20)),
		LabelLess:  v.Get("label_less") == "on",
	}
	f.NoCustomerMail = v.Get("no_customer_mail") == "on"
	f.SaveRecipient = v.Get("save_recipient") == "on"
	f.To = Address{
		Firstname: text("to_firstname", maxText), Surname: text("to_surname", maxText), Company: text("to_company", maxText),
		Street: text("to_street", maxText), City: text("to_city", maxText), Zip: text("to_zip", maxZip),
		Country: strings.ToUpper(text("to_country", 2)), Phone: NormalPhone(text("to_phone", maxPhone)), Email: text("to_email", maxText),
	}
	// Sums as people type them: "1.250" and "1250 Kč" are 1 250.
	f.CODValue, f.CODCurrency = textin.Amount(text("cod_value", 20)), strings.ToUpper(text("cod_currency", 3))
	if x, problem := textin.Decimal(f.CODValue, textin.Range{Max: math.MaxFloat64}); problem.IsZero() {
		f.CODValue = strconv.FormatFloat(x, 'f', -1, 64) // "1 299,50" is 1299.5
	}
	f.InsuredValue = textin.Amount(text("insured_value", 20))
	if f.Insure && f.InsuredValue == "" && f.COD {
		f.InsuredValue = f.CODValue // what the parcel is worth to the shop is at least what it collects
	}
	f.BankAccount, f.BankCode = text("cod_bank_account", 64), text("cod_bank_code", 10)
	// "19-2000145399/0800" fills the account and the bank code; a shape the
	// reader does not know stays as typed for the COD rules to explain.
	if account, code, problem := textin.BankAccount(f.BankAccount); problem.IsZero() && f.BankAccount != "" {
		f.BankAccount = account
		if code != "" {
			f.BankCode = code
		}
	}
	f.BankVariable, f.BankCurrency = text("cod_bank_variable", 20), strings.ToUpper(text("cod_bank_currency", 3))
	f.PickupBranch, f.DeliveryBranch = text("pickup_branch", 40), text("delivery_branch", 40)
	f.Customs = parseCustoms(text)
	if f.Key != "" && !requestkey.Valid(f.Key) {
		p.Add("form", "ship.err.damaged")
		f.Key = ""
	}
	if s := text("sender", 20); s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			p.Add("sender", "ship.err.sender_list")
		}
		f.SenderID = id
	}
	switch f.Handover {
	case HandoverOnDemand, HandoverRegular, HandoverOccasional, HandoverPoint:
	case "":
		f.Handover = HandoverOnDemand
	default:
		p.Add("handover", "ship.err.handover")
		f.Handover = HandoverOnDemand
	}
	f.Packages = parsePackages(v, p)
	f.Offer = parseOffer(v, p)
	return f, p
}

func parsePackages(v url.Values, p apperr.Problems) []Package {
	w, l, wd, h := v["pkg_weight"], v["pkg_length"], v["pkg_width"], v["pkg_height"]
	n := max(len(w), len(l), len(wd), len(h))
	if n > MaxPackages {
		p.Put("packages", apperr.Count("ship.err.packages_max", MaxPackages))
		n = MaxPackages
	}
	at := func(s []string, i int) string {
		if i < len(s) {
			x, _ := textin.Line(s[i], 20) // a number's own check says what is wrong
			return x
		}
		return ""
	}
	var out []Package
	for i := range n {
		raw := [4]string{at(w, i), at(l, i), at(wd, i), at(h, i)}
		if raw == [4]string{} {
			continue // an empty row is not a package
		}
		k := Package{Raw: raw}
		idx := len(out)
		k.Weight = number(p, fmt.Sprintf("pkg_weight_%d", idx), raw[0], true, maxWeightKg, "kg")
		k.Length = number(p, fmt.Sprintf("pkg_length_%d", idx), raw[1], false, maxDimCm, "cm")
		k.Width = number(p, fmt.Sprintf("pkg_width_%d", idx), raw[2], false, maxDimCm, "cm")
		k.Height = number(p, fmt.Sprintf("pkg_height_%d", idx), raw[3], false, maxDimCm, "cm")
		out = append(out, k)
	}
	return out
}

// number reads a decimal (comma or point) within (0, limit].
func number(p apperr.Problems, field, s string, required bool, limit float64, unit string) float64 {
	if s == "" {
		if required {
			p.Add(field, "form.required")
		}
		return 0
	}
	x, problem := textin.Decimal(s, textin.Range{Max: limit, Unit: unit})
	p.Put(field, problem)
	return x
}

func parseOffer(v url.Values, p apperr.Problems) Offer {
	// The offer comes back from the page: hidden fields, checked as typed text.
	offer := apperr.Problems{}
	text := textin.NewFields(v, offer).Line
	o := Offer{Carrier: text("offer_carrier", 20), Service: text("offer_service", maxText),
		LabelMode: text("offer_label_mode", 20), DeliveryRequired: v.Get("offer_delivery") == "true", PriceVAT: parsePrice(text("offer_price", 40)),
		LabelFree: v.Get("offer_label_free") == "true"}
	if s := text("offer_service_id", 20); s != "" || len(offer) > 0 {
		id, err := strconv.Atoi(s)
		if err != nil || id <= 0 || len(offer) > 0 {
			p.Add("offer", "ship.err.offer_again")
			return Offer{}
		}
		o.ServiceID = id
	}
	return o
}

// Values writes the form back as form values, to render it again as typed.
func (f Form) Values() map[string]string {
	v := map[string]string{
		"key": f.Key, "handover": f.Handover, "pickup_date": f.PickupDate, "reference": f.Reference, "note": f.Note,
		"to_firstname": f.To.Firstname, "to_surname": f.To.Surname, "to_company": f.To.Company, "to_street": f.To.Street,
		"to_city": f.To.City, "to_zip": f.To.Zip, "to_country": f.To.Country, "to_phone": f.To.Phone, "to_email": f.To.Email,
		"cod_value": f.CODValue, "cod_currency": f.CODCurrency, "insured_value": f.InsuredValue, "cod_bank_account": f.BankAccount, "cod_bank_code": f.BankCode,
		"cod_bank_variable": f.BankVariable, "cod_bank_currency": f.BankCurrency,
		"pickup_branch": f.PickupBranch, "delivery_branch": f.DeliveryBranch, "sort": f.Sort,
	}
	f.Customs.values(v)
	if f.SenderID > 0 {
		v["sender"] = strconv.FormatInt(f.SenderID, 10)
	}
	for name, on := range map[string]bool{"cod": f.COD, "insure": f.Insure, "label_less": f.LabelLess, "save_recipient": f.SaveRecipient,
		"no_customer_mail": f.NoCustomerMail} {
		if on {
			v[name] = "on"
		}
	}
	return v
}

// isoDay is a day typed the Czech way (14. 12. 2026) or as ISO, written as
// ISO for the service; what is no day stays as typed, for the checks to refuse.
func isoDay(s string) string {
	if d, problem := textin.Date(s); problem.IsZero() {
		return d.Format("2006-01-02")
	}
	return s
}

// UsesPoint: the package is handed over at a point or delivered to one.
func (f Form) UsesPoint() bool {
	return f.Handover == HandoverPoint || f.DeliveryBranch != "" || f.Offer.DeliveryRequired
}

// codGroups maps the carrier table's rule on several packages to the spec's
// groups that the cod package checks.
var codGroups = map[string]string{
	storage.CODPackagesSingle:          "K1",
	storage.CODPackagesSingleWithPoint: "K2",
	storage.CODPackagesSingleToSK:      "K3",
}

// codInput is the COD request with the facts the rules depend on. The service
// maximum is known only upstream (offers say when it is exceeded); the rule on
// several packages comes from the carrier table, and when it is not known
// there, from the service's answer to shipments/validate before the order.
func (f Form) codInput(fromCountry string, forRates bool) cod.Input {
	group := codGroups[f.Carrier.CODPackages]
	return cod.Input{Value: amount(f.CODValue), Currency: f.CODCurrency, BankAccount: f.BankAccount, BankCode: f.BankCode,
		BankVariable: f.BankVariable, BankCurrency: f.BankCurrency, From: fromCountry, To: f.To.Country,
		Packages: len(f.Packages), Group: group, UsesPoint: f.UsesPoint(), MaxCZK: math.MaxFloat64, ForRates: forRates}
}

// codField names the form field of a COD rule's field.
func codField(field string) string {
	switch field {
	case "value", "value.value":
		return "cod_value"
	case "value.currency":
		return "cod_currency"
	case "packages":
		return "cod"
	}
	return "cod_" + field
}

// checkBasics are the rules both offers and orders need.
func (f Form) checkBasics(p apperr.Problems, fromCountry string, forRates bool) {
	if f.SenderID == 0 {
		p.Add("sender", "ship.err.sender")
	}
	if len(f.Packages) == 0 {
		p.Add("packages", "ship.err.packages_none")
	}
	if f.PickupDate != "" {
		if _, err := time.Parse("2006-01-02", f.PickupDate); err != nil {
			p.Add("pickup_date", "form.date_picker")
		}
	}
	if f.COD {
		// Finite and positive here; the maximum is the service's (cod.Check).
		if _, problem := textin.Decimal(f.CODValue, textin.Range{Max: math.MaxFloat64}); !problem.IsZero() {
			p.Add("cod_value", "ship.err.cod_amount")
		}
		for _, pr := range cod.Check(f.codInput(fromCountry, forRates)) {
			p.Add(codField(pr.Field), "text.sentence", pr.Text)
		}
	}
	if f.Insure {
		_, problem := textin.Decimal(f.InsuredValue, textin.Range{Max: maxInsuredCZK, Unit: "CZK"})
		switch {
		case f.InsuredValue == "":
			p.Add("insured_value", "ship.err.insured_value")
		case problem.Key == textin.NotANumber:
			p.Add("insured_value", "ship.err.insured_number")
		default:
			p.Put("insured_value", problem)
		}
	}
}

// CheckForOffers returns what must be fixed before asking for offers: the
// rules offers need, and the recipient an order will need, every problem at
// once, so the clerk fixes the form in one go instead of meeting the
// recipient's problems only at the order. Before the offers nobody knows
// whether the parcel goes to a point, where the street is not needed: the
// town and postal code are asked for (they find the points), the street only
// with the order.
func (f Form) CheckForOffers(fromCountry string) apperr.Problems {
	p := apperr.Problems{}
	f.checkBasics(p, fromCountry, true)
	f.checkRecipient(p, NeedTown)
	return p
}

// checkRecipient checks who the shipment goes to and the parts of the
// address the destination needs (the desk's rules of a person's address).
func (f Form) checkRecipient(p apperr.Problems, need AddressNeed) {
	for field, msg := range CheckAddress(f.To, need) {
		p.Put(field, msg)
	}
}

// CheckForOrder returns what must be fixed before the order is sent.
func (f Form) CheckForOrder(fromCountry string) apperr.Problems {
	p := apperr.Problems{}
	f.checkBasics(p, fromCountry, false)
	if f.Key == "" {
		p.Add("form", "ship.err.damaged")
	}
	if f.Offer.ServiceID == 0 {
		p.Add("offer", "ship.err.offer_first")
	}
	need := NeedAddress
	if f.Offer.DeliveryRequired || f.DeliveryBranch != "" {
		need = NeedNoAddress
	}
	f.checkRecipient(p, need)
	f.checkCustoms(p)
	if f.Offer.DeliveryRequired && f.DeliveryBranch == "" {
		p.Add("delivery_branch", "ship.err.delivery_point")
	}
	if f.LabelLess {
		for _, why := range f.LabelFreeBlockers(fromCountry) {
			p.Put("label_less", why)
		}
	}
	return p
}

// LabelFreeBlockers says why a label-free hand-over is not possible for this
// form, as far as the form and the carrier table know (the spec's conditions,
// with its messages). None means it may be: when the carrier table does not
// know the carrier, the service decides (Desk.LabelFree asks it).
func (f Form) LabelFreeBlockers(fromCountry string) []apperr.Text {
	var out []apperr.Text
	if f.Carrier.LabelFree.Valid && !f.Carrier.LabelFree.Bool {
		out = append(out, apperr.Msg("ship.err.label_free_carrier"))
	}
	if len(f.Packages) != 1 {
		out = append(out, apperr.Msg("ship.err.lf_packages"))
	}
	if fromCountry != "CZ" || f.To.Country != "CZ" {
		out = append(out, apperr.Msg("ship.err.lf_country"))
	}
	if f.Handover != HandoverPoint {
		out = append(out, apperr.Msg("ship.err.lf_point"))
	}
	return out
}
