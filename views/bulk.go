package views

// Bulk is a page after an action on the shipments list's selection: the
// print step, the outcome of a storno, or why nothing could be done.
type Bulk struct {
	Heading string
	Lead    string   // what was done, or what is about to be
	Problem string   // what went wrong or was left undone
	Notes   []string // the shipments left out, a line per reason
	Back    string   // the list the selection came from
	Print   *BulkPrint
}

// BulkPrint is the print step of a selection: the labels that go into the
// print and the paper, posted to the print queue's print.
type BulkPrint struct {
	IDs     []int64
	Rows    []ShipmentRow
	Count   string // "3 labels to print"
	Button  string // "Print 3 labels"
	Formats []string
	Format  string
	Start   int
}

// ListSelection is what the shipments list offers for its selection.
type ListSelection struct {
	Query     []Option // the list's query, sent with the selection (Value: name, Label: value)
	Whole     string   // "Select all 1 234 shipments of this filter"; "" when the page holds them all
	CanStorno bool
}
