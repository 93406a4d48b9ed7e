package views

// PrintQueue is the print queue page: the labels ready and being made (the
// part that refreshes itself), the paper, and the last prints.
type PrintQueue struct {
	Live    PrintLive
	Format  string // the paper chosen: "A6" or "A4"
	Start   int    // the first position on an A4 sheet
	Formats []string
	Batches []PrintBatchRow
	Last    *PrintBatchRow // the newest print, offered again on either paper; nil before the first
	Form    Form
}

// PrintLive is the part of the print queue the page asks for every few
// seconds. Version changes when its lists do, so an unchanged answer is
// nothing to swap.
type PrintLive struct {
	Version string
	Ready   []PrintRow
	Making  []ShipmentRow // labels still being made
}

// PrintRow is a label ready to print, ticked or not.
type PrintRow struct {
	ShipmentRow
	Selected bool
}

// AllSelected says every ready label is ticked.
func (l PrintLive) AllSelected() bool {
	for _, r := range l.Ready {
		if !r.Selected {
			return false
		}
	}
	return len(l.Ready) > 0
}

// PrintBatchRow is one of the last prints.
type PrintBatchRow struct {
	ID        int64
	Printed   string // when, for a person
	PrintedAt string // when, machine-readable
	By        string // empty: the account is gone
	Shipments int
	Labels    int
	Format    string
	Start     int
	ReprintOf int64
}

// Positions are the places of the labels on an A4 sheet.
var Positions = []int{1, 2, 3, 4}

// Handovers is the hand-over protocols page of a day.
type Handovers struct {
	Day       string // YYYY-MM-DD, for the date field and the links
	DayText   string // the day for a person
	Protocols []ProtocolView
	Shipments int
	Form      Form
}

// ProtocolView is one hand-over protocol: a carrier, a place, a day.
type ProtocolView struct {
	Carrier     string // the carrier's code
	CarrierName string
	Pickup      string
	Place       []string
	Count       string // "3 parcels, 4 packages"
	Packages    string
	CODTotal    string
	Parcels     []ParcelRow
}

// ParcelRow is one shipment on a protocol.
type ParcelRow struct {
	ID        int64
	Tracking  string
	Recipient string
	Town      string
	Packages  string
	COD       string
}
