package views

// View models of the shipping desk.

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
	Carrier          string
	Service          string
	Price, PriceVAT  string
	Delivery         string
	LabelMode        string
	LabelModeText    string
	DeliveryRequired bool
	Selectable       bool
	Reason           string
	Chosen           bool
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
	Compared       bool
	Chosen         *OfferRow
	LabelFreeOK    bool
	LabelFreeWhy   []string
	PickupPoints   []PointRow
	DeliveryPoints []PointRow
	PickupQuery    string
	DeliveryQuery  string
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
}

// ShipmentView is the shipment page.
type ShipmentView struct {
	ShipmentRow
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
	Defaults           []string
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
	Senders     []SenderRow
	Recipients  []Option // Value: id, Label: name and address
	Presets     []Option
	AddSender   Form
	AddContact  Form // a new pickup address stored at the service
	AddPreset   Form
	Settings    Form
	PointsCount int64
	PointsAge   string
}

// LabelModeText explains label modes in the clerk's words.
func LabelModeText(mode string) string {
	switch mode {
	case "PRINT":
		return "you print the label"
	case "CARRIER":
		return "the courier brings the label"
	case "CODE":
		return "hand over with a code"
	case "PRINT_OR_CODE":
		return "print the label or write the code"
	}
	return mode
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
func statusLine(s ShipmentView) string {
	line := "Status " + s.Status + " · label: " + s.LabelModeText
	if s.Status == "" {
		line = "Not at the service yet"
	}
	if s.LastChecked != "" {
		line += " · last checked " + s.LastChecked
	}
	return line
}
