package shoptet

import (
	"encoding/json"
	"fmt"
	"time"
)

// The wire types hold exactly what a shipping tool reads of Shoptet's
// answers (shoptet-api.yaml): a field is required unless tagged omitempty,
// a pointer may be null (see decode). Amounts, prices and weights stay the
// decimals Shoptet writes ("1299.00", "1.250"): the desk reads them.

// Eshop is what GET /api/eshop says of the shop the token opens.
type Eshop struct {
	ContactInformation struct {
		EshopID    int64  `json:"eshopId"`
		EshopName  string `json:"eshopName"`
		URL        string `json:"url"`
		EshopTitle string `json:"eshopTitle"`
	} `json:"contactInformation"`
}

// OrderStatus is one of the shop's order statuses; system ones are
// negative (-4 is cancelled, the document's example).
type OrderStatus struct {
	ID         int    `json:"id"`
	Name       string `json:"name"`
	System     bool   `json:"system"`
	Order      int    `json:"order"`
	MarkAsPaid bool   `json:"markAsPaid"`
}

// Statuses is GET /api/orders/statuses.
type Statuses struct {
	DefaultStatus int           `json:"defaultStatus"`
	Statuses      []OrderStatus `json:"statuses"`
}

// Paginator is a list's page.
type Paginator struct {
	TotalCount   int `json:"totalCount"`
	Page         int `json:"page"`
	PageCount    int `json:"pageCount"`
	ItemsOnPage  int `json:"itemsOnPage"`
	ItemsPerPage int `json:"itemsPerPage"`
}

// StatusRef is an order's status as the order names it.
type StatusRef struct {
	ID   int     `json:"id"`
	Name *string `json:"name"`
}

// ShippingRef is the shipping method an order names.
type ShippingRef struct {
	GUID string `json:"guid"`
	Name string `json:"name"`
}

// PaymentRef is the payment method an order names.
type PaymentRef struct {
	GUID *string `json:"guid"`
	Name string  `json:"name"`
}

// BillingMethod is Shoptet's invoice billing method: 1 is cash on
// delivery (the document's code list of invoice billing methods).
type BillingMethod struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// BillingCOD is the billing method of cash on delivery.
const BillingCOD = 1

// Price is an order's total.
type Price struct {
	VAT          *string `json:"vat"`
	ToPay        *string `json:"toPay"`
	CurrencyCode string  `json:"currencyCode"`
	WithoutVAT   *string `json:"withoutVat"`
	WithVAT      *string `json:"withVat"`
	ExchangeRate string  `json:"exchangeRate"`
}

// OrderSummary is an order as GET /api/orders lists it.
type OrderSummary struct {
	Code          string       `json:"code"`
	GUID          string       `json:"guid"`
	CreationTime  *Time        `json:"creationTime"`
	ChangeTime    *Time        `json:"changeTime"`
	FullName      *string      `json:"fullName"`
	Company       *string      `json:"company"`
	Email         *string      `json:"email"`
	Status        *StatusRef   `json:"status"`
	Shipping      *ShippingRef `json:"shipping"`
	PaymentMethod *PaymentRef  `json:"paymentMethod"`
	Price         Price        `json:"price"`
	Paid          *bool        `json:"paid"`
}

// OrderList is one page of GET /api/orders.
type OrderList struct {
	Orders    []OrderSummary `json:"orders"`
	Paginator Paginator      `json:"paginator"`
}

// Address is a billing or delivery address.
type Address struct {
	Company     *string `json:"company"`
	FullName    *string `json:"fullName"`
	Street      *string `json:"street"`
	HouseNumber *string `json:"houseNumber"`
	City        *string `json:"city"`
	District    *string `json:"district"`
	Additional  *string `json:"additional"`
	Zip         *string `json:"zip"`
	CountryCode *string `json:"countryCode"`
}

// ItemPrice is an item's price with and without VAT.
type ItemPrice struct {
	WithVAT    *string `json:"withVat"`
	WithoutVAT *string `json:"withoutVat"`
	VAT        *string `json:"vat"`
	VATRate    string  `json:"vatRate"`
}

// Item is one line of an order: goods, or the shipping, billing or
// discount row.
type Item struct {
	ItemID      int       `json:"itemId"`
	Code        *string   `json:"code"`
	ItemType    string    `json:"itemType"`
	Name        string    `json:"name"`
	VariantName *string   `json:"variantName"`
	Weight      string    `json:"weight"` // kilograms for one
	Amount      *string   `json:"amount"`
	AmountUnit  *string   `json:"amountUnit"`
	ItemPrice   ItemPrice `json:"itemPrice"` // the line
	UnitPrice   ItemPrice `json:"unitPrice"` // one of it
}

