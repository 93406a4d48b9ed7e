package shoptet

import (
	_ "embed"
	"net/http"
)

// Document is Shoptet's OpenAPI document of the operations simulated here,
// as the project keeps it; the simulator serves it at /openapi.yaml.
//
//go:embed shoptet-api.yaml
var Document []byte

func serveDocument(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/yaml")
	_, _ = w.Write(Document)
}

// eshop is GET /api/eshop, with the sections asked for by include.
func (s *Service) eshop(w http.ResponseWriter, r *http.Request) *problem {
	in := includesOf(r.URL.Query().Get("include"))
	v := m{
		"contactInformation": m{"eshopId": EshopID, "eshopName": "Demo obchod", "eshopCategory": "Elektro a domácnost",
			"url": "https://demo-obchod.myshoptet.com/", "eshopTitle": "Demo obchod", "eshopSubtitle": "Elektro, kuchyně a dárky",
			"contactPerson": "Jana Skladová", "email": "obchod@example.cz", "phone": "+420601000001", "mobilePhone": nil,
			"skypeAccount": nil, "contactPhotoUrl": nil},
		"settings": m{"vatPayer": true, "cashDeskOnly": false, "trackStockClaims": true, "maxProductAmount": 5000, "maxEmailAmount": 10000,
			"defaultPricelist": m{"id": 1, "name": "Hlavní ceník"}, "timezone": "Europe/Prague", "dateFormat": "j.n.Y", "timeFormat": "H:i",
			"internals": "cs", "exchangeRateFlip": false, "negativeStockAmount": "no-show-product", "oss": false,
			"stockControlDisabled": false, "wholesaleSplitActive": false},
		"currencies": []any{
			currency("CZK", "Koruna česká", true, "1.00000000", 1, "Kč"),
			currency("EUR", "Euro", false, "25.20000000", 2, "€"),
		},
		"taxClasses": []any{
			m{"title": "Základní sazba", "rates": []any{m{"zone": "Česká republika", "vatRate": "21.00"}}, "isDefault": true},
			m{"title": "Snížená sazba", "rates": []any{m{"zone": "Česká republika", "vatRate": "12.00"}}, "isDefault": false},
		},
		"activeModules": []any{m{"title": "Zásilkovna", "name": "zasilkovna"}, m{"title": "API", "name": "api"}},
		"urls": []any{
			m{"ident": "eshop", "url": "https://demo-obchod.myshoptet.com/"},
			m{"ident": "admin-orders-list", "url": "https://demo-obchod.myshoptet.com/admin/prehled-objednavek/"},
		},
	}
	if s.documented() {
		v["settings"].(m)["eshopLanguage"] = "cs"
		v["trial"] = false
		v["billingInformation"] = m{"billingName": "Demo obchod s.r.o.", "company": m{"companyId": "12345678", "vatId": "CZ12345678", "taxId": "CZ12345678"},
			"address": m{"streetAddress": "Korunní 12", "city": "Praha 2", "zip": "120 00"}, "country": m{"countryCode": "CZ", "countryName": "Česká republika"},
			"registration": "C 123456 vedená u Městského soudu v Praze", "phone": "+420601000001", "email": "obchod@example.cz", "billingEmail": "fakturace@example.cz"}
	}
	if in["orderstatuses"] {
		list := []any{}
		for _, st := range Statuses {
			list = append(list, m{"id": st.ID, "order": st.Order, "name": st.Name, "markAsPaid": st.MarkAsPaid})
		}
		v["orderStatuses"] = m{"statuses": list, "defaultStatus": StatusNew}
	}
	if in["shippingmethods"] {
		list := []any{}
		for i, sm := range ShippingMethods {
			list = append(list, m{"guid": sm.GUID, "order": i + 1, "name": sm.Name, "visible": true})
		}
		v["shippingMethods"] = m{"retail": m{"methods": list, "defaultShipping": ShippingMethods[0].GUID},
			"wholesale": m{"methods": []any{}, "defaultShipping": nil}, "wholesaleActive": false}
	}
	if in["paymentmethods"] {
		list := []any{}
		for i, pm := range PaymentMethods {
			list = append(list, m{"guid": pm.GUID, "order": i + 1, "name": pm.Name, "visible": true})
		}
		v["paymentMethods"] = m{"retail": m{"methods": list, "defaultPayment": PaymentMethods[0].GUID},
			"wholesale": m{"methods": []any{}, "defaultPayment": nil}, "wholesaleActive": false}
	}
	if in["countries"] {
		v["countries"] = []any{
			m{"countryCode": "CZ", "countryName": "Česká republika", "companyIdPattern": `^\d{8}$`, "companyIdExample": "28935675", "zipCodePattern": `^[1-7]\d{2}\s*\d{2}$`},
			m{"countryCode": "SK", "countryName": "Slovensko", "companyIdPattern": `^\d{8}$`, "companyIdExample": "35763469", "zipCodePattern": `^[089]\d{2}\s*\d{2}$`},
			m{"countryCode": "CH", "countryName": "Švýcarsko", "companyIdPattern": nil, "companyIdExample": nil, "zipCodePattern": `^\d{4}$`},
		}
	}
	writeData(w, r, http.StatusOK, v)
	return nil
}

