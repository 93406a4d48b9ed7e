package shipping

import (
	"strings"

	"shipdesk/sandbox/openapi"
)

// The OpenAPI part of the destinations and of customs data. The spec says
// the customs object exists but does not show it: its shape is our choice.

// zipDocs says each served country's postal-code shape, for the Address schema.
func zipDocs() string {
	var b strings.Builder
	b.WriteString("by country, checked on rates, validate and create; ")
	for i, d := range destinations {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(d.code + " ")
		if d.zip == nil {
			b.WriteString("none (served without a postal code)")
		} else {
			b.WriteString(d.example.EN)
		}
	}
	return b.String()
}

func customsComponents() map[string]openapi.Schema {
	outside := []string{}
	for _, d := range destinations {
		if d.reach >= europeOut {
			outside = append(outside, d.code)
		}
	}
	return map[string]openapi.Schema{
		"Customs": describe(obj([]string{"reason", "items"}, map[string]any{
			"reason": describe(anyCase(customsReasons...), "reason for export, matched without regard to case"),
			"items": sch{"type": "array", "minItems": 1, "maxItems": maxCustomsItems, "items": ref("CustomsItem"),
				"description": "each kind of goods the packages hold; their weights together at most the packages' weight"},
		}), "Customs data of a shipment leaving the EU customs territory: required on shipments/create and shipments/validate "+
			"when the recipient's country is "+strings.Join(outside, ", ")+" (the error names shipments[n].customs, or the "+
			"field inside it); rates/get answers without them; ignored for a recipient inside the EU customs territory."),
		"CustomsItem": obj([]string{"description", "origin_country", "quantity", "value", "weight"}, map[string]any{
			"description":    sch{"type": "string", "maxLength": 200, "description": "what the goods are, e.g. cotton T-shirts"},
			"hs_code":        sch{"type": "string", "description": "HS tariff code, 6 to 10 digits (spaces and dots allowed); required unless the reason is documents"},
			"origin_country": sch{"type": "string", "pattern": "^[A-Z]{2}$", "description": "two-letter code of the country the goods were made in"},
			"quantity":       sch{"type": "integer", "minimum": 1, "maximum": 100000},
			"value":          describe(ref("MoneyRequest"), "value of all pieces together; more than zero, any three-letter currency"),
			"weight":         sch{"type": "number", "exclusiveMinimum": 0, "maximum": 1000, "description": "net kilograms of all pieces together"},
		}),
	}
}
