package shop

import (
	"math"
	"net/url"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/countries"
	"shipdesk/desk"
	"shipdesk/orderfile"
	"shipdesk/textin"
)

// An order becomes the desk's new-shipment form as a clerk would fill it:
// the recipient and contact from the delivery address, one package of the
// items' weight, the parcel point the customer chose (as the service knows
// it), cash on delivery of the order's total when its payment method is
// one, with the order's code as the variable symbol and the reference. The
// form's own reader (desk.ParseForm) reads the values, so the form's limits
// and checks are the ones a typed form meets.

// maxWeightKg bounds an order's weight before the form's own limit says it:
// beyond it the weight is no weight (a shop's typo, or hostile).
const maxWeightKg = 1e6

// Weight is the order's weight in kilograms: each product's weight times
// its amount. ok false, with why, when a product has none or one is no
// weight (negative, not a number, beyond any parcel).
func Weight(items []Item) (kg float64, why apperr.Text) {
	products := 0
	for _, it := range items {
		if it.Kind != "" && it.Kind != "product" {
			continue
		}
		products++
		w, err := strconv.ParseFloat(strings.TrimSpace(it.Weight), 64)
		if strings.TrimSpace(it.Weight) == "" || err == nil && w == 0 {
			return 0, apperr.Msg("shop.why.item_no_weight", it.Name)
		}
		n, nerr := strconv.ParseFloat(strings.TrimSpace(it.Amount), 64)
		if strings.TrimSpace(it.Amount) == "" {
			n, nerr = 1, nil
		}
		if err != nil || nerr != nil || math.IsNaN(w) || math.IsInf(w, 0) || w < 0 || w > maxWeightKg ||
			math.IsNaN(n) || math.IsInf(n, 0) || n <= 0 || n > maxWeightKg {
			return 0, apperr.Msg("shop.why.item_weight_bad", it.Name)
		}
		kg += w * n
	}
	switch {
	case products == 0:
		return 0, apperr.Msg("shop.why.no_items")
	case kg <= 0:
		return 0, apperr.Msg("shop.why.no_weight")
	case kg > maxWeightKg:
		return 0, apperr.Msg("shop.why.weight_huge")
	}
	return math.Round(kg*1000) / 1000, apperr.Text{}
}

// CODAmount is what the carrier collects for the order: its total, in whole
// crowns when it is in CZK (the service takes no haléře), as the shop wrote
// it otherwise (two decimals).
func CODAmount(total, currency string) (float64, apperr.Text) {
	x, err := strconv.ParseFloat(strings.TrimSpace(total), 64)
	switch {
	case err != nil || math.IsNaN(x) || math.IsInf(x, 0):
		return 0, apperr.Msg("shop.why.total_bad", total)
	case x <= 0:
		return 0, apperr.Msg("shop.why.cod_zero")
	case !textin.IsCurrency(currency):
		return 0, apperr.Msg("shop.why.currency_bad")
	case strings.EqualFold(currency, "CZK"):
		return math.Round(x), apperr.Text{}
	}
	return math.Round(x*100) / 100, apperr.Text{}
}

// VariableSymbol is the order code's digits, at most ten (the last ten: a
// shop's codes count up at their end), as a COD's payment carries it.
func VariableSymbol(code string) string {
	d := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, code)
	if len(d) > 10 {
		d = d[len(d)-10:]
	}
	return d
}

// splitName parts a full name into the form's first name and surname: the
// last word is the surname.
func splitName(full string) (first, surname string) {
	full = strings.Join(strings.Fields(full), " ")
	if i := strings.LastIndex(full, " "); i > 0 {
		return full[:i], full[i+1:]
	}
	return "", full
}

// street is the street with its house number, as the service takes it.
func street(a Address) string {
	return strings.TrimSpace(strings.TrimSpace(a.Street) + " " + strings.TrimSpace(a.HouseNumber))
}

// shipFacts are what an order's form takes beyond the order: the sender,
// the shop's bank details, the parcel point as the service knows it, and
// how the parcel is handed over.
type shipFacts struct {
	senderID                            int64
	bankAccount, bankCode, bankCurrency string
	point                               string // the service's code of the point ("": to the address)
	cod                                 bool
	codAmount                           float64
	weight                              float64 // 0: unknown
	handover                            string
}

