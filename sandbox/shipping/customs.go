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
		p.add("customs", msgCustomsRequired, r.To.Country)
		return
	}
	if !slices.Contains(customsReasons, strings.ToLower(c.Reason)) {
		p.add("customs.reason", msgCustomsReason, strings.Join(customsReasons, ", "))
	}
	switch {
	case len(c.Items) == 0:
		p.add("customs.items", msgCustomsItemsRequired)
		return
	case len(c.Items) > maxCustomsItems:
		p.add("customs.items", msgCustomsItemsMax, maxCustomsItems)
		return
	}
	documents := strings.EqualFold(c.Reason, "documents")
	weight := 0.0
	for i, it := range c.Items {
		field := fmt.Sprintf("customs.items[%d].", i)
		switch n := utf8.RuneCountInString(strings.TrimSpace(it.Description)); {
		case n == 0:
			p.add(field+"description", msgCustomsDescRequired)
		case n > 200:
			p.add(field+"description", msgCustomsDescLong)
		}
		hs := hsSeparators.Replace(it.HSCode)
		switch {
		case hs == "" && !documents:
			p.add(field+"hs_code", msgCustomsHSRequired)
		case hs != "" && !hsCodeShape.MatchString(hs):
			p.add(field+"hs_code", msgCustomsHSShape)
		}
		if !countryShape.MatchString(it.OriginCountry) {
			p.add(field+"origin_country", msgCustomsOrigin)
		}
		if it.Quantity < 1 || it.Quantity != math.Trunc(it.Quantity) || it.Quantity > 100000 {
			p.add(field+"quantity", msgCustomsQuantity)
		}
		switch v := it.Value; {
		case v == nil:
			p.add(field+"value", msgCustomsValueRequired)
		case !currencyShape.MatchString(v.Currency):
			p.add(field+"value.currency", msgCustomsCurrency)
		case v.Value <= 0:
			p.add(field+"value.value", msgCustomsValuePositive)
		}
		if it.Weight <= 0 || it.Weight > 1000 {
			p.add(field+"weight", msgCustomsWeight)
		}
		weight += max(it.Weight, 0)
	}
	gross := 0.0
	for _, k := range r.Packages {
		gross += k.Weight
	}
	if gross > 0 && weight > gross+0.001 {
		p.add("customs.items", msgCustomsOverweight, weight, gross)
	}
}
