package shoptet

import (
	"fmt"
	"strings"
)

// m is a JSON object as answered.
type m = map[string]any

// includes are the sections on demand a request asks for (comma separated,
// any case).
type includes map[string]bool

func includesOf(v string) includes {
	in := includes{}
	for _, part := range strings.Split(v, ",") {
		if p := strings.ToLower(strings.TrimSpace(part)); p != "" {
			in[p] = true
		}
	}
	return in
}

func (s *Service) statusView(id int) any {
	st, ok := statusOf(id)
	if !ok {
		return m{"id": id, "name": nil}
	}
	return m{"id": st.ID, "name": st.Name}
}

func (s *Service) shippingView(o *Order) any {
	sm, ok := shippingOf(o.Shipping)
	if !ok {
		return nil
	}
	return m{"guid": sm.GUID, "name": sm.Name}
}

func (s *Service) paymentView(o *Order) any {
	pm, ok := paymentOf(o.Payment)
	if !ok {
		return nil
	}
	return m{"guid": pm.GUID, "name": pm.Name}
}

// totals are the order's price: what the items add up to.
func totals(o *Order) (withVat, withoutVat int64) {
	for _, it := range o.Items {
		p, withoutP := itemPrice(it)
		withVat += p
		withoutVat += withoutP
	}
	return withVat, withoutVat
}

// itemPrice is the line's price with and without VAT (0 for what is no number).
func itemPrice(it Item) (withVat, withoutVat int64) {
	unit, ok1 := cents(it.Price)
	amount, ok2 := milli(it.Amount)
	rate, ok3 := cents(it.VatRate)
	if !ok1 || !ok2 || !ok3 {
		return 0, 0
	}
	withVat = unit * amount / 1000
	withoutVat = withVat * 10000 / (10000 + rate)
	return withVat, withoutVat
}

func exchangeRate(currency string) string {
	if currency == "EUR" {
		return "25.20000000"
	}
	return "1.00000000"
}

func (s *Service) priceView(o *Order) m {
	withVat, withoutVat := totals(o)
	v := m{"vat": money(withVat - withoutVat), "toPay": money(withVat), "currencyCode": text(o.Currency),
		"withoutVat": money(withoutVat), "withVat": money(withVat), "exchangeRate": exchangeRate(o.Currency)}
	if s.documented() {
		v["invoicingExchangeRate"] = exchangeRate(o.Currency)
	}
	return v
}

func paidView(p *bool) any {
	if p == nil {
		return nil
	}
	return *p
}

func adminURL(code string) string {
	return "https://demo-obchod.myshoptet.com/admin/objednavky-detail/?code=" + code
}

// listView is an order as GET /api/orders lists it.
func (s *Service) listView(o *Order) m {
	v := m{
		"code": text(o.Code), "guid": o.GUID, "creationTime": stamp(o.Created), "changeTime": stamp(o.Changed),
		"fullName": orNull(o.Billing.FullName), "company": orNull(o.Billing.Company), "email": orNull(o.Email),
		"remark": orNull(o.CustomerRemark), "customerGuid": nil, "cashDeskOrder": false, "adminUrl": adminURL(o.Code),
		"status": s.statusView(o.Status), "shipping": s.shippingView(o), "paymentMethod": s.paymentView(o),
		"price": s.priceView(o), "paid": paidView(o.Paid),
	}
	if s.documented() {
		v["phone"] = orNull(o.Phone)
		v["source"] = m{"id": -1, "name": "E-shop"}
	}
	return v
}

func billingView(a Address) m {
	return m{"company": orNull(a.Company), "fullName": orNull(a.FullName), "street": orNull(a.Street), "houseNumber": orNull(a.HouseNumber),
		"city": orNull(a.City), "district": nil, "additional": nil, "zip": orNull(a.Zip), "countryCode": orNull(a.Country),
		"regionName": nil, "regionShortcut": nil, "companyId": orNull(a.CompanyID), "taxId": orNull(a.VatID), "vatId": orNull(a.VatID)}
}

func deliveryView(a *Address) any {
	if a == nil {
		return nil
	}
	return m{"company": orNull(a.Company), "fullName": orNull(a.FullName), "street": orNull(a.Street), "houseNumber": orNull(a.HouseNumber),
		"city": orNull(a.City), "district": nil, "additional": nil, "zip": orNull(a.Zip), "countryCode": orNull(a.Country),
		"regionName": nil, "regionShortcut": nil}
}

