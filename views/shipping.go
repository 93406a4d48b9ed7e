package views

// View models of the shipping desk.

import "context"

// Option is one entry of a select.
type Option struct {
	Value, Label string
}

// PackageRow is one row of the packages table as typed.
type PackageRow struct {
	Index                         int
	Weight, Length, Width, Height string
}

// OfferRow is one offer of the comparison.
type OfferRow struct {
	ServiceID        int
	Carrier          string // the service's code, sent back with the form
	CarrierName      string // the carrier table's name, for people
	Service          string
	Price, PriceVAT  string // as the service wrote them; PriceVAT goes back with the form
	PriceText        string // Price for people, in the request's language
	PriceVATText     string
	Delivery         string
	LabelMode        string
	LabelModeText    string
	DeliveryRequired bool
	Selectable       bool
	Reason           string
	Chosen           bool
	Choice           string // what its Choose button sends
	LabelFree        bool   // the label-free variant: handed over at a point with a code
}

// PointRow is a parcel point in the picker.
type PointRow struct {
	Code, Name, Address string
	Locker              bool
	Limits              string
	Selected            bool
}

// NewShipment is the new-shipment page.
type NewShipment struct {
	Form           Form
	Packages       []PackageRow
	Senders        []Option
	Recipients     []Option
	Presets        []Option
	Offers         []OfferRow
	LabelFreeOffer []OfferRow // offers for a label-free hand-over at a point, beside Offers
	Compared       bool
	Chosen         *OfferRow
	LabelFreeOK    bool
	LabelFreeWhy   []string
	LabelFreeBelow bool // this offer goes with a label, and label-free offers are listed below it
	Pickup         PointsView
	Delivery       PointsView
	Countries      []Option // the recipient's country: every served one, by name
	Customs        CustomsView
	Notices        []string // how the form was filled (from another shipment), said once above it
}

// PointsView is one point picker's list: the points it shows, how many match
// in all and what was searched.
type PointsView struct {
	Kind     string // pickup or delivery
	Points   []PointRow
	Total    int    // points that match in all; more than shown: the clerk should type more
	TooMany  bool   // more than Total match: they were counted only so far
	Query    string // what the clerk typed; empty: the town was searched
	Town     string // searched while nothing is typed: the recipient's or the sender's town
	Selected string // the chosen point's code
	Field    string // the name of the points' choice; "": Kind_branch (the new-shipment form's field)
}

// Name is the name the chosen point is posted under.
func (p PointsView) Name() string {
	if p.Field != "" {
		return p.Field
	}
	return p.Kind + "_branch"
}

// PointSearchView is a point picker around its list: what it searches by,
// where it posts the typed text, and the carrier's choice when the form has
// none (a batch row).
type PointSearchView struct {
	List     PointsView
	Label    string
	Search   string // where htmx posts the form as the clerk types
	Find     string // where the search button posts the form without htmx
	Error    string // the chosen point's problem
	Focus    bool   // the search field takes the focus
	Hint     string // "": the new-shipment form's
	Carriers []Option
	Carrier  string // the carrier chosen in Carriers
}

// More: some matching points are not shown.
func (p PointsView) More() bool { return p.Total > len(p.Points) }

// ShipmentPointRow is a point a shipment uses, on the shipment page.
type ShipmentPointRow struct {
	Role    string // pickup (the clerk hands the package over there) or delivery
	Code    string
	Any     bool // any point of the carrier
	Name    string
	Address string
	Known   bool // the point is in the cache: name and address are known
}

// ShipmentRow is a shipment in lists.
type ShipmentRow struct {
	ID             int64
	Created        string
	Reference      string
	Recipient      string
	Carrier        string
	Service        string
	State          string
	Status         string
	LabelMode      string
	LabelStatus    string
	TrackingNumber string
	Printed        bool
	PrintLate      bool   // the carrier has the parcel though its label was never printed (desk.PrintLate)
	Age            string // how long ago the service was asked about it (Age)
	CheckedAt      string // when, in full
	Changing       bool   // its state may still change by itself: its pages ask again
	CodeOnly       bool   // label-free: the package goes with a code, never a label
	NoteCount      int    // internal notes on it
	LastNote       string // the latest note's text
}

// ShipmentView is the shipment page.
type ShipmentView struct {
	ShipmentRow
	TrackLink     string // the recipient's public tracking page
	City          string
	COD           string
	Insured       string
	Packages      []PackageView
	Error         string
	LastChecked   string
	OrderNumber   string
	Cancelled     bool
	CanCancel     bool
	Poll          bool     // label pending or outcome open: the page refreshes the status by itself
	SettlesAt     string   // when every create attempt has settled at the service
	Duplicates    []string // extra orders the service holds under our reference
	LabelModeText string
	Timeline      TimelineView
	Next          string             // the clerk's next step (desk.NextStep): the label box shows only it
	Points        []ShipmentPointRow // the hand-over and delivery points of the order
	Notes         []NoteRow          // internal notes, newest first
	NoteForm      Form               // the form that adds one
	NoteMax       int                // the most characters a note holds
}

// PackageView is one package on the shipment page.
type PackageView struct {
	Number, Status, Password string
}

// DraftView is a created cart draft.
type DraftView struct {
	ID, DraftID        int64
	Reference, Created string
	Recipient          string
	Modified           string
	Warnings           []Option // Value: field, Label: message
	Defaults           []Option // what the service filled in: Value: its field, Label: in words
}

// SenderRow is a sender in the address book.
type SenderRow struct {
	ID        int64
	Label     string
	Address   string
	Stored    bool // a pickup address stored at the service
	IsDefault bool
}

// AddressBook is the address book and settings page.
type AddressBook struct {
	Senders       []SenderRow
	Recipients    []Option // Value: id, Label: name and address
	Presets       []Option
	AddSender     Form
	AddContact    Form // a new pickup address stored at the service
	AddPreset     Form
	Settings      Form
	ReturnTo      Form     // the return address: field return_sender
	ReturnSenders []Option // "" the default sender, then each sender by id
	PointsCount   int64
	PointsAge     string
}

// packageCellLabel names a cell of the packages table for screen readers.
func packageCellLabel(ctx context.Context, name string, n int) string {
	switch name {
	case "weight":
		return T(ctx, "ship.pkg.weight", n)
	case "length":
		return T(ctx, "ship.pkg.length", n)
	case "width":
		return T(ctx, "ship.pkg.width", n)
	case "height":
		return T(ctx, "ship.pkg.height", n)
	}
	return name
}

// statusBadge is the badge class of a shipment or label status.
func statusBadge(s string) string {
	switch s {
	case "DELIVERED", "READY", "created":
		return "badge badge-ok"
	case "FAILED", "CANCELLED", "unknown", "missing":
		return "badge badge-bad"
	case "PENDING", "ordering":
		return "badge badge-warn"
	}
	return "badge badge-info"
}

// statusLine sums up the service's view and when it was last asked.
func statusLine(ctx context.Context, s ShipmentView) string {
	if s.Status == "" {
		line := T(ctx, "ship.line.not_yet")
		if s.LastChecked != "" {
			line += T(ctx, "ship.line.checked", s.LastChecked)
		}
		return line
	}
	line := T(ctx, "ship.line.status", ParcelState(ctx, s.Status), s.LabelModeText)
	if s.CodeOnly {
		line = T(ctx, "ship.line.status_code", ParcelState(ctx, s.Status))
	}
	if s.LastChecked != "" {
		line += T(ctx, "ship.line.checked", s.LastChecked)
	}
	return line
}