// Notes are an order's remarks and tracking number (include=notes).
type Notes struct {
	CustomerRemark   *string           `json:"customerRemark"`
	EshopRemark      *string           `json:"eshopRemark"`
	TrackingNumber   *string           `json:"trackingNumber"`
	TrackingURL      *string           `json:"trackingUrl"`
	AdditionalFields []AdditionalField `json:"additionalFields"`
}

// AdditionalField is one of an order's six free fields.
type AdditionalField struct {
	Index int     `json:"index"`
	Label string  `json:"label"`
	Text  *string `json:"text"`
}

// ShippingDetails is the parcel point the customer chose at checkout
// (include=shippingDetails).
type ShippingDetails struct {
	BranchID            *string `json:"branchId"`
	ShippingCompanyCode *string `json:"shippingCompanyCode"`
	ShippingServiceCode *string `json:"shippingServiceCode,omitempty"`
	Name                *string `json:"name"`
	Note                *string `json:"note"`
	Place               *string `json:"place"`
	Street              *string `json:"street"`
	City                *string `json:"city"`
	ZipCode             *string `json:"zipCode"`
	CountryCode         *string `json:"countryCode"`
	Latitude            *string `json:"latitude"`
	Longitude           *string `json:"longitude"`
	CarrierID           *int    `json:"carrierId"`
}

// Order is GET /api/orders/{code} with notes and shippingDetails.
type Order struct {
	Code            string           `json:"code"`
	GUID            string           `json:"guid"`
	CreationTime    *Time            `json:"creationTime"`
	ChangeTime      *Time            `json:"changeTime"`
	Email           *string          `json:"email"`
	Phone           *string          `json:"phone"`
	AddressesEqual  bool             `json:"addressesEqual"`
	BillingMethod   *BillingMethod   `json:"billingMethod"`
	PaymentMethod   *PaymentRef      `json:"paymentMethod"`
	Shipping        *ShippingRef     `json:"shipping"`
	ShippingDetails *ShippingDetails `json:"shippingDetails,omitempty"`
	Status          *StatusRef       `json:"status"`
	Price           Price            `json:"price"`
	Paid            *bool            `json:"paid"`
	BillingAddress  Address          `json:"billingAddress"`
	DeliveryAddress *Address         `json:"deliveryAddress"`
	Items           []Item           `json:"items"`
	Notes           *Notes           `json:"notes,omitempty"`
}

// Change is one line of GET /api/orders/changes: the order's last change.
type Change struct {
	Code       string `json:"code"`
	ChangeTime *Time  `json:"changeTime"`
	ChangeType string `json:"changeType"` // "edit" (creation too) or "delete"
}

// ChangeList is one page of GET /api/orders/changes.
type ChangeList struct {
	Changes   []Change  `json:"changes"`
	Paginator Paginator `json:"paginator"`
}

// ShippingCompany is the carrier behind a shipping method.
type ShippingCompany struct {
	ID   int    `json:"id"`
	Code string `json:"code"`
	Name string `json:"name"`
}

// ShippingMethod is one of the shop's shipping methods.
type ShippingMethod struct {
	GUID            string           `json:"guid"`
	Name            string           `json:"name"`
	Description     *string          `json:"description"`
	ShippingCompany *ShippingCompany `json:"shippingCompany"`
	TrackingURL     *string          `json:"trackingUrl"`
	Visible         bool             `json:"visible"`
	Wholesale       bool             `json:"wholesale"`
}

// PaymentType is the operator of a payment method.
type PaymentType struct {
	ID   int    `json:"id"`
	Code string `json:"code"`
	Name string `json:"name"`
}

// PaymentMethod is one of the shop's payment methods.
type PaymentMethod struct {
	GUID        string      `json:"guid"`
	Name        string      `json:"name"`
	Description *string     `json:"description"`
	Submethod   *string     `json:"submethod"`
	PaymentType PaymentType `json:"paymentType"`
	Visible     bool        `json:"visible"`
	Wholesale   bool        `json:"wholesale"`
}

// Webhook is a registered webhook.
type Webhook struct {
	ID      int    `json:"id"`
	Event   string `json:"event"`
	URL     string `json:"url"`
	Created *Time  `json:"created"`
	Updated *Time  `json:"updated"`
}

// Time is a moment as Shoptet writes it: 2024-07-01T12:01:11+0200.
type Time struct{ time.Time }

// TimeLayout is Shoptet's ISO 8601, the zone without a colon.
const TimeLayout = "2006-01-02T15:04:05-0700"

func (t *Time) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	for _, layout := range []string{TimeLayout, time.RFC3339} {
		if v, err := time.Parse(layout, s); err == nil {
			t.Time = v
			return nil
		}
	}
	return fmt.Errorf("not a Shoptet time: %q", s)
}

// At is the moment, zero for null.
func (t *Time) At() time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.Time
}
