package shoptet

import "time"

// Order is a shop's order as the simulator keeps it. Texts, amounts, weights
// and prices are kept as Shoptet writes them (decimals as strings), so a
// test can hand the simulator an order as hostile as it likes through
// AddOrder or UpdateOrder; the generated ones always keep to the schemas.
type Order struct {
	Code    string    `json:"code"`
	GUID    string    `json:"guid"`
	Created time.Time `json:"created"`
	Changed time.Time `json:"changed"`
	Status  int       `json:"status_id"`
	Email   string    `json:"email"` // "" answers null
	Phone   string    `json:"phone"` // "" answers null
	Billing Address   `json:"billing"`
	// Delivery nil: the delivery address is the billing one (addressesEqual).
	Delivery *Address `json:"delivery,omitempty"`
	Shipping string   `json:"shipping_guid"` // a ShippingMethod's GUID
	// Point is the parcel point chosen at checkout (shippingDetails).
	Point    *Point `json:"point,omitempty"`
	Payment  string `json:"payment_guid"` // a PaymentMethod's GUID
	Currency string `json:"currency"`     // ISO 4217
	Paid     *bool  `json:"paid"`         // nil: unknown
	Items    []Item `json:"items"`
	// Notes (include=notes).
	CustomerRemark string    `json:"customer_remark"`
	EshopRemark    string    `json:"eshop_remark"`
	TrackingNumber string    `json:"tracking_number"`
	Additional     [6]string `json:"additional_fields"`
	Deleted        bool      `json:"deleted,omitempty"`
	History        []History `json:"history,omitempty"`
}

// Address is a billing or delivery address.
type Address struct {
	Company     string `json:"company"`
	FullName    string `json:"full_name"`
	Street      string `json:"street"`
	HouseNumber string `json:"house_number"`
	City        string `json:"city"`
	Zip         string `json:"zip"`
	Country     string `json:"country"` // ISO 3166-1 alpha-2
	CompanyID   string `json:"company_id,omitempty"`
	VatID       string `json:"vat_id,omitempty"`
}

// Point is shippingDetails: the branch the customer chose at checkout.
type Point struct {
	BranchID    string `json:"branch_id"`
	CompanyCode string `json:"company_code"` // Shoptet's code of the carrier ("zasilkovna")
	ServiceCode string `json:"service_code,omitempty"`
	Name        string `json:"name"`
	Street      string `json:"street"`
	City        string `json:"city"`
	Zip         string `json:"zip"`
	Country     string `json:"country"`
	Latitude    string `json:"latitude"`
	Longitude   string `json:"longitude"`
	CarrierID   *int   `json:"carrier_id,omitempty"` // Zásilkovna outside Czechia
}

// Item is one line of an order: goods, or the shipping or payment row.
type Item struct {
	ID      int    `json:"id"`
	Type    string `json:"type"` // product, shipping, billing, discount-coupon, …
	Code    string `json:"code"`
	EAN     string `json:"ean"`
	Name    string `json:"name"`
	Brand   string `json:"brand"`
	Amount  string `json:"amount"`     // "1.000"
	Weight  string `json:"weight"`     // kilograms for one, "1.250"; "0.000" unknown
	Price   string `json:"unit_price"` // for one, with VAT, "1299.00"
	VatRate string `json:"vat_rate"`   // "21.00"
}

// History is one line of the order's history (GET /api/orders/{code}/history).
type History struct {
	ID      int       `json:"id"`
	At      time.Time `json:"at"`
	Text    string    `json:"text"`
	System  bool      `json:"system"`
	Mailed  bool      `json:"mailed,omitempty"` // a mail to the customer went out
	Texted  bool      `json:"texted,omitempty"` // a text message went out
	Comment bool      `json:"comment,omitempty"`
}

// Status is an order status of the shop.
type Status struct {
	ID         int
	Name       string
	System     bool
	Order      int
	MarkAsPaid bool
	// Mails and Texts: moving an order here mails (texts) the customer,
	// unless the request suppresses it.
	Mails, Texts bool
	Color        string
}