func currency(code, title string, def bool, rate string, priority int, symbol string) m {
	return m{"code": code, "title": title, "isDefault": def, "isDefaultAdmin": def, "isDefaultDocuments": def, "isVisible": true,
		"exchangeRate": rate, "priority": priority, "display": m{"text": symbol, "location": "right", "decimalsSeparator": ",", "thousandsSeparator": " "},
		"priceDecimalPlaces": 2, "documentPriceDecimalPlaces": 2, "rounding": "math", "minimalOrderValue": nil,
		"bankAccount": m{"accountNumber": "2000145399/0800", "iban": "CZ6508000000002000145399", "bic": "GIBACZPX", "ownerName": "Demo obchod s.r.o."}}
}

// statuses is GET /api/orders/statuses.
func (s *Service) statuses(w http.ResponseWriter, r *http.Request) *problem {
	list := []any{}
	for _, st := range Statuses {
		v := m{"id": st.ID, "name": st.Name, "system": st.System, "order": st.Order, "markAsPaid": st.MarkAsPaid,
			"changeOrderItems": false, "stockClaimResolved": st.ID == StatusSent || st.ID == StatusDone,
			"documents": m{"generateProformaInvoice": false, "generateInvoice": st.ID == StatusDone, "generateDeliveryNote": st.ID == StatusSent, "generateProofPayment": nil}}
		if s.documented() {
			v["color"], v["backgroundColor"] = st.Color, nil
		}
		list = append(list, v)
	}
	writeData(w, r, http.StatusOK, m{"statuses": list, "defaultStatus": StatusNew})
	return nil
}

// shippingMethods is GET /api/shipping-methods.
func (s *Service) shippingMethods(w http.ResponseWriter, r *http.Request) *problem {
	list := []any{}
	for i, sm := range ShippingMethods {
		var company any
		if sm.CompanyCode != "" {
			company = m{"id": sm.CompanyID, "code": sm.CompanyCode, "name": sm.CompanyName}
		}
		list = append(list, m{"guid": sm.GUID, "name": sm.Name, "description": orNull(sm.Description), "shippingCompany": company,
			"trackingUrl": orNull(sm.TrackingURL), "visible": true, "priority": i + 1, "wholesale": false, "logoUrl": nil})
	}
	writeData(w, r, http.StatusOK, m{"shippingMethods": list, "wholesaleActive": false, "wholesaleSplitActive": false,
		"defaultRetailMethod": ShippingMethods[0].GUID, "defaultWholesaleMethod": nil})
	return nil
}

// paymentMethods is GET /api/payment-methods.
func (s *Service) paymentMethods(w http.ResponseWriter, r *http.Request) *problem {
	list := []any{}
	for i, pm := range PaymentMethods {
		v := m{"guid": pm.GUID, "name": pm.Name, "description": orNull(pm.Description), "submethod": nil,
			"paymentType": m{"id": pm.TypeID, "code": pm.TypeCode, "name": pm.TypeName}, "visible": true, "wholesale": false, "logoUrl": nil}
		if s.documented() {
			v["priority"] = i + 1
		}
		list = append(list, v)
	}
	writeData(w, r, http.StatusOK, m{"paymentMethods": list, "wholesaleActive": false, "wholesaleSplitActive": false,
		"defaultRetailMethod": PaymentMethods[0].GUID, "defaultWholesaleMethod": nil})
	return nil
}
