package shipping

import (
	"encoding/json"
	"time"
)

// Request shapes. Unknown fields are ignored, as real integrations send extras.

type address struct {
	ID        *int64 `json:"id,omitempty"`
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

type pkgReq struct {
	Weight  float64 `json:"weight"`
	Width   float64 `json:"width"`
	Height  float64 `json:"height"`
	Length  float64 `json:"length"`
	Value   *money  `json:"value,omitempty"`   // the goods' value, as real modules send it
	Content string  `json:"content,omitempty"` // what the package holds
}

type serviceReq struct {
	Code string          `json:"code"`
	Data json.RawMessage `json:"data,omitempty"`
}

type codData struct {
	Value                *money `json:"value"`
	BankAccount          string `json:"bank_account,omitempty"`
	BankCode             string `json:"bank_code,omitempty"`
	BankVariable         string `json:"bank_variable,omitempty"`
	BankCurrency         string `json:"bank_currency,omitempty"`
	IncludeShippingCosts bool   `json:"include_shipping_costs,omitempty"`
}

type shipmentReq struct {
	Type                   string       `json:"type"`
	Carrier                string       `json:"carrier,omitempty"`
	ServiceID              int          `json:"service_id,omitempty"`
	PickupDate             string       `json:"pickup_date,omitempty"`
	From                   address      `json:"from"`
	To                     address      `json:"to"`
	Services               []serviceReq `json:"services,omitempty"`
	Packages               []pkgReq     `json:"packages"`
	Reference              string       `json:"reference,omitempty"`
	Note                   string       `json:"note,omitempty"`
	LabelLess              bool         `json:"label_less,omitempty"`
	PickupBranch           string       `json:"pickup_branch,omitempty"`
	DeliveryBranch         string       `json:"delivery_branch,omitempty"`
	PickupBranchLocation   int64        `json:"pickup_branch_location,omitempty"`
	DeliveryBranchLocation int64        `json:"delivery_branch_location,omitempty"`
	Customs                *customsReq  `json:"customs,omitempty"` // outside the EU customs territory
}

type payer struct {
	Firstname string `json:"firstname"`
	Surname   string `json:"surname"`
	Company   string `json:"company,omitempty"`
	Tin       string `json:"tin,omitempty"`   // IČO
	Vatin     string `json:"vatin,omitempty"` // DIČ
	Email     string `json:"email"`
	Phone     string `json:"phone,omitempty"`
}

type orderReq struct {
	Currency    string        `json:"currency"`
	PaymentType string        `json:"payment_type"`
	Payer       *payer        `json:"payer,omitempty"`
	Shipments   []shipmentReq `json:"shipments"`
}

type rateReq struct {
	Currency string `json:"currency"`
	shipmentReq
}

// insuranceData is the data of the additional service INS: {value: Money},
// or the Money itself ({"value": 12500, "currency": "CZK"}) as the provider's
// published example writes it.
type insuranceData struct {
	Value *money `json:"value"`
}

func (d *insuranceData) UnmarshalJSON(b []byte) error {
	var flat struct {
		Value    json.RawMessage `json:"value"`
		Currency *string         `json:"currency"`
	}
	if err := json.Unmarshal(b, &flat); err != nil {
		return err
	}
	if flat.Currency != nil { // the data is the Money itself
		var m money
		if err := json.Unmarshal(b, &m); err != nil {
			return err
		}
		d.Value = &m
		return nil
	}
	if len(flat.Value) == 0 || string(flat.Value) == "null" {
		return nil
	}
	var m money
	if err := json.Unmarshal(flat.Value, &m); err != nil {
		return err
	}
	d.Value = &m
	return nil
}

type numbersReq struct {
	Shipments []string `json:"shipments"`
	Tokens    []string `json:"tokens,omitempty"`
}

// Stored state. Everything time-dependent is derived from these facts and the
// simulated clock on each read, so advancing the clock moves every shipment.

type order struct {
	ID        int64      `json:"id"`
	Number    string     `json:"number"`
	Token     string     `json:"token"`
	Account   int        `json:"account"` // -1: created without a valid key
	Payment   string     `json:"payment_type"`
	Currency  string     `json:"currency"`
	Created   time.Time  `json:"created"`
	PaidAt    *time.Time `json:"paid_at,omitempty"`
	Shipments []string   `json:"shipments"`
}

type packageRec struct {
	Number string  `json:"number"`
	Weight float64 `json:"weight"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Length float64 `json:"length"`
}

type shipment struct {
	TrackingNumber string       `json:"tracking_number"`
	OrderID        int64        `json:"order_id"`
	Account        int          `json:"account"`
	Created        time.Time    `json:"created"`
	Req            shipmentReq  `json:"request"`
	From           address      `json:"from"` // resolved (a stored address copied)
	Carrier        string       `json:"carrier"`
	ServiceID      int          `json:"service_id"`
	Handover       Handover     `json:"handover"`
	LabelMode      string       `json:"label_mode"` // at creation; CODE for a label-free request
	Packages       []packageRec `json:"packages"`
	PickupPoint    int64        `json:"pickup_point,omitempty"`
	DeliveryPoint  int64        `json:"delivery_point,omitempty"`
	FailLabel      bool         `json:"fail_label"`        // carrier gives no label at export
	RefuseCode     bool         `json:"refuse_label_less"` // carrier refuses the label-free export
	Returned       bool         `json:"returned"`          // goes back to the sender
	Cancelled      *time.Time   `json:"cancelled,omitempty"`
	LabelFetched   *time.Time   `json:"label_fetched,omitempty"` // first fetch of the label: the courier may take the parcel
}

// CarrierBehaviour makes a carrier misbehave, for testing what clients do then.
type CarrierBehaviour struct {
	FailLabels      bool `json:"fail_labels"`       // export without a label: label_status FAILED
	RefuseLabelLess bool `json:"refuse_label_less"` // label-free export refused: ordinary label instead
}

type account struct {
	Index    int
	Contacts []contact
	Bank     BankDetails // stored in the account's settings: a COD without bank details uses them
}

// BankDetails are an account's stored bank details for cash on delivery.
type BankDetails struct {
	Account  string `json:"bank_account"`
	Code     string `json:"bank_code"`
	Currency string `json:"bank_currency"`
}

type contact struct {
	ID int64 `json:"id"`
	address
	Tin     string `json:"tin,omitempty"` // the company's IČO
	Default bool   `json:"default"`
}
