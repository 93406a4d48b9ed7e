// Package labelpdf draws the sandbox's documents as real PDFs: A6 shipping labels with
// a Code128 barcode per package, the A6 information sheet of a label-free shipment
// (QR code and hand-over code), and the hand-over protocol (manifest) of shipments.
package labelpdf

import (
	"time"

	"shipdesk/sandbox/apijson"
)

// Address is a sender or recipient as printed.
type Address struct {
	Name    string // person or company name as it should appear
	Street  string
	City    string
	Zip     string
	Country string // two-letter code
	Phone   string
	Email   string
}

// Money is an amount with its currency.
type Money struct {
	Value    float64
	Currency string
}

// Package is one parcel of a shipment.
type Package struct {
	Number string  // printed as text and as a Code128 barcode
	Weight float64 // kilograms
}

// Label is one shipment printed with a label: one A6 page per package.
type Label struct {
	TrackingNumber string
	Carrier        string // carrier code
	CarrierGroup   string // G1 … G7
	Service        string // service name
	From, To       Address
	Packages       []Package
	COD            *Money // nil without cash on delivery
	Insured        *Money // nil without insurance
	Reference      string
	PickupBranch   string // empty when not handed over at a point
	DeliveryBranch string // empty for delivery to an address
	Created        time.Time
}

// CodeSheet is the A6 information sheet of a label-free shipment: the package is
// handed over with a code, the sheet is for information only.
type CodeSheet struct {
	TrackingNumber string
	Carrier        string
	PackageNumber  string
	Password       string // the six-character hand-over code
	RecipientName  string // written on the package next to the code
	PickupBranch   string
}

// Page is one item of a label document: exactly one of Label or CodeSheet is set.
type Page struct {
	Label     *Label
	CodeSheet *CodeSheet
	Lang      apijson.Lang // Czech unless the client asked for English
}

// ManifestShipment is one line of a hand-over protocol.
type ManifestShipment struct {
	TrackingNumber string
	Carrier        string
	Recipient      Address
	Packages       int
	Weight         float64
	COD            *Money
	Reference      string
}

// Manifest is the hand-over protocol the courier signs when collecting shipments.
type Manifest struct {
	Account   string // account or company name of the sender
	Sender    Address
	Date      time.Time
	Shipments []ManifestShipment
	Lang      apijson.Lang // Czech unless the client asked for English
}
