package desk

import (
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/countries"
	"shipdesk/orderfile"
	"shipdesk/textin"
)

// Customs is what the form asks of a shipment leaving the EU customs
// territory: why it goes and one line of what it holds. The contents' weight
// is the packages' weight.
type Customs struct {
	Reason      string // one of CustomsReasons
	Description string
	HSCode      string // as typed: "6109 10" and "6109.10" are 610910
	Origin      string // two-letter code of where the goods were made
	Quantity    string
	Value       string
	Currency    string
}

// CustomsReasons are the reasons for export the form offers.
var CustomsReasons = shipping.CustomsReasons

// CustomsCurrencies are the currencies the form declares a value in.
var CustomsCurrencies = []string{"CZK", "EUR", "USD"}

// customsFields are the form's fields, in the order the clerk fills them.
var customsFields = []string{"customs_reason", "customs_description", "customs_hs_code", "customs_origin",
	"customs_quantity", "customs_value", "customs_currency"}

const (
	maxCustomsDescription = 200
	maxCustomsQuantity    = 100_000
	maxCustomsValue       = 10_000_000
)

var (
	hsCode       = regexp.MustCompile(`^\d{6,10}$`)
	twoLetters   = regexp.MustCompile(`^[A-Z]{2}$`)
	hsSeparators = strings.NewReplacer(" ", "", ".", "", "\u00a0", "")
)

// NeedsCustoms: the form's recipient is outside the EU customs territory.
func (f Form) NeedsCustoms() bool { return countries.NeedsCustoms(f.To.Country) }

// parseCustoms reads the customs fields as typed.
func parseCustoms(text func(name string, max int) string) Customs {
	return Customs{
		Reason: strings.ToLower(text("customs_reason", 20)), Description: text("customs_description", maxCustomsDescription),
		HSCode: text("customs_hs_code", 20), Origin: strings.ToUpper(text("customs_origin", 40)),
		Quantity: text("customs_quantity", 10), Value: text("customs_value", 20),
		Currency: strings.ToUpper(text("customs_currency", 3)),
	}
}

// values writes the customs fields back, to render the form again as typed.
func (c Customs) values(v map[string]string) {
	for i, s := range []string{c.Reason, c.Description, c.HSCode, c.Origin, c.Quantity, c.Value, c.Currency} {
		v[customsFields[i]] = s
	}
}

// checkCustoms checks the customs fields when the recipient needs them; a
// recipient in the EU needs none, and what was typed is not sent.
func (f Form) checkCustoms(p apperr.Problems) {
	if !f.NeedsCustoms() {
		return
	}
	c := f.Customs
	if !slices.Contains(CustomsReasons, c.Reason) {
		p.Add("customs_reason", "ship.err.customs_reason")
	}
	if strings.TrimSpace(c.Description) == "" {
		p.Add("customs_description", "ship.err.customs_description")
	}
	hs := hsSeparators.Replace(c.HSCode)
	if (hs != "" || c.Reason != "documents") && !hsCode.MatchString(hs) {
		p.Add("customs_hs_code", "ship.err.customs_hs_code")
	}
	if !twoLetters.MatchString(c.Origin) {
		p.Add("customs_origin", "ship.err.customs_origin")
	}
	if n, err := strconv.Atoi(strings.TrimSpace(c.Quantity)); err != nil || n < 1 || n > maxCustomsQuantity {
		p.Add("customs_quantity", "ship.err.customs_quantity")
	}
	if _, problem := textin.Decimal(c.Value, textin.Range{Max: maxCustomsValue}); !problem.IsZero() {
		p.Add("customs_value", "ship.err.customs_value")
	}
	if !slices.Contains(CustomsCurrencies, c.Currency) {
		p.Add("customs_currency", "ship.err.customs_currency")
	}
}

// customsWire is the customs data the order sends: none inside the EU.
func (f Form) customsWire() *shipping.Customs {
	if !f.NeedsCustoms() {
		return nil
	}
	c := f.Customs
	weight := 0.0
	for _, k := range f.Packages {
		weight += k.Weight
	}
	quantity, _ := strconv.Atoi(strings.TrimSpace(c.Quantity))
	return &shipping.Customs{Reason: c.Reason, Items: []shipping.CustomsItem{{
		Description: c.Description, HSCode: hsSeparators.Replace(c.HSCode), OriginCountry: c.Origin, Quantity: quantity,
		Value: shipping.Money{Value: math.Round(amount(c.Value)*100) / 100, Currency: c.Currency}, Weight: weight,
	}}}
}

// customsPath is the service's customs path in the shipment, after "customs".
var customsPath = regexp.MustCompile(`^customs(?:\.items(?:\[\d+\]\.?(.*))?|\.(reason))?$`)

// customsField names the form field of the service's customs path; "" when
// the path is not the customs'.
func customsField(path string) string {
	m := customsPath.FindStringSubmatch(path)
	switch {
	case m == nil:
		return ""
	case m[2] == "reason":
		return "customs_reason"
	}
	switch m[1] {
	case "hs_code":
		return "customs_hs_code"
	case "origin_country":
		return "customs_origin"
	case "quantity":
		return "customs_quantity"
	case "value", "value.value":
		return "customs_value"
	case "value.currency":
		return "customs_currency"
	case "weight":
		return "packages"
	}
	if path == "customs" {
		return "customs_reason"
	}
	return "customs_description"
}

// setCustomsValues puts a batch row's customs cells where the form has them.
func setCustomsValues(v url.Values, c orderfile.Customs) {
	for field, value := range map[string]string{"customs_reason": strings.ToLower(c.Reason), "customs_description": c.Contents,
		"customs_hs_code": c.HSCode, "customs_origin": c.Origin, "customs_quantity": c.Quantity, "customs_value": c.Value,
		"customs_currency": c.Currency} {
		v.Set(field, value)
	}
}

// customsColumn is the batch file's column of a customs field of the form.
func customsColumn(field string) orderfile.Field {
	return map[string]orderfile.Field{"customs_reason": orderfile.CustomsReason, "customs_description": orderfile.CustomsContents,
		"customs_hs_code": orderfile.CustomsHSCode, "customs_origin": orderfile.CustomsOrigin, "customs_quantity": orderfile.CustomsQuantity,
		"customs_value": orderfile.CustomsValue, "customs_currency": orderfile.CustomsCurrency}[field]
}
