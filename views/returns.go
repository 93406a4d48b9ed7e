package views

import (
	"context"
	"strings"

	"shipdesk/i18n"
)

// View models of the returns workbench. The handlers fill them with text in
// the request's language (dates, the days left, moves); the templates read
// the rest from the catalog (messages/*/returns.json).

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
	DaysLeft string // "", "12 days left", "overdue 3", in the request's language
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

// typeText is an order type in words: "reklamace", "placená oprava".
func typeText(ctx context.Context, t string) string { return inWords(ctx, "ret.type.", t) }

// statusText is a status at the service in words: "čeká na zboží".
func statusText(ctx context.Context, s string) string { return inWords(ctx, "ret.status.", s) }

// retStateText is our order's state while the service has no answer yet.
func retStateText(ctx context.Context, s string) string { return inWords(ctx, "ret.state.", s) }

// inWords is the catalog's word for a code, the code itself when the
// catalog has none (a status the service added later).
func inWords(ctx context.Context, prefix, code string) string {
	if code != "" && i18n.Has(prefix+code) {
		return i18n.T(ctx, prefix+code)
	}
	return code
}

// describedBy ties a field to its hint and its error.
func describedBy(f Form, name, hint string) string {
	var ids []string
	if hint != "" {
		ids = append(ids, name+"-hint")
	}
	if f.HasError(name) {
		ids = append(ids, errorID(name))
	}
	return strings.Join(ids, " ")
}