// formValues are the order as the new-shipment form would post it.
func formValues(o Order, key string, f shipFacts) url.Values {
	first, surname := splitName(o.Delivery.FullName)
	v := url.Values{
		"key": {key}, "handover": {f.handover}, "reference": {o.Code},
		"to_firstname": {first}, "to_surname": {surname}, "to_company": {o.Delivery.Company},
		"to_street": {street(o.Delivery)}, "to_city": {o.Delivery.City}, "to_zip": {o.Delivery.Zip},
		"to_country": {strings.ToUpper(strings.TrimSpace(o.Delivery.Country))}, "to_phone": {o.Phone}, "to_email": {o.Email},
		"delivery_branch": {f.point},
	}
	if f.senderID > 0 {
		v.Set("sender", strconv.FormatInt(f.senderID, 10))
	}
	if f.weight > 0 {
		v.Set("pkg_weight", strconv.FormatFloat(f.weight, 'f', -1, 64))
	}
	if f.cod {
		v.Set("cod", "on")
		v.Set("cod_value", strconv.FormatFloat(f.codAmount, 'f', -1, 64))
		v.Set("cod_currency", strings.ToUpper(o.Currency))
		v.Set("cod_bank_account", f.bankAccount)
		v.Set("cod_bank_code", f.bankCode)
		v.Set("cod_bank_currency", f.bankCurrency)
		v.Set("cod_bank_variable", VariableSymbol(o.Code))
	}
	if countries.NeedsCustoms(v.Get("to_country")) {
		customsValues(v, o)
	}
	return v
}

// customsValues declare the order's products as sold goods, worth what they
// cost: what the shop does not know (the HS code, the origin) the clerk adds.
func customsValues(v url.Values, o Order) {
	var names []string
	quantity, value := 0.0, 0.0
	for _, it := range o.Items {
		if it.Kind != "" && it.Kind != "product" {
			continue
		}
		names = append(names, it.Name)
		n, err := strconv.ParseFloat(strings.TrimSpace(it.Amount), 64)
		if err != nil || n <= 0 || math.IsNaN(n) || math.IsInf(n, 0) {
			n = 1
		}
		quantity += n
		if p, err := strconv.ParseFloat(strings.TrimSpace(it.Price), 64); err == nil && p > 0 && !math.IsInf(p, 0) {
			value += p * n
		}
	}
	description, _ := textin.Cut(strings.Join(names, ", "), 200)
	v.Set("customs_reason", "sale")
	v.Set("customs_description", description)
	v.Set("customs_quantity", strconv.Itoa(int(math.Max(1, math.Round(quantity)))))
	if value > 0 {
		v.Set("customs_value", strconv.FormatFloat(math.Round(value*100)/100, 'f', -1, 64))
	}
	v.Set("customs_currency", strings.ToUpper(o.Currency))
}

// rowCells are the order as a row of a batch: the template's columns, read
// by the template's reader (desk.ImportRows).
func rowCells(o Order, f shipFacts) map[orderfile.Field]string {
	v := formValues(o, "", f)
	cells := map[orderfile.Field]string{
		orderfile.Reference: o.Code, orderfile.FirstName: v.Get("to_firstname"), orderfile.Surname: v.Get("to_surname"),
		orderfile.Company: v.Get("to_company"), orderfile.Street: v.Get("to_street"), orderfile.City: v.Get("to_city"),
		orderfile.Zip: v.Get("to_zip"), orderfile.Country: v.Get("to_country"), orderfile.Phone: v.Get("to_phone"),
		orderfile.Email: v.Get("to_email"), orderfile.WeightKg: v.Get("pkg_weight"), orderfile.PointCode: f.point,
	}
	if f.cod {
		cells[orderfile.CODAmount], cells[orderfile.CODCurrency] = v.Get("cod_value"), v.Get("cod_currency")
	}
	for field, value := range map[orderfile.Field]string{orderfile.CustomsReason: v.Get("customs_reason"),
		orderfile.CustomsContents: v.Get("customs_description"), orderfile.CustomsQuantity: v.Get("customs_quantity"),
		orderfile.CustomsValue: v.Get("customs_value"), orderfile.CustomsCurrency: v.Get("customs_currency")} {
		if value != "" {
			cells[field] = value
		}
	}
	return cells
}

// parse reads the values as the desk reads a posted form.
func parse(v url.Values) (desk.Form, apperr.Problems) { return desk.ParseForm(v) }
