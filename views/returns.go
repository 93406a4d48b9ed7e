package views

import (
	"context"
	"strings"

	"github.com/a-h/templ"

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
	// Resolution is how the claim ended ("" while it runs); Settled says in
	// how many days ("settled in 3 days"), instead of DaysLeft.
	Resolution string
	Settled    string
	Age        string // how long ago it was read from the service (Age)
	CheckedAt  string // when, in full
	Changing   bool   // it may still change by itself: its pages ask again
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
	LiveURL  string // this page of the list, where its rows ask again
}

// NewCommission is the create form.
type NewCommission struct {
	Form     Form
	Types    []Option
	Products []Option     // product types
	Models   []ModelGroup // models grouped by type, for a picker that works without script
	Kept     *KeptFile    // a proof kept from an earlier attempt
	// Remedies the customer may ask for, and the languages of the written
	// confirmations.
	Remedies, Languages []Option
}

// ModelGroup is the models of one product type.
type ModelGroup struct {
	TypeID string
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
	// Settling are the moves that end the claim, posted with a resolution
	// (SettleForm: its code and reason) chosen from Resolutions.
	Settling    []MoveButton
	SettleForm  Form
	Resolutions []Option
	// Why the claim ended as it did (Resolution), once it did.
	ResolutionReason string
	// Message templates for the message form; TemplateLangs are the
	// languages the customer may read.
	Templates     []MessageTemplate
	TemplateLangs []Option
	// FromClaim is the claim the customer filed on the claim page (nil: an
	// agent typed the commission in).
	FromClaim *CommissionClaim
	// Withdrawal is the customer's withdrawal from the purchase, or its form;
	// ShowWithdrawal says the page has it (a withdrawal commission's).
	Withdrawal     WithdrawalView
	ShowWithdrawal bool
	// Claim: a warranty claim the service has, which takes written
	// confirmations (Documents); Deadline is its running deadline ("" when
	// none runs), which ExtensionForm extends.
	Claim         bool
	Documents     []DocumentRow
	Deadline      string
	ExtensionForm Form
}

// DocumentRow is a kept written confirmation.
type DocumentRow struct {
	URL, Name, Label, Issued string
	Version                  int
}

// HistoryRow is one state change; the move that settled the claim carries
// its resolution and reason.
type HistoryRow struct {
	Status, At, Note   string
	Resolution, Reason string
}

// MessageTemplate is a common answer, filled in for this commission in each
// language (Texts by language code).
type MessageTemplate struct {
	Name, Label string
	Texts       map[string]string
}

// CommissionScan is what a scan found: several commissions, or none (Error).
type CommissionScan struct {
	Code  string
	Rows  []CommissionRow
	Error string
}

// ReturnsReport is the returns desk's section of the Reports page.
type ReturnsReport struct {
	Resolved      int
	PerResolution []Bar
	AvgDays       string // warranty claims: days from lodging to the resolution
	WithinPeriod  int    // warranty claims settled within their 30 days
	Late          int
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

// resolutionText is how a claim ended in words: "opraveno", "zamítnuto".
func resolutionText(ctx context.Context, r string) string { return inWords(ctx, "ret.res.", r) }

// templateData carries a template's text in each language for the script
// that fills the message box (data-text-cs, data-text-en).
func templateData(t MessageTemplate) templ.Attributes {
	a := templ.Attributes{}
	for lang, text := range t.Texts {
		a["data-text-"+lang] = text
	}
	return a
}

// modelTrigger asks for the chosen type's models when the type changes, and
// at once when the form comes back with a type chosen.
func modelTrigger(f Form) string {
	if f.Value("type_id") != "" {
		return "change, load"
	}
	return "change"
}

// retStateText is our order's state while the service has no answer yet.
func retStateText(ctx context.Context, s string) string {
	if s == "unknown" {
		return T(ctx, Uncertain)
	}
	return inWords(ctx, "ret.state.", s)
}

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
