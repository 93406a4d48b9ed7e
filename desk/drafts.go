package desk

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/cart"
	"shipdesk/client/shipping"
	"shipdesk/storage"
	"shipdesk/textin"
)

// SendDraft creates a cart draft from the form for a person to review in the
// provider's manager. Omitted sender, packages and service take the account's
// defaults, which the draft reports.
func (d *Desk) SendDraft(ctx context.Context, f Form, by int64) (storage.Draft, error) {
	from, err := d.sender(ctx, f)
	if err != nil {
		return storage.Draft{}, err
	}
	p := apperr.Problems{}
	if f.To.Surname == "" && f.To.Company == "" {
		p.Add("to_surname", "ship.err.recipient_name")
	}
	if f.To.Country == "" {
		p.Add("to_country", "ship.err.recipient_country")
	}
	if err := invalid(p); err != nil {
		return storage.Draft{}, err
	}
	req := cart.Request{To: f.To.wire(), ServiceID: f.Offer.ServiceID, ReferenceNumber: f.Reference}
	if f.SenderID != 0 {
		sh := d.shipment(f, from)
		req.From = &sh.From
	}
	for _, k := range f.Packages {
		req.Packages = append(req.Packages, cart.Package{Weight: k.Weight, Width: k.Width, Height: k.Height, Length: k.Length})
	}
	if f.Handover == HandoverPoint {
		req.PickupBranch = f.PickupBranch
		if req.PickupBranch == "" {
			req.PickupBranch = shipping.AnyBranch
		}
	}
	draft, err := d.cart.Create(ctx, req)
	if err != nil {
		return storage.Draft{}, UpstreamError("ship.doing.draft", err)
	}
	textin.FromService(draft)
	warnings, _ := json.Marshal(orEmpty(draft.Warnings))
	defaults, _ := json.Marshal(orEmpty(draft.Defaults))
	filled, _ := json.Marshal(orEmpty(FilledIn(req, *draft)))
	return d.db.SaveDraft(ctx, storage.Draft{DraftID: draft.ID, Reference: draft.ReferenceNumber, Recipient: f.To.Name(),
		Warnings: warnings, Defaults: defaults, Filled: filled, Modified: draft.Modified, CreatedBy: storage.UserRef(by)})
}

// Filled is one thing the service filled in on a draft that the clerk did not
// give, with what it put there as it answered (zero values: it did not say).
type Filled struct {
	Field     string         `json:"field"` // DraftFrom, DraftPackages, DraftService, DraftPickupBranch
	From      string         `json:"from,omitempty"`
	Packages  []cart.Package `json:"packages,omitempty"`
	ServiceID int            `json:"service_id,omitempty"`
	Branch    string         `json:"branch,omitempty"`
}

// The fields of a draft the service may fill from the account's defaults.
const (
	DraftFrom         = "from"
	DraftPackages     = "packages"
	DraftService      = "serviceId"
	DraftPickupBranch = "pickupBranch"
)

// FilledIn compares what was sent with what the service answered: a field
// the request left out (or, for the pickup point, asked "any" for) that the
// answer has, or that the answer lists among its defaults, was filled in by
// the service.
func FilledIn(sent cart.Request, got cart.Draft) []Filled {
	listed := map[string]bool{}
	for _, f := range got.Defaults {
		listed[f] = true
	}
	var out []Filled
	if from := addressLine(got.From); sent.From == nil && (from != "" || listed[DraftFrom]) {
		out = append(out, Filled{Field: DraftFrom, From: from})
	}
	if len(sent.Packages) == 0 && (len(got.Packages) > 0 || listed[DraftPackages]) {
		out = append(out, Filled{Field: DraftPackages, Packages: got.Packages})
	}
	if sent.ServiceID == 0 && (got.ServiceID != 0 || listed[DraftService]) {
		out = append(out, Filled{Field: DraftService, ServiceID: got.ServiceID})
	}
	anyBranch := sent.PickupBranch == shipping.AnyBranch
	if anyBranch && ((got.PickupBranch != "" && got.PickupBranch != shipping.AnyBranch) || listed[DraftPickupBranch]) {
		b := got.PickupBranch
		if b == shipping.AnyBranch {
			b = ""
		}
		out = append(out, Filled{Field: DraftPickupBranch, Branch: b})
	}
	return out
}

// addressLine is an address on one line: who, street, postcode and town.
func addressLine(a shipping.Address) string {
	who := strings.TrimSpace(a.Company)
	if who == "" {
		who = strings.TrimSpace(a.Firstname + " " + a.Surname)
	}
	var parts []string
	for _, p := range []string{who, a.Street, strings.TrimSpace(a.Zip + " " + a.City)} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Draft is a cart draft as its page shows it.
type Draft struct {
	ID, DraftID  int64
	Reference    string
	Recipient    string
	Modified     string
	Created      time.Time
	Warnings     []DraftWarning // what the person completes in the manager
	Defaults     []string       // what the account's defaults filled in
	Filled       []Filled       // the same, with what the service put there (drafts sent since it is kept)
	SentBy       string         // who sent it (lists only)
	WarningCount int
}

// DraftWarning is one of the service's warnings about a draft.
type DraftWarning struct {
	Field, Message string
}

// DraftOf reads a stored draft, with the service's warnings and defaults
// that are kept as it sent them.
func DraftOf(d storage.Draft) Draft {
	out := Draft{ID: d.ID, DraftID: d.DraftID, Reference: d.Reference, Recipient: d.Recipient, Modified: d.Modified, Created: d.CreatedAt,
		SentBy: d.SentBy, WarningCount: d.WarningCount}
	var warnings []struct{ Field, Message string }
	_ = json.Unmarshal(d.Warnings, &warnings) // kept by SendDraft: a broken one only loses the list
	for _, w := range warnings {
		out.Warnings = append(out.Warnings, DraftWarning{Field: w.Field, Message: w.Message})
	}
	_ = json.Unmarshal(d.Defaults, &out.Defaults)
	_ = json.Unmarshal(d.Filled, &out.Filled)
	return out
}

// Drafts lists the drafts sent, newest first; before pages back.
func (d *Desk) Drafts(ctx context.Context, before int64, limit int) ([]Draft, error) {
	list, err := d.db.Drafts(ctx, before, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Draft, 0, len(list))
	for _, x := range list {
		out = append(out, DraftOf(x))
	}
	return out, nil
}

// Draft is a draft sent earlier.
func (d *Desk) Draft(ctx context.Context, id int64) (Draft, error) {
	s, err := d.db.DraftByID(ctx, id)
	if err != nil {
		return Draft{}, err
	}
	return DraftOf(s), nil
}