// Statuses of the demo shop: Shoptet's system statuses (negative) and the
// shop's own. Open ones: -1, -3, 1 and 2; 3 is the status the desk moves a
// handed-over order to; -2 and -4 close an order.
var Statuses = []Status{
	{ID: -1, Name: "Nevyřízená", System: true, Order: 1, Color: "#000000"},
	{ID: -3, Name: "Vyřizuje se", System: true, Order: 2, Color: "#1e6bb8"},
	{ID: 1, Name: "Čeká na platbu", Order: 3, Mails: true, Color: "#c77c02"},
	{ID: 2, Name: "Připraveno k odeslání", Order: 4, MarkAsPaid: false, Color: "#6f42c1"},
	{ID: 3, Name: "Odesláno", Order: 5, Mails: true, Texts: true, Color: "#2e7d32"},
	{ID: -2, Name: "Vyřízena", System: true, Order: 6, MarkAsPaid: true, Color: "#2e7d32"},
	{ID: -4, Name: "Stornována", System: true, Order: 7, Color: "#b00020"},
}

// Status IDs the simulator itself acts on.
const (
	StatusNew       = -1
	StatusHandling  = -3
	StatusAwaitPay  = 1
	StatusReady     = 2
	StatusSent      = 3
	StatusDone      = -2
	StatusCancelled = -4
)

func statusOf(id int) (Status, bool) {
	for _, st := range Statuses {
		if st.ID == id {
			return st, true
		}
	}
	return Status{}, false
}

// ShippingMethod is one of the shop's shipping methods.
type ShippingMethod struct {
	GUID, Name, Description string
	// Company is Shoptet's shipping company ("" for none: personal pickup,
	// delivery by agreement).
	CompanyID                int
	CompanyCode, CompanyName string
	TrackingURL              string // with #PACKAGE_NUMBER#
	// For the demo mapping: the sandbox carrier meant, whether the customer
	// picks a point of it, or a personal pickup; no carrier and no pickup is
	// the method the demo mapping leaves unmapped.
	Carrier        string
	ToPoint        bool
	PersonalPickup bool
	Price          string
}

// PaymentMethod is one of the shop's payment methods.
type PaymentMethod struct {
	GUID, Name, Description string
	TypeID                  int
	TypeCode, TypeName      string
	COD                     bool // the carrier collects the money
	Online                  bool // paid at checkout
	Price                   string
}

