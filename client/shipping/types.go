package shipping

// Names follow the spec (interfaces.md) and the shapes public integrations show
// (public-evidence.md); where both are silent they follow the sandbox's OpenAPI
// document, which is our written choice.

// Enumerations of the spec.
const (
	LabelPrint       = "PRINT"
	LabelCarrier     = "CARRIER"
	LabelCode        = "CODE"
	LabelPrintOrCode = "PRINT_OR_CODE"

	LabelNotApplicable = "NOT_APPLICABLE"
	LabelPending       = "PENDING"
	LabelReady         = "READY"
	LabelFailed        = "FAILED"

	StatusCreated    = "CREATED"
	StatusExported   = "EXPORTED"
	StatusOnPickup   = "ONPICKUP"
	StatusInTransit  = "INTRANSIT"
	StatusOnDelivery = "ONDELIVERY"
	StatusDelivered  = "DELIVERED"
	StatusCancelled  = "CANCELLED"

	ListOpen      = "OPEN"
	ListActive    = "ACTIVE"
	ListDelivered = "DELIVERED"
	ListStorno    = "STORNO"

	PaymentCredit = "CREDIT"
	PaymentOnline = "ONLINE"

	PickupOnDemand   = "ONDEMAND"
	PickupRegular    = "REGULAR"
	PickupOccasional = "OCCASIONAL"

	// AnyBranch as pickup_branch: hand over at any branch of the carrier.
	AnyBranch = "1"
)

// Money is an amount and its currency.
type Money struct {
	Value    float64 `json:"value"`
	Currency string  `json:"currency"`
}

// Address is a sender or recipient. A sender may instead be a stored pickup
// address referenced by ID alone.
type Address struct {
	ID        int64  `json:"id,omitempty"`
	Firstname string `json:"firstname,omitempty"`
	Surname   string `json:"surname,omitempty"`
	Company   string `json:"company,omitempty"`
	Street    string `json:"street,omitempty"`
	City      string `json:"city,omitempty"`
	Zip       string `json:"zip,omitempty"`
	Country   string `json:"country,omitempty"`
	Phone     string `json:"phone,omitempty"`
	Email     string `json:"email,omitempty"`
}

// Package is one parcel: dimensions on requests, number and status on answers.
type Package struct {
	Number          string  `json:"number,omitempty"`
	Status          string  `json:"status,omitempty"`
	PackagePassword *string `json:"package_password,omitempty"`
	CarrierTracking string  `json:"carrier_tracking,omitempty"` // the carrier's own parcel number
	Weight          float64 `json:"weight"`
	Width           float64 `json:"width,omitempty"`
	Height          float64 `json:"height,omitempty"`
	Length          float64 `json:"length,omitempty"`
	Value           *Money  `json:"value,omitempty"`   // the goods' value
	Content         string  `json:"content,omitempty"` // what the package holds
}

// Service is an additional service such as cash on delivery.
type Service struct {
	Code string `json:"code"`
	Data any    `json:"data,omitempty"`
}

// ServiceCOD is the data of the COD service. In rates/get only Value is needed.
type ServiceCOD struct {
	Value                Money  `json:"value"`
	BankAccount          string `json:"bank_account,omitempty"`
	BankCode             string `json:"bank_code,omitempty"`
	BankVariable         string `json:"bank_variable,omitempty"`
	BankCurrency         string `json:"bank_currency,omitempty"`
	IncludeShippingCosts bool   `json:"include_shipping_costs,omitempty"`
}

// Service codes as the provider's documentation writes them; the service
// matches them without regard to case.
const (
	ServiceCodeCOD       = "cod"
	ServiceCodeInsurance = "ins"
)

// COD makes the service entry for cash on delivery.
func COD(cod ServiceCOD) Service { return Service{Code: ServiceCodeCOD, Data: cod} }

// Insurance makes the service entry for insuring the shipment up to value. Its
// data is the Money itself, as the provider's published create example writes
// it ({"code": "ins", "data": {"value": 12500, "currency": "CZK"}}).
func Insurance(value Money) Service {
	return Service{Code: ServiceCodeInsurance, Data: value}
}

// Shipment is one shipment of a create, validate or rates request.
type Shipment struct {
	Type                   string    `json:"type,omitempty"`
	Carrier                string    `json:"carrier,omitempty"`
	ServiceID              int       `json:"service_id,omitempty"`
	PickupDate             string    `json:"pickup_date,omitempty"`
	From                   Address   `json:"from"`
	To                     Address   `json:"to"`
	Services               []Service `json:"services,omitempty"`
	Packages               []Package `json:"packages"`
	Reference              string    `json:"reference,omitempty"`
	Note                   string    `json:"note,omitempty"`
	LabelLess              bool      `json:"label_less,omitempty"`
	PickupBranch           string    `json:"pickup_branch,omitempty"`
	DeliveryBranch         string    `json:"delivery_branch,omitempty"`
	PickupBranchLocation   int64     `json:"pickup_branch_location,omitempty"`
	DeliveryBranchLocation int64     `json:"delivery_branch_location,omitempty"`
	Customs                *Customs  `json:"customs,omitempty"` // required outside the EU customs territory
}

// Customs is what a shipment leaving the EU customs territory declares: why
// the goods go and what they are. The spec names the object without showing
// it; this is the shape the sandbox's OpenAPI document gives it.
type Customs struct {
	Reason string        `json:"reason"` // one of the CustomsReasons
	Items  []CustomsItem `json:"items"`
}

