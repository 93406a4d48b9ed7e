package views

// View models of withdrawals and their refunds. The handlers fill them with
// text in the request's language (sums, accounts, days); the templates read
// the rest from the catalog (messages/*/refunds.json).

// WithdrawalView is the commission page's withdrawal section: the recorded
// withdrawal, or the form to record one.
type WithdrawalView struct {
	Recorded   bool
	ID         int64
	Amount     string // "1 250 Kč"
	Account    string // formatted for reading
	Received   string
	Delivered  string // "" when not known
	Late       string // "podáno pozdě (20 dní po doručení)"; "" when in time or not known
	Due        string
	DaysLeft   string // "za 3 dny", "po splatnosti 2 dny"
	Overdue    bool
	Soon       bool   // due within 3 days
	Paid       string // "vyplaceno 26. 11. 2026 10:20, jana"; "" while open
	Note       string
	Form       Form
	Currencies []Option
	Manager    bool // may open the list of refunds and mark it paid there
}

// RefundRow is one refund in the managers' list.
type RefundRow struct {
	ID           int64
	CommissionID int64
	Commission   string
	Customer     string
	Amount       string
	Account      string
	Received     string
	Late         string
	Due          string
	DaysLeft     string
	Overdue      bool
	Soon         bool // due within 3 days
	Paid         string
}

// RefundList is the managers' list of refunds: open ones (overdue first) or
// paid ones.
type RefundList struct {
	Show string // "open" or "paid"
	Rows []RefundRow
}

func (v RefundList) filter() Form { return Form{Values: map[string]string{"show": v.Show}} }

// csvURL is the list's download with its filter.
func (v RefundList) csvURL() string {
	return QueryURL("/returns/refunds.csv", map[string]string{"show": v.Show})
}

func refundURL(id int64) string { return "/returns/refunds/" + idStr(id) }

// refundBadge is the class of a refund's days left: overdue, due soon, or calm.
func refundBadge(overdue, soon bool) string {
	switch {
	case overdue:
		return "badge badge-bad"
	case soon:
		return "badge badge-warn"
	}
	return "badge badge-info"
}
