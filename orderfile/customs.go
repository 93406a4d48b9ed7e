package orderfile

import "strings"

// customsReasons are the reasons for export by the words a shop writes, in
// English and Czech; a reason not among them stays as written, for the
// form's rules to name.
var customsReasons = func() map[string]string {
	m := map[string]string{}
	for code, words := range map[string][]string{
		"sale":      {"sale", "prodej", "prodané zboží"},
		"gift":      {"gift", "dárek", "dar"},
		"sample":    {"sample", "vzorek", "obchodní vzorek"},
		"return":    {"return", "vrácení", "vrácené zboží"},
		"documents": {"documents", "dokumenty"},
	} {
		for _, w := range words {
			m[fold(w)] = code
		}
	}
	return m
}()

// readCustoms reads a row's customs cells. A currency written beside the
// value ("1 200 Kč") is the value's currency when its own cell is empty;
// with neither, the value is in CZK.
func readCustoms(raw map[Field]string) Customs {
	c := Customs{Reason: raw[CustomsReason], Contents: raw[CustomsContents], HSCode: raw[CustomsHSCode],
		Origin: strings.ToUpper(raw[CustomsOrigin]), Quantity: raw[CustomsQuantity], Currency: raw[CustomsCurrency]}
	if code, ok := customsReasons[fold(c.Reason)]; ok {
		c.Reason = code
	}
	value, currency := splitCurrency(raw[CustomsValue])
	c.Value = value
	switch {
	case c.Currency == "" && currency == "" && c.Value != "":
		c.Currency = "CZK" // as the cash on delivery: crowns unless said
	case c.Currency == "":
		c.Currency = currency
	default:
		if code, ok := currencyCode(c.Currency); ok {
			c.Currency = code
		}
	}
	return c
}
