package views

// The customer's claim pages: plain values the handlers fill from package
// claims, so the views know nothing of it.

// ClaimShell is what every customer page shares: the shop's name, the page's
// own address (for the language switch) and its title.
type ClaimShell struct {
	Title string
	Shop  string
	Path  string
	Demo  bool // sandbox mode: a note that this is a demonstration
	Logo  bool // the shop has a logo (served at /shop/logo)
}

// ClaimAsk is the page that asks for the link: its form, or the neutral
// sentence once it was sent.
type ClaimAsk struct {
	Shell ClaimShell
	Form  Form
	Sent  bool
	// NoEmail says whom an order without an e-mail contacts instead, Limit
	// how many links an order gets an hour: said after every ask alike.
	NoEmail, Limit string
}

// ClaimProblem is a customer page that says why a link opens nothing.
type ClaimProblem struct {
	Shell   ClaimShell
	Message string
	AskNew  bool // offer to ask for a new link
}

// OptionGroup is a group of a select's options.
type OptionGroup struct {
	Label   string
	Options []Option
}

// ClaimFormView is the claim form a link opened.
type ClaimFormView struct {
	Shell      ClaimShell
	Form       Form
	Action     string
	Reference  string
	Sent       string // what was sent: "2 balíky" and to whom
	Address    []string
	Delivered  string // "" while tracking does not know
	WithdrawBy string
	// WithdrawalHint says until when the customer may withdraw.
	WithdrawalHint string
	Late           bool
	Expires        string
	Email          string
	Products       []OptionGroup
	// Items are the products of the shop's order the parcel carried,
	// offered instead of Products (then the kinds the service lists, for an
	// item it has not), and Ordered is the order's day.
	Items     []ClaimItem
	Ordered   string
	Remedies  []Option
	MaxPhotos int
	MaxMB     int
	Points    PointSearchView
	CanCode   bool     // a carrier takes label-free parcels
	Countries []Option // where the customer may live: the countries the shop ships to
}

// ClaimItem is one product of the shop's order, as the claim form offers it.
type ClaimItem struct {
	Value, Name, Line string // Line: its code and price
	Listed            bool   // the service's list has its kind: no kind to choose
}

// AnyUnlisted says an item needs its kind chosen.
func (v ClaimFormView) AnyUnlisted() bool {
	for _, it := range v.Items {
		if !it.Listed {
			return true
		}
	}
	return false
}

// ClaimStatusView is a claim's status page.
type ClaimStatusView struct {
	Shell      ClaimShell
	Number     string
	Reference  string
	Kind       string
	State      string // in words
	StateKey   string
	Steps      []ClaimStep
	Filed      string
	Deadline   string
	Resolution string
	Reason     string
	Code       string
	Label      string // the label's address when there is one
	PointName  string
	HandOverBy string
	WriteOn    string // what to write on the package
	Arrived    string
	HandedIn   string // the return parcel's state at the carrier, in words, once it has it
	Transport  string
	Messages   []ClaimMessageView
	Files      []ClaimFileView
	Documents  []ClaimFileView
	Reply      Form
	ReplyTo    string // "": no reply form (the returns desk's view)
	MaxPhotos  int
	// Held: a step after filing was refused; the page says what happens
	// next (Next) and whom to contact (the shop's name, e-mail, phone).
	Held                           bool
	Next                           string
	ShopName, ShopEmail, ShopPhone string
	// AsStaff says, on the returns desk's view of the claim, whose page it
	// is ("": the customer's own).
	AsStaff string
	// Heading names the page: a claim, or a withdrawal.
	Heading   string
	Purchased string // the purchase's day
	// Refund is a withdrawal's refund in words: how much, where, by when
	// (or when it was paid: RefundPaid).
	Refund     string
	RefundPaid bool
	// Live: the page asks LiveURL for its live part again (ClaimStatusLive)
	// while something may change; "" on the returns desk's view.
	Live    bool
	LiveURL string
}

// ClaimStep is one step of a claim's way, done or not yet.
type ClaimStep struct {
	Label string
	Done  bool
	Now   bool
}

// ClaimMessageView is one message of a claim's conversation.
type ClaimMessageView struct {
	FromShop bool
	Who      string
	At       string
	Text     string
	Files    []ClaimFileView
}

// ClaimFileView is a file to open: its name, address and what it is.
type ClaimFileView struct {
	Name, Href, Note string
}

// CommissionClaim is what the commission page shows of the claim it came
// from: its origin, the customer's replies and files, the return parcel.
type CommissionClaim struct {
	Filed     string
	Kind      string
	Transport string
	Point     string
	Late      bool
	Purchase  string // the original shipment's reference
	Shipment  string // its page
	Parcel    string // the return parcel's page ("" none yet)
	ParcelRef string
	Status    string // the customer's status page (for the agent to send again)
	Replies   []ClaimMessageView
	Files     []ClaimFileView
}