// ShippingMethods of the demo shop.
var ShippingMethods = []ShippingMethod{
	{GUID: "6f1c2a10-5b3e-11ee-8c99-0242ac120002", Name: "Zásilkovna – výdejní místo", Description: "Vyzvednutí na výdejním místě nebo v Z-BOXu do 2 dnů.",
		CompanyID: 11, CompanyCode: "zasilkovna", CompanyName: "Zásilkovna", TrackingURL: "https://tracking.packeta.com/cs/?id=#PACKAGE_NUMBER#", Carrier: "ZASILKOVNA", ToPoint: true, Price: "69.00"},
	{GUID: "6f1c2a11-5b3e-11ee-8c99-0242ac120002", Name: "Zásilkovna – doručení na adresu", Description: "Doručení domů do 2 dnů.",
		CompanyID: 11, CompanyCode: "zasilkovna", CompanyName: "Zásilkovna", TrackingURL: "https://tracking.packeta.com/cs/?id=#PACKAGE_NUMBER#", Carrier: "ZASILKOVNA", Price: "99.00"},
	{GUID: "6f1c2a12-5b3e-11ee-8c99-0242ac120002", Name: "PPL – doručení na adresu", Description: "Kurýr PPL doručí následující pracovní den.",
		CompanyID: 3, CompanyCode: "ppl", CompanyName: "PPL", TrackingURL: "https://www.ppl.cz/vyhledat-zasilku?shipmentId=#PACKAGE_NUMBER#", Carrier: "PPL", Price: "119.00"},
	{GUID: "6f1c2a13-5b3e-11ee-8c99-0242ac120002", Name: "PPL Parcelshop", Description: "Vyzvednutí na výdejním místě PPL.",
		CompanyID: 3, CompanyCode: "ppl", CompanyName: "PPL", TrackingURL: "https://www.ppl.cz/vyhledat-zasilku?shipmentId=#PACKAGE_NUMBER#", Carrier: "PPL", ToPoint: true, Price: "79.00"},
	{GUID: "6f1c2a14-5b3e-11ee-8c99-0242ac120002", Name: "Balíkovna", Description: "Vyzvednutí na poště nebo v Balíkovně.",
		CompanyID: 7, CompanyCode: "balikovna", CompanyName: "Balíkovna", TrackingURL: "https://www.postaonline.cz/trackandtrace/-/zasilka/cislo?parcelNumbers=#PACKAGE_NUMBER#", Carrier: "BALIKOVNA", ToPoint: true, Price: "65.00"},
	{GUID: "6f1c2a15-5b3e-11ee-8c99-0242ac120002", Name: "DPD – doručení na adresu", Description: "Doručení kurýrem DPD, i na Slovensko.",
		CompanyID: 5, CompanyCode: "dpd", CompanyName: "DPD", TrackingURL: "https://tracking.dpd.de/status/cs_CZ/parcel/#PACKAGE_NUMBER#", Carrier: "DPD", Price: "129.00"},
	{GUID: "6f1c2a16-5b3e-11ee-8c99-0242ac120002", Name: "Osobní odběr – prodejna Praha", Description: "Vyzvednutí na prodejně, Korunní 12, Praha 2.",
		PersonalPickup: true, Price: "0.00"},
	{GUID: "6f1c2a17-5b3e-11ee-8c99-0242ac120002", Name: "Doprava po dohodě", Description: "Nadrozměrné zboží, cenu dopravy sdělíme e-mailem.",
		Price: "0.00"},
}

// PaymentMethods of the demo shop.
var PaymentMethods = []PaymentMethod{
	{GUID: "8a3d4b20-5b3e-11ee-8c99-0242ac120002", Name: "Dobírka", Description: "Platba při převzetí zásilky.", TypeID: 1, TypeCode: "cod", TypeName: "Dobírka", COD: true, Price: "39.00"},
	{GUID: "8a3d4b21-5b3e-11ee-8c99-0242ac120002", Name: "Platba kartou online", Description: "Visa, Mastercard, Apple Pay, Google Pay.", TypeID: 12, TypeCode: "comgate", TypeName: "ComGate", Online: true, Price: "0.00"},
	{GUID: "8a3d4b22-5b3e-11ee-8c99-0242ac120002", Name: "Bankovní převod", Description: "Zboží odešleme po připsání platby.", TypeID: 2, TypeCode: "bank-transfer", TypeName: "Převodem", Price: "0.00"},
	{GUID: "8a3d4b23-5b3e-11ee-8c99-0242ac120002", Name: "Hotově na prodejně", Description: "Platba při osobním odběru.", TypeID: 3, TypeCode: "cash", TypeName: "Hotově", Price: "0.00"},
}

func shippingOf(guid string) (ShippingMethod, bool) {
	for _, m := range ShippingMethods {
		if m.GUID == guid {
			return m, true
		}
	}
	return ShippingMethod{}, false
}

func paymentOf(guid string) (PaymentMethod, bool) {
	for _, m := range PaymentMethods {
		if m.GUID == guid {
			return m, true
		}
	}
	return PaymentMethod{}, false
}

// additionalLabels name the six additional fields of the shop's orders.
var additionalLabels = [6]string{"Číslo zákazníka", "Dárkové balení", "Poznámka skladu", "Pole 4", "Pole 5", "Pole 6"}
