package views

// Confirm is the step before a destructive action: what will happen, a button
// that does it (a post with confirm=yes) and a way back that changes nothing.
type Confirm struct {
	Heading string   // the question, e.g. "Remove sender Dock B?"
	Text    []string // what follows from it
	Action  string   // where the confirmed form posts
	Hidden  []Option // further fields of the post (Value: name, Label: value)
	Button  string   // the confirming button, e.g. "Remove"
	Keep    string   // the way back, e.g. "Keep the sender"
	Back    string   // the page the way back leads to
}

// DraftRow is a cart draft in the list of drafts sent.
type DraftRow struct {
	ID, DraftID int64
	Sent        string // when, in the request's language
	SentAt      string // when, machine-readable
	By          string // who sent it ("" when the account is gone)
	Reference   string
	Recipient   string
	Warnings    int // what is still to complete in the manager
}

// DraftList is the list of drafts sent, a page at a time.
type DraftList struct {
	Rows     []DraftRow
	NextURL  string // older drafts; "" on the last page
	FirstURL string // the newest; "" on the first page
}
