package shipping

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Customs data of a shipment leaving the EU customs territory. The spec names
// the object but does not show it; the sandbox's shape is documented in its
// OpenAPI document (Customs): why the goods go, and each kind of goods with
// its tariff code, origin, quantity, value and weight.
type customsReq struct {
	Reason string        `json:"reason"`
	Items  []customsItem `json:"items"`
}

type customsItem struct {
	Description   string  `json:"description"`
	HSCode        string  `json:"hs_code"`
	OriginCountry string  `json:"origin_country"`
	Quantity      float64 `json:"quantity"`
	Value         *money  `json:"value"`
	Weight        float64 `json:"weight"` // kilograms, net
}

// customsReasons are the reasons for export the sandbox accepts.
var customsReasons = []string{"sale", "gift", "sample", "return", "documents"}

const maxCustomsItems = 50

var (
	hsCodeShape   = regexp.MustCompile(`^\d{6,10}$`)
	countryShape  = regexp.MustCompile(`^[A-Z]{2}$`)
	currencyShape = regexp.MustCompile(`^[A-Z]{3}$`)
	hsSeparators  = strings.NewReplacer(" ", "", ".", "")
)

// checkCustoms asks for customs data on create and validate when the
// recipient is outside the EU customs territory; rates/get answers without
// them. Inside the territory customs data are not needed and are ignored.
func checkCustoms(p *problems, r *shipmentReq) {
	if !needsCustoms(r.To.Country) {
		return
	}
	c := r.Customs
	if c == nil {
		p.add("customs", "Customs data are required for a shipment to %s, outside the EU customs territory: a reason and the items", r.To.Country)
		return
	}
	if !slices.Contains(customsReasons, strings.ToLower(c.Reason)) {
		p.add("customs.reason", "The reason for export must be one of %s", strings.Join(customsReasons, ", "))
	}
	switch {
	case len(c.Items) == 0:
		p.add("customs.items", "At least one item is required: what the packages hold")
		return
	case len(c.Items) > maxCustomsItems:
		p.add("customs.items", "At most %d items", maxCustomsItems)
		return
	}
	documents := strings.EqualFold(c.Reason, "documents")
	weight := 0.0
	for i, it := range c.Items {
		field := fmt.Sprintf("customs.items[%d].", i)
		switch n := utf8.RuneCountInString(strings.TrimSpace(it.Description)); {
		case n == 0:
			p.add(field+"description", "The description of the contents is required")
		case n > 200:
			p.add(field+"description", "The description can have at most 200 characters")
		}
		hs := hsSeparators.Replace(it.HSCode)
		switch {
		case hs == "" && !documents:
			p.add(field+"hs_code", "The HS tariff code is required (6 to 10 digits)")
		case hs != "" && !hsCodeShape.MatchString(hs):
			p.add(field+"hs_code", "The HS tariff code must have 6 to 10 digits, e.g. 6109 10")
		}
		if !countryShape.MatchString(it.OriginCountry) {
			p.add(field+"origin_country", "The country of origin must be a two-letter code, e.g. CZ")
		}
		if it.Quantity < 1 || it.Quantity != math.Trunc(it.Quantity) || it.Quantity > 100000 {
			p.add(field+"quantity", "The quantity must be a whole number from 1 to 100000")
		}
		switch v := it.Value; {
		case v == nil:
			p.add(field+"value", "The value {value, currency} is required")
		case !currencyShape.MatchString(v.Currency):
			p.add(field+"value.currency", "The currency must be a three-letter code, e.g. CZK")
		case v.Value <= 0:
			p.add(field+"value.value", "The value must be more than zero")
		}
		if it.Weight <= 0 || it.Weight > 1000 {
			p.add(field+"weight", "The weight must be a positive number of kilograms, at most 1000")
		}
		weight += max(it.Weight, 0)
	}
	gross := 0.0
	for _, k := range r.Packages {
		gross += k.Weight
	}
	if gross > 0 && weight > gross+0.001 {
		p.add("customs.items", "The items weigh %g kg, more than the packages (%g kg)", weight, gross)
	}
}
