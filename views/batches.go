package views

import (
	"iter"
	"strconv"

	"github.com/a-h/templ"
)

// BatchList is the list of batches.
type BatchList struct {
	Rows []BatchListRow
}

// BatchListRow is one batch in the list.
type BatchListRow struct {
	ID                 int64
	Created, CreatedAt string
	By, Source, File   string
	Rows               int
	Counts             []BatchCount
}

// BatchCount is how many rows of a batch are in one state.
type BatchCount struct {
	State, Text string
	N           int
}

// BatchNew is the import form.
type BatchNew struct {
	Form      Form
	Sources   []string // sources with a kept column mapping
	Handovers []Option
}

// BatchMapping is the form that maps a file's columns to our fields.
type BatchMapping struct {
	Form     Form
	UploadID int64
	FileName string
	Handover string
	Fields   []MapField
	Headers  []string
	Problems []string
}

// MapField is one of our fields and the file's column chosen for it.
type MapField struct {
	Name, Label, Chosen, Example, Error string
	Required                            bool
}

// BatchPage is one batch: its progress, rows and actions.
type BatchPage struct {
	ID        int64
	Summary   string
	Progress  BatchProgress
	Rows      iter.Seq[BatchRowView] // read as the page is drawn
	CanPrice  bool
	CanOrder  bool
	CanDraft  bool
	Labels    bool // some shipment of the batch has a label
	Formats   []string
	Protocols []BatchProtocol
	Form      Form
}

// BatchProtocol is a link to one carrier's hand-over protocol of the batch.
type BatchProtocol struct {
	Carrier, Name, Count string
}

// BatchProgress is the live part of a batch page.
type BatchProgress struct {
	BatchID int64
	Working bool // rows are being priced or ordered: the part asks for itself
	Done    int  // rows past the work under way
	Total   int
	Text    string
	Counts  []BatchCount
}

// BatchRowView is one row of a batch.
type BatchRowView struct {
	ID, BatchID int64
	Line        int
	Reference   string
	Recipient   string
	Place       string
	State       string
	StateText   string
	Problems    []RowProblemView
	Offer       string // the chosen offer, in words
	OfferWhy    string
	Offers      []RowOfferView
	Editable    bool
	CanChoose   bool
	Cells       []CellView
	ShipmentID  int64
	Error       string
	Draft       int64
	Message     string
}

// RowProblemView is a row's problem and the column it is about.
type RowProblemView struct {
	Field, Label, Text string
}

// RowOfferView is one offer of a row.
type RowOfferView struct {
	Choice, Text, Price, Why string
	Chosen, Eligible         bool
}

// CellView is one cell of a row's edit form.
type CellView struct {
	Name, Label, Value, Error string
}

func batchURL(id int64, rest string) templ.SafeURL {
	return templ.SafeURL("/shipping/batches/" + strconv.FormatInt(id, 10) + rest)
}

func rowURL(batch, row int64, rest string) templ.SafeURL {
	return batchURL(batch, "/rows/"+strconv.FormatInt(row, 10)+rest)
}

func rowID(id int64) string { return "row-" + strconv.FormatInt(id, 10) }

func cellID(row int64, name string) string { return rowID(row) + "-" + name }

func percent(done, total int) string {
	if total == 0 {
		return "0"
	}
	return strconv.Itoa(done * 100 / total)
}
