package views

import (
	"iter"
	"net/url"
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
	ID       int64
	Summary  string
	Progress BatchProgress
	Rows     iter.Seq[BatchRowView] // the rows the filter shows, read as the page is drawn
	Shown    int                    // how many rows the filter shows
	CanPrice bool
	CanOrder bool
	CanDraft bool
	Prints   BatchPrints
	Form     Form
	// Filters are the filter's choices with their counts; FilterProblem says
	// the address named a filter there is not (all rows are shown).
	Filters       []BatchFilter
	Filter        string
	FilterProblem string
	Known         string // how many rows were recognised as ordered already, in words ("": none)
	// Quiet: nothing to do on the whole batch and nothing ordered to print
	// (every row ordered before, say): the actions' card is not shown.
	Quiet bool
}

// BatchFilter is one choice of the rows' filter.
type BatchFilter struct {
	Value, Text string
	N           int
	Current     bool
}

// BatchProtocol is a link to one carrier's hand-over protocol of the batch.
type BatchProtocol struct {
	Carrier, Name, Count string
}

// BatchPrints are the batch's prints, offered as soon as they exist.
type BatchPrints struct {
	Labels    bool // some shipment of the batch has a label
	Formats   []string
	Protocols []BatchProtocol
	Codes     string // the link to the sheet of label-free codes, in words; "" when the batch has no label-free shipment
	BatchID   int64
}

// BatchProgress is the live part of a batch page.
type BatchProgress struct {
	BatchID int64
	Working bool // rows are being priced or ordered, or labels made: the part asks for itself
	Rows    bool // rows are being priced or ordered: the page is drawn anew when they are done
	Pending int  // labels still being made (then Text says so)
	Done    int  // rows past the work under way
	Total   int
	Text    string
	Counts  []BatchCount
}

// BatchRowView is one row of a batch.
type BatchRowView struct {
	ID, BatchID int64
	Filter      string // the page's filter, kept by the row's links and forms
	Open        bool   // the row's offers and edit form are shown
	Poll        bool   // the row is being priced or ordered after a change: it asks for itself
	FocusToggle bool   // the row was just closed: the focus goes back to its button (to the row while it has none)
	Line        int
	Reference   string
	Recipient   string
	Place       string // postcode and town (and country abroad)
	Point       string // the pickup point the row names, in words
	Weight      string
	COD         string
	State       string
	StateText   string
	Problems    []RowProblemView
	Offer       string // the chosen offer, in words
	OfferPrice  string
	OfferWhy    string
	HasOffers   bool           // the row has offers to show (a closed row's Offers may hold only the chosen one)
	Offers      []RowOfferView // shown when Open
	Editable    bool
	CanChoose   bool
	Cells       []CellView
	ShipmentID  int64
	Error       string
	Draft       int64
	Message     string
	// Known: the row was ordered already; KnownText says as what, KnownURL
	// links it. The clerk may take it as a new parcel with its own
	// reference (NewReference, suggested; NewReferenceError says what is wrong).
	Known             bool
	KnownText         string
	KnownURL          templ.SafeURL
	HadReference      bool
	NewReference      string
	NewReferenceError string
	// Picker is the point picker of the opened row's editor (nil: none).
	Picker *PointSearchView
}

// RowProblemView is a row's problem and the column it is about.
type RowProblemView struct {
	Field, Label, Text string
	Picker             bool // the problem is the point: its link opens the row's point picker
}

// RowOfferView is one offer of a row.
type RowOfferView struct {
	Choice, Text, Price, Why string
	Chosen, Eligible         bool // Eligible: the clerk may choose it
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

// batchPageURL is the batch page with a filter and a row opened (0: none),
// at that row.
func batchPageURL(batch int64, filter string, open int64) templ.SafeURL {
	q := url.Values{}
	if filter != "" && filter != "all" {
		q.Set("state", filter)
	}
	if open != 0 {
		q.Set("open", strconv.FormatInt(open, 10))
	}
	u := "/shipping/batches/" + strconv.FormatInt(batch, 10)
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	if open != 0 {
		u += "#" + rowID(open)
	}
	return templ.SafeURL(u)
}

// rowPartURL is one row of the batch page, for htmx: opened or closed.
func rowPartURL(r BatchRowView, open bool) string {
	q := url.Values{}
	if r.Filter != "" && r.Filter != "all" {
		q.Set("state", r.Filter)
	}
	if open {
		q.Set("open", "1")
	}
	if r.Poll && !open {
		q.Set("poll", "1")
	}
	u := string(rowURL(r.BatchID, r.ID, ""))
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

func cellID(row int64, name string) string { return rowID(row) + "-" + name }

func percent(done, total int) string {
	if total == 0 {
		return "0"
	}
	return strconv.Itoa(done * 100 / total)
}

// autofocusCell says whether the cell i of an opened row takes the focus:
// the first with a problem, else the first.
func autofocusCell(r BatchRowView, i int) bool {
	for j, c := range r.Cells {
		if c.Error != "" {
			return i == j
		}
	}
	return i == 0
}
