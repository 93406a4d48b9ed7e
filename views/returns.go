package views

// View models of the returns workbench.

// CommissionRow is a commission in the list.
type CommissionRow struct {
	ID       int64
	Number   string
	Type     string
	Status   string
	State    string
	Customer string
	Product  string
	Created  string
	DaysLeft string // "", "12", "overdue 3"
	Urgent   bool   // 5 days or fewer, or overdue
}

// CommissionList is the list page.
type CommissionList struct {
	Filter   Form
	Rows     []CommissionRow
	NextURL  string
	FirstURL string
	Statuses []Option
	Types    []Option
	Error    string
}

// NewCommission is the create form.
type NewCommission struct {
	Form     Form
	Types    []Option
	Products []Option     // product types
	Models   []ModelGroup // models grouped by type, for a picker that works without script
	Kept     *KeptFile    // a proof kept from an earlier attempt
}

// ModelGroup is the models of one product type.
type ModelGroup struct {
	Type   string
	Models []Option
}

// KeptFile is a proof of purchase already received.
type KeptFile struct {
	ID   int64
	Name string
	Size string
}

// CommissionView is the commission page.
type CommissionView struct {
	CommissionRow
	Reference   string
	Email       string
	Phone       string
	Address     string
	Serial      string
	Purchase    string
	Fault       string
	History     []HistoryRow
	Activities  []ActivityRow
	Files       []KeptFile
	Transport   []TransportRow
	Moves       []MoveButton
	LastSynced  string
	Error       string
	NoteForm    Form
	MessageForm Form
	SettlesAt   string        // when every create attempt has settled at the service
	Duplicates  []string      // numbers of extra commissions under our reference
	Unconfirmed []ActivityRow // sent, but the service has not confirmed them yet
}

// HistoryRow is one state change.
type HistoryRow struct {
	Status, At, Note string
}

// ActivityRow is a public message or an internal note.
type ActivityRow struct {
	Public  bool
	Text    string
	Created string
}

// TransportRow is a shipment to or from the customer.
type TransportRow struct {
	Direction, TrackingNumber, Ordered, Delivered string
}

// MoveButton is a move the status allows.
type MoveButton struct {
	To, Label, Hint string
	Danger          bool
}

func commissionURL(id int64) string { return "/returns/commissions/" + idStr(id) }
