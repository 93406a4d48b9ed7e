package handlers

import (
	"context"
	"net/http"
	"slices"
	"time"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/views"
	"shipdesk/workbench"
)

// ReturnsBench is the returns desk (workbench.Workbench): every write of the
// returns pages goes through it.
type ReturnsBench interface {
	Products(ctx context.Context) ([]workbench.ProductType, error)
	Create(ctx context.Context, f workbench.Form, by int64) (workbench.Result, error)
	Detail(ctx context.Context, id int64) (workbench.Detail, error)
	LiveDetail(ctx context.Context, id int64) (workbench.Detail, error) // what the page's live part shows, in one statement
	AddNote(ctx context.Context, id int64, key, text string, by int64) (storage.Commission, error)
	SendMessage(ctx context.Context, id int64, key, text string, by int64) (storage.Commission, error)
	CancelDuplicate(ctx context.Context, id int64, number string) (storage.Commission, error)
	// RefreshDue reads a commission its page shows from the service when it
	// is due, as its poller would (live.go).
	RefreshDue(ctx context.Context, id int64, now time.Time) (bool, error)
	CommissionSteps
	RefundDesk
	CommissionConfirmations
}

// CommissionSteps are the buttons of the commission page (actions.go).
type CommissionSteps interface {
	Move(ctx context.Context, id int64, to string, res workbench.Resolution, by int64) (storage.Commission, error)
	Refresh(ctx context.Context, id int64) (storage.Commission, error)
	Reconcile(ctx context.Context, id int64) (storage.Commission, error)
	CreateAgain(ctx context.Context, id int64) (storage.Commission, error)
}

// ReturnsStore is what the returns pages read straight from storage
// (storage.DB).
type ReturnsStore interface {
	ListCommissions(ctx context.Context, f storage.CommissionFilter) ([]storage.Commission, string, error)
	KeptUpload(ctx context.Context, id, by int64) (storage.Upload, error)
	UploadByID(ctx context.Context, id int64) (storage.Upload, error)
	ScanCommissions(ctx context.Context, code string, limit int) ([]storage.Commission, error)
	ReturnsReport(ctx context.Context, from, to time.Time, periodDays int) (storage.ReturnsReport, error)
	WithdrawalByID(ctx context.Context, id int64) (storage.Withdrawal, error)
}

// Commissions is the list of service orders, urgent warranty claims first.
func (h *Handlers) Commissions(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	errs := map[string]string{}
	vals := queryValues(ctx, q, errs, "status", "type", "from", "to", "customer", "product", "after", "duplicates")
	f := storage.CommissionFilter{Status: vals["status"], Type: vals["type"], Customer: vals["customer"], Product: vals["product"], After: vals["after"],
		Duplicates: vals["duplicates"] == "1"}
	if f.Status != "" && !slices.Contains(workbench.States, f.Status) {
		errs["status"], f.Status = i18n.T(ctx, "ret.err.status"), ""
	}
	if f.Type != "" && !slices.Contains(workbench.Types, f.Type) {
		errs["type"], f.Type = i18n.T(ctx, "ret.err.type"), ""
	}
	f.From, f.To = dateRange(vals, errs)
	v := views.CommissionList{Filter: views.Form{Values: vals, Errors: errs}}
	list, next, err := h.ReturnsStore.ListCommissions(ctx, f)
	if err != nil {
		if apperr.CodeOf(err) != apperr.Invalid {
			h.Fail(w, r, err)
			return
		}
		v.Error = apperr.MessageOf(ctx, err, "")
	}
	all := views.Option{Value: "", Label: i18n.T(ctx, "ret.all")}
	v.Statuses, v.Types = []views.Option{all}, []views.Option{all}
	for _, s := range workbench.States {
		v.Statuses = append(v.Statuses, views.Option{Value: s, Label: i18n.T(ctx, "ret.status."+s)})
	}
	for _, t := range workbench.Types {
		v.Types = append(v.Types, views.Option{Value: t, Label: i18n.T(ctx, "ret.type."+t)})
	}
	v.Rows = commissionRows(ctx, list, h.now())
	v.LiveURL = liveURL(r)
	_, v.NextURL, v.FirstURL = pageLinks("/returns", vals, next)
	h.render(w, r, http.StatusOK, views.CommissionListPage(h.page(w, r, i18n.T(ctx, "ret.title"), identity.Returns), v))
}

// commissionRows are commissions as the lists show them: the days a claim has
// left counted on now (the service's clock), or in how many it was settled.
func commissionRows(ctx context.Context, list []storage.Commission, now time.Time) []views.CommissionRow {
	rows := make([]views.CommissionRow, 0, len(list))
	for _, c := range list {
		d := workbench.DetailOf(c)
		row := views.CommissionRow{ID: c.ID, Number: c.Number, Type: c.Type, Status: c.Status, State: c.State, Customer: c.CustomerName,
			Product: c.ProductLabel, Created: i18n.DateTime(ctx, c.CreatedAt), Resolution: d.Resolution}
		row.DaysLeft, row.Urgent = daysLeft(ctx, d.DeadlineAt, now)
		row.Settled = settledText(ctx, d)
		commissionAge(ctx, &row, c.LastSyncedAt, now)
		rows = append(rows, row)
	}
	return rows
}

// settledText says in how many days a warranty claim was settled ("vyřízeno
// za 3 dny", "settled in 3 days"); "" while it runs or for other orders.
func settledText(ctx context.Context, d workbench.Detail) string {
	if d.Type != "warranty" || !d.Resolved() || d.SettledDays == nil {
		return ""
	}
	if *d.SettledDays <= 0 {
		return i18n.T(ctx, "ret.settled_today")
	}
	return i18n.N(ctx, "ret.settled_in", *d.SettledDays)
}

// daysLeft says how many days a running warranty period has ("zbývají 3 dny",
// "3 days left"; "overdue 3" past it, "" when none runs); urgent is 5 days or
// fewer.
func daysLeft(ctx context.Context, deadline *time.Time, now time.Time) (text string, urgent bool) {
	if deadline == nil {
		return "", false
	}
	left := workbench.DaysLeft(*deadline, now)
	if left < 0 {
		return i18n.N(ctx, "ret.overdue", -left), true
	}
	return i18n.N(ctx, "ret.days", left), left <= 5
}

// sizeText is a file's size with the language's decimal mark: "1,5 MiB".
func sizeText(ctx context.Context, n int64) string {
	switch {
	case n >= 1<<20:
		return i18n.Number(ctx, float64(n)/(1<<20), 1) + " MiB"
	case n >= 1<<10:
		return i18n.Number(ctx, float64(n)/(1<<10), 0) + " KiB"
	}
	return i18n.N(ctx, "ret.bytes", int(n))
}

// ServeUpload serves a proof of purchase with the type its content has: a
// commission's to every returns role, one kept from a failed form only to the
// agent who uploaded it.
func (h *Handlers) ServeUpload(w http.ResponseWriter, r *http.Request) {
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	up, err := h.ReturnsStore.UploadByID(r.Context(), id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if up.CommissionID == nil && (up.CreatedBy == nil || *up.CreatedBy != h.userID(r)) {
		h.NotFound(w, r) // a kept file is its uploader's until a commission takes it
		return
	}
	w.Header().Set("Cache-Control", "private, max-age=300")
	sendUpload(w, up)
}