func (s *Service) itemView(it Item, in includes) m {
	withVat, withoutVat := itemPrice(it)
	unit, _ := cents(it.Price)
	rate, _ := cents(it.VatRate)
	unitWithout := unit * 10000 / (10000 + rate)
	status := m{"id": -1, "name": nil}
	v := m{
		"productGuid": nil, "code": orNull(it.Code), "ean": orNull(it.EAN), "itemType": text(it.Type), "name": text(it.Name),
		"variantName": nil, "brand": orNull(it.Brand), "remark": nil, "weight": text(it.Weight), "additionalField": nil,
		"amount": text(it.Amount), "amountUnit": "ks", "priceRatio": "1.0000", "status": status,
		"itemPrice":     m{"withVat": money(withVat), "withoutVat": money(withoutVat), "vat": money(withVat - withoutVat), "vatRate": text(it.VatRate)},
		"unitPrice":     m{"withVat": money(unit), "withoutVat": money(unitWithout), "vat": money(unit - unitWithout), "vatRate": text(it.VatRate)},
		"purchasePrice": nil, "recyclingFee": nil, "itemId": it.ID, "warrantyDescription": nil, "amountCompleted": "0.000",
	}
	if it.Type == "product" {
		v["productGuid"] = fmt.Sprintf("5c0a%04x-5b3e-11ee-8c99-0242ac120002", it.ID%0x10000)
		if s.documented() {
			v["warrantyDescription"] = "24 měsíců"
		}
	}
	if s.documented() {
		v["productType"] = nil
		if it.Type == "product" {
			v["productType"] = "product"
		}
		v["supplierName"] = nil
	}
	if in["stocklocation"] {
		v["stockLocation"] = nil
		if it.Type == "product" {
			v["stockLocation"] = fmt.Sprintf("R%d/P%d", 1+it.ID%7, 1+it.ID%11)
		}
	}
	return v
}

// trackingURL is the shipping method's tracking page for the number.
func trackingURL(o *Order) any {
	sm, ok := shippingOf(o.Shipping)
	if o.TrackingNumber == "" || !ok || sm.TrackingURL == "" {
		return nil
	}
	return text(strings.ReplaceAll(sm.TrackingURL, "#PACKAGE_NUMBER#", o.TrackingNumber))
}

func pointView(p *Point) any {
	if p == nil {
		return nil
	}
	var carrier any
	if p.CarrierID != nil {
		carrier = *p.CarrierID
	}
	return m{"branchId": orNull(p.BranchID), "shippingCompanyCode": orNull(p.CompanyCode), "name": orNull(p.Name), "note": nil,
		"place": nil, "street": orNull(p.Street), "city": orNull(p.City), "zipCode": orNull(p.Zip), "countryCode": orNull(p.Country),
		"link": nil, "latitude": orNull(p.Latitude), "longitude": orNull(p.Longitude), "carrierId": carrier}
}

// detailView is an order as GET /api/orders/{code} answers it, with the
// sections asked for.
func (s *Service) detailView(o *Order, in includes) m {
	items := make([]any, 0, len(o.Items))
	for _, it := range o.Items {
		items = append(items, s.itemView(it, in))
	}
	var billing any
	if pm, ok := paymentOf(o.Payment); ok {
		billing = m{"id": billingMethodOf(pm), "name": billingNameOf(pm)}
	}
	v := m{
		"code": text(o.Code), "guid": o.GUID, "externalCode": nil, "creationTime": stamp(o.Created), "changeTime": stamp(o.Changed),
		"email": orNull(o.Email), "phone": orNull(o.Phone), "clientIPAddress": nil, "customerGuid": nil, "vatPayer": true,
		"cashDeskOrder": false, "stockId": 1, "addressesEqual": o.Delivery == nil, "billingMethod": billing,
		"paymentMethod": s.paymentView(o), "shipping": s.shippingView(o), "adminUrl": adminURL(o.Code),
		"status": s.statusView(o.Status), "price": s.priceView(o), "paid": paidView(o.Paid),
		"billingAddress": billingView(o.Billing), "deliveryAddress": deliveryView(o.Delivery), "items": items,
	}
	if in["notes"] {
		fields := make([]any, 6)
		for i := range fields {
			fields[i] = m{"index": i + 1, "label": additionalLabels[i], "text": orNull(o.Additional[i])}
		}
		v["notes"] = m{"customerRemark": orNull(o.CustomerRemark), "eshopRemark": orNull(o.EshopRemark),
			"trackingNumber": orNull(o.TrackingNumber), "trackingUrl": trackingURL(o), "additionalFields": fields}
	}
	if in["shippingdetails"] {
		pv := pointView(o.Point)
		if pm, ok := pv.(m); ok && s.documented() {
			pm["shippingServiceCode"] = orNull(o.Point.ServiceCode)
		}
		v["shippingDetails"] = pv
	}
	if s.documented() {
		v["vatMode"] = "Normal"
		v["source"] = m{"id": -1, "name": "E-shop"}
		v["salesChannelGuid"] = nil
		v["birthDate"] = nil
		v["referer"] = nil
		if sm, ok := shippingOf(o.Shipping); ok {
			v["shippings"] = []any{m{"shipping": m{"guid": sm.GUID, "name": sm.Name}, "itemId": itemIDOf(o, "shipping")}}
		}
		if pm, ok := paymentOf(o.Payment); ok {
			v["paymentMethods"] = []any{m{"paymentMethod": m{"guid": pm.GUID, "name": pm.Name}, "itemId": itemIDOf(o, "billing")}}
		}
	}
	return v
}

func itemIDOf(o *Order, kind string) int {
	for _, it := range o.Items {
		if it.Type == kind {
			return it.ID
		}
	}
	return 0
}

// Shoptet's invoice billing methods: 1 cash on delivery, 2 bank transfer,
// 3 cash, 4 card.
func billingMethodOf(pm PaymentMethod) int {
	switch {
	case pm.COD:
		return 1
	case pm.Online:
		return 4
	case pm.TypeCode == "cash":
		return 3
	}
	return 2
}

func billingNameOf(pm PaymentMethod) string {
	return map[int]string{1: "Dobírka", 2: "Převodem", 3: "Hotově", 4: "Kartou"}[billingMethodOf(pm)]
}