// CustomsReasons are the reasons for export.
var CustomsReasons = []string{"sale", "gift", "sample", "return", "documents"}

// CustomsItem is one kind of goods in the packages.
type CustomsItem struct {
	Description   string  `json:"description"`
	HSCode        string  `json:"hs_code,omitempty"` // tariff code, 6 to 10 digits; not needed for documents
	OriginCountry string  `json:"origin_country"`
	Quantity      int     `json:"quantity"`
	Value         Money   `json:"value"`  // of all pieces together
	Weight        float64 `json:"weight"` // net kilograms of all pieces together
}

// Payer is required when an order is created without a valid account key.
type Payer struct {
	Firstname string `json:"firstname,omitempty"`
	Surname   string `json:"surname,omitempty"`
	Company   string `json:"company,omitempty"`
	Tin       string `json:"tin,omitempty"`   // IČO
	Vatin     string `json:"vatin,omitempty"` // DIČ
	Email     string `json:"email,omitempty"`
	Phone     string `json:"phone,omitempty"`
}

// Order is the body of shipments/create and shipments/validate.
type Order struct {
	Currency    string     `json:"currency"`
	PaymentType string     `json:"payment_type"`
	Payer       *Payer     `json:"payer,omitempty"`
	Shipments   []Shipment `json:"shipments"`
}

// RateRequest is the body of rates/get: one shipment's parameters and currency.
type RateRequest struct {
	Currency string `json:"currency"`
	Shipment
}

// Rate is one offer.
type Rate struct {
	Carrier                string `json:"carrier"`
	Service                string `json:"service"`
	ServiceID              int    `json:"service_id"`
	PickupDate             string `json:"pickup_date"`
	DeliveryDate           string `json:"delivery_date"`
	Price                  Money  `json:"price"`
	PriceVAT               Money  `json:"price_vat"`
	Selectable             bool   `json:"selectable"` // false: not possible with the given data
	LabelMode              string `json:"label_mode"`
	DeliveryBranchRequired bool   `json:"delivery_branch_required"`
	// Deprecated: use LabelMode (anything but CARRIER is printable). Read, never decided on.
	Printable *bool `json:"printable,omitempty"`
}

// ShipmentInfo is a shipment as the service reports it (create, detail, list).
type ShipmentInfo struct {
	TrackingNumber      string    `json:"tracking_number"`
	Status              string    `json:"status"`
	Type                string    `json:"type,omitempty"`
	Carrier             string    `json:"carrier,omitempty"`
	ServiceID           int       `json:"service_id,omitempty"`
	PickupDate          string    `json:"pickup_date,omitempty"`
	Reference           string    `json:"reference,omitempty"`
	To                  *Address  `json:"to,omitempty"`
	Packages            []Package `json:"packages"`
	LabelMode           string    `json:"label_mode"`
	LabelStatus         string    `json:"label_status"`
	PickupBranch        string    `json:"pickup_branch,omitempty"`
	DeliveryBranch      string    `json:"delivery_branch,omitempty"`
	OrderDate           string    `json:"order_date,omitempty"`    // when ordered, YYYY-MM-DD HH:MM:SS
	DeliveryDate        string    `json:"delivery_date,omitempty"` // expected or actual, YYYY-MM-DD
	From                *Address  `json:"from,omitempty"`
	Services            []Service `json:"services,omitempty"`
	TrackingInformation *Tracking `json:"tracking_information,omitempty"`
	// Deprecated: use LabelMode CODE. Shown only to the owner; read, never decided on.
	LabelLess *bool `json:"label_less,omitempty"`
	// Deprecated: use LabelStatus READY. Read, never decided on.
	LabelsReady *bool `json:"labels_ready,omitempty"`
}

// Created is the reply of shipments/create.
type Created struct {
	OrderToken  string // the order's hash; in a detail request's tokens it unlocks package_password
	OrderNumber string // the order's number for people
	Shipments   []ShipmentInfo
}

// Tracking is the tracking state of one shipment.
type Tracking struct {
	Status   string    `json:"status"`
	Returned bool      `json:"returned"`
	Packages [][]Event `json:"packages"` // one list per package, newest first
}

// Event is one tracking event.
type Event struct {
	Date     string `json:"date"` // YYYY-MM-DD
	Time     string `json:"time"` // HH:MM:SS
	Name     string `json:"name"`
	Status   string `json:"status"`
	Location string `json:"location,omitempty"`
}

// ParcelPoint is a pickup or delivery point.
type ParcelPoint struct {
	ID         int64   `json:"-"` // the key of data; never read from the point itself
	Code       string  `json:"code"`
	Name       string  `json:"name"`
	Street     string  `json:"street"`
	City       string  `json:"city"`
	Zip        string  `json:"zip"`
	Country    string  `json:"country"`
	Carrier    string  `json:"carrier"`
	IsLocker   bool    `json:"is_locker"`
	LocationID int64   `json:"pickup_branch_location_id"`
	Location   *LatLng `json:"location,omitempty"`
}

// LatLng is a position.
type LatLng struct {
	Lat float64 `json:"lat"`
	Lng float64 `json:"lng"`
}

// Contact is a stored pickup address (address book), usable as from.id.
type Contact struct {
	ID int64 `json:"id"`
	Address
	Default bool `json:"default,omitempty"`
}
