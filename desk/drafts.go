package desk

import (
	"context"
	"encoding/json"
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
	return d.db.SaveDraft(ctx, storage.Draft{DraftID: draft.ID, Reference: draft.ReferenceNumber, Recipient: f.To.Name(),
		Warnings: warnings, Defaults: defaults, Modified: draft.Modified, CreatedBy: storage.UserRef(by)})
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Draft is a cart draft as its page shows it.
type Draft struct {
	ID, DraftID int64
	Reference   string
	Recipient   string
	Modified    string
	Created     time.Time
	Warnings    []DraftWarning // what the person completes in the manager
	Defaults    []string       // what the account's defaults filled in
}

// DraftWarning is one of the service's warnings about a draft.
type DraftWarning struct {
	Field, Message string
}

// DraftOf reads a stored draft, with the service's warnings and defaults
// that are kept as it sent them.
func DraftOf(d storage.Draft) Draft {
	out := Draft{ID: d.ID, DraftID: d.DraftID, Reference: d.Reference, Recipient: d.Recipient, Modified: d.Modified, Created: d.CreatedAt}
	var warnings []struct{ Field, Message string }
	_ = json.Unmarshal(d.Warnings, &warnings) // kept by SendDraft: a broken one only loses the list
	for _, w := range warnings {
		out.Warnings = append(out.Warnings, DraftWarning{Field: w.Field, Message: w.Message})
	}
	_ = json.Unmarshal(d.Defaults, &out.Defaults)
	return out
}

// Draft is a draft sent earlier.
func (d *Desk) Draft(ctx context.Context, id int64) (Draft, error) {
	s, err := d.db.DraftByID(ctx, id)
	if err != nil {
		return Draft{}, err
	}
	return DraftOf(s), nil
}
