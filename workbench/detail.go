package workbench

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/returns"
	"shipdesk/storage"
)

// Customer is the person a commission is for: the messages go to Email, the
// carrier collects at the address.
type Customer struct {
	Name, Email, Phone string
	Street, City, Zip  string
	Country            string
}

// Address is the street, postal code and town on one line ("" when unknown).
func (c Customer) Address() string {
	return strings.Trim(strings.Join([]string{c.Street, strings.TrimSpace(c.Zip + " " + c.City)}, ", "), ", ")
}

// wire is the customer as the returns API takes it.
func (c Customer) wire() returns.Customer {
	return returns.Customer{Name: c.Name, Email: c.Email, Phone: c.Phone, Street: c.Street, City: c.City, Zip: c.Zip, Country: c.Country}
}

// Change is one status change in a commission's history.
type Change struct {
	Status, At, Note string
}

// Activity is a message to the customer (Public) or an internal note, as the
// service holds it.
type Activity struct {
	Public  bool
	Text    string
	Created string // as the service reports it
}

// PendingActivity is a note or message sent whose outcome the service has not
// confirmed yet; it is never sent twice.
type PendingActivity struct {
	Public    bool
	Text      string
	CreatedAt time.Time
}

// Transport is a shipment to or from the customer that the service ordered.
type Transport struct {
	ToCustomer                         bool // else from the customer to the service
	TrackingNumber, Ordered, Delivered string
}

// FileInfo is a kept proof of purchase, without its bytes.
type FileInfo struct {
	ID   int64
	Name string
	Size int64
}

// Detail is one commission as the desk shows it: our record, what the service
// reported last, and what the agent may do with it now.
type Detail struct {
	ID         int64
	Number     string
	Reference  string
	Type       string
	Status     string // at the service; "" before it has the commission
	State      string // of our order: storage.StateCreated, StateUnknown, …
	Customer   Customer
	Product    string // "Brand Model (type)"
	Serial     string
	Purchase   string // YYYY-MM-DD
	Fault      string
	Error      apperr.Text // why an order is unknown or missing
	CreatedAt  time.Time
	DeadlineAt *time.Time // a running warranty period's end
	SettlesAt  *time.Time // when every create attempt has settled at the service
	SyncedAt   *time.Time // last read from the service
	NextSync   *time.Time // when it is read from the service next (nil: at once)
	Duplicates []string   // numbers of extra commissions under our reference
	History    []Change   // newest first
	Activities []Activity
	Transport  []Transport
	Moves      []string // what the agent may ask for now (see Moves)
	Files      []FileInfo
	// Unconfirmed are notes and messages sent whose outcome is open.
	Unconfirmed []PendingActivity
	// Resolution is how the claim ended, once it is sent back or closed; its
	// reason, and in how many days it was settled (on the service's clock).
	Resolution       string
	ResolutionReason string
	SettledDays      *int
}

// Resolved says whether the claim is settled with a recorded resolution.
func (d Detail) Resolved() bool { return d.Resolution != "" }

// SyncDue says whether the commission is due a read from the service at now,
// as storage's LeaseCommissionIfDue would lease it: open at the service and
// its next read (after failures, their backoff) come. A page asks
// RefreshDue only then, so a page showing a commission that is not due
// costs no lease.
func (d Detail) SyncDue(now time.Time) bool {
	return d.State == storage.StateCreated && d.Status != "closed" && d.Status != "cancelled" &&
		(d.NextSync == nil || !d.NextSync.After(now))
}

// DetailOf is a stored commission as the desk shows it: the service's last
// answer where there is one, else the request we sent. It reads nothing else
// (Files and Unconfirmed stay empty; Workbench.Detail fills them).
func DetailOf(c storage.Commission) Detail {
	d := Detail{ID: c.ID, Number: c.Number, Reference: c.Reference, Type: c.Type, Status: c.Status, State: c.State,
		Customer: Customer{Name: c.CustomerName, Email: c.CustomerEmail}, Product: c.ProductLabel, Error: c.Error,
		CreatedAt: c.CreatedAt, DeadlineAt: c.DeadlineAt, SettlesAt: c.SettlesAt, SyncedAt: c.LastSyncedAt, NextSync: c.NextSyncAt, Duplicates: c.Duplicates}
	var rc returns.Commission
	if len(c.Raw) > 0 && json.Unmarshal(c.Raw, &rc) == nil {
		d.Customer.Phone, d.Customer.Street, d.Customer.City, d.Customer.Zip, d.Customer.Country =
			rc.Customer.Phone, rc.Customer.Street, rc.Customer.City, rc.Customer.Zip, rc.Customer.Country
		d.Serial, d.Purchase, d.Fault = rc.Product.SerialNumber, rc.Product.PurchaseDate, rc.Product.Fault
		for i := len(rc.History) - 1; i >= 0; i-- { // newest first
			e := rc.History[i]
			d.History = append(d.History, Change{Status: e.Status, At: e.At, Note: e.Note})
		}
		for _, a := range rc.Activities {
			d.Activities = append(d.Activities, Activity{Public: a.Public && a.Type == "message", Text: a.Text, Created: a.Created})
		}
		for _, t := range rc.Shipments {
			d.Transport = append(d.Transport, Transport{ToCustomer: t.Direction == "to_customer", TrackingNumber: t.TrackingNumber,
				Ordered: t.Ordered, Delivered: t.Delivered})
		}
	} else {
		var req returns.CreateRequest
		_ = json.Unmarshal(c.Request, &req)
		d.Serial, d.Purchase, d.Fault = req.Product.SerialNumber, req.Product.PurchaseDate, req.Product.Fault
	}
	if c.State == storage.StateCreated {
		d.Moves = MovesOf(c.Type, c.Status)
	}
	if c.Resolution != "" && slices.Contains(Settling, c.Status) {
		// Recorded before its move: shown once the service has made it.
		d.Resolution, d.ResolutionReason, d.SettledDays = c.Resolution, c.ResolutionReason, c.SettledDays
	}
	return d
}

// LiveDetail reads one commission with its files, in one statement: what its
// page's live part shows (Unconfirmed stays empty).
func (w *Workbench) LiveDetail(ctx context.Context, id int64) (Detail, error) {
	c, files, err := w.db.CommissionLive(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	d := DetailOf(c)
	for _, f := range files {
		d.Files = append(d.Files, FileInfo{ID: f.ID, Name: f.Filename, Size: f.Size})
	}
	return d, nil
}

// Detail reads one commission with its files and the notes and messages whose
// outcome is open.
func (w *Workbench) Detail(ctx context.Context, id int64) (Detail, error) {
	d, err := w.LiveDetail(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	open, err := w.db.OpenActivities(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	for _, a := range open {
		d.Unconfirmed = append(d.Unconfirmed, PendingActivity{Public: a.Public, Text: a.Text, CreatedAt: a.CreatedAt})
	}
	return d, nil
}

// Refresh reads a commission again from the service and stores it.
func (w *Workbench) Refresh(ctx context.Context, id int64) (storage.Commission, error) {
	c, err := w.db.CommissionByID(ctx, id)
	if err != nil || c.RemoteID == nil {
		return c, err
	}
	full, err := w.api.Get(ctx, *c.RemoteID)
	if err != nil {
		return c, mapError("ret.doing.refresh", err)
	}
	if err := w.record(ctx, id, full); err != nil {
		return c, err
	}
	return w.db.CommissionByID(ctx, id)
}
