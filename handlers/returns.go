package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/returns"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/views"
	"shipdesk/workbench"
)

// ReturnsDesk is what the returns pages need.
type ReturnsDesk struct {
	Bench *workbench.Workbench
	DB    *storage.DB
}

// Commissions is the list of service orders, urgent warranty claims first.
func (h *Handlers) Commissions(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	errs := map[string]string{}
	vals := queryValues(q, errs, "status", "type", "from", "to", "customer", "product", "after", "duplicates")
	f := storage.CommissionFilter{Status: vals["status"], Type: vals["type"], Customer: vals["customer"], Product: vals["product"], After: vals["after"],
		Duplicates: vals["duplicates"] == "1"}
	if f.Status != "" && !slices.Contains(returns.States, f.Status) {
		errs["status"], f.Status = "Choose a status from the list.", ""
	}
	if f.Type != "" && !slices.Contains(returns.Types, f.Type) {
		errs["type"], f.Type = "Choose a type from the list.", ""
	}
	f.From, f.To = dateRange(vals, errs)
	v := views.CommissionList{Filter: views.Form{Values: vals, Errors: errs}}
	list, next, err := h.Returns.DB.ListCommissions(r.Context(), f)
	if err != nil {
		if apperr.CodeOf(err) != apperr.Invalid {
			h.Fail(w, r, err)
			return
		}
		v.Error = apperr.MessageOf(err, "")
	}
	all := views.Option{Value: "", Label: "All"}
	v.Statuses, v.Types = []views.Option{all}, []views.Option{all}
	for _, s := range returns.States {
		v.Statuses = append(v.Statuses, views.Option{Value: s, Label: s})
	}
	for _, t := range returns.Types {
		v.Types = append(v.Types, views.Option{Value: t, Label: t})
	}
	now := time.Now()
	for _, c := range list {
		v.Rows = append(v.Rows, commissionRow(c, now))
	}
	_, v.NextURL, v.FirstURL = pageLinks("/returns", vals, next)
	h.render(w, r, http.StatusOK, views.CommissionListPage(h.page(w, r, "Service orders", identity.Returns), v))
}

func commissionRow(c storage.Commission, now time.Time) views.CommissionRow {
	row := views.CommissionRow{ID: c.ID, Number: c.Number, Type: c.Type, Status: c.Status, State: c.State, Customer: c.CustomerName,
		Product: c.ProductLabel, Created: views.FormatTime(c.CreatedAt)}
	if c.DeadlineAt != nil {
		left := workbench.DaysLeft(*c.DeadlineAt, now)
		row.Urgent = left <= 5
		if left < 0 {
			row.DaysLeft = fmt.Sprintf("overdue %d", -left)
		} else {
			row.DaysLeft = strconv.Itoa(left)
		}
	}
	return row
}

// NewCommission shows the create form.
func (h *Handlers) NewCommission(w http.ResponseWriter, r *http.Request) {
	h.renderNewCommission(w, r, http.StatusOK, views.Form{Values: map[string]string{"key": requestkey.New(), "type": "warranty"}}, 0)
}

func (h *Handlers) renderNewCommission(w http.ResponseWriter, r *http.Request, status int, f views.Form, kept int64) {
	ctx := r.Context()
	types, models, err := h.Returns.DB.Products(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if len(types) == 0 { // first use: load the lists now
		if err := h.Returns.Bench.RefreshProducts(ctx); err == nil {
			types, models, _ = h.Returns.DB.Products(ctx)
		}
	}
	v := views.NewCommission{Form: f}
	for _, t := range returns.Types {
		v.Types = append(v.Types, views.Option{Value: t, Label: typeLabel(t)})
	}
	v.Products = append(v.Products, views.Option{Value: "", Label: "Choose…"})
	for _, t := range types {
		v.Products = append(v.Products, views.Option{Value: strconv.FormatInt(t.ID, 10), Label: t.Name})
		g := views.ModelGroup{Type: t.Name}
		for _, m := range models {
			if m.TypeID == t.ID {
				g.Models = append(g.Models, views.Option{Value: strconv.FormatInt(m.ID, 10), Label: workbench.ModelName(m.Brand, m.Name)})
			}
		}
		v.Models = append(v.Models, g)
	}
	if kept != 0 {
		if up, err := h.Returns.DB.KeptUpload(ctx, kept, h.userID(r)); err == nil {
			v.Kept = &views.KeptFile{ID: up.ID, Name: up.Filename, Size: sizeText(up.Size)}
		}
	}
	h.render(w, r, status, views.NewCommissionPage(h.page(w, r, "New commission", identity.Returns), v))
}

func typeLabel(t string) string {
	switch t {
	case "warranty":
		return "Warranty claim (30 days to settle)"
	case "paid_repair":
		return "Paid repair"
	case "withdrawal":
		return "Withdrawal from the purchase"
	}
	return t
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// maxCommissionForm is a proof of purchase and the form's fields.
const maxCommissionForm = workbench.MaxUpload + 1<<20

// CreateCommission uploads the proof (once), then creates the commission; a
// failure re-renders the form with everything typed and the proof kept.
func (h *Handlers) CreateCommission(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	r.Body = http.MaxBytesReader(w, r.Body, maxCommissionForm)
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			h.ErrorStatus(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("The file is larger than %d MiB; nothing was sent. Go back and choose a smaller file.", workbench.MaxUpload>>20))
			return
		}
		if err := r.ParseForm(); err != nil {
			h.ErrorStatus(w, r, http.StatusBadRequest, "The form could not be read: open New commission again.")
			return
		}
	}
	if r.MultipartForm != nil {
		defer r.MultipartForm.RemoveAll()
	}
	f := workbench.ParseForm(r.Form)
	if file, header, err := r.FormFile("proof"); err == nil {
		data, rerr := io.ReadAll(io.LimitReader(file, workbench.MaxUpload+1))
		file.Close()
		if rerr == nil && (len(data) > 0 || header.Filename != "") {
			f.File = &workbench.File{Name: header.Filename, Data: data}
		}
	}
	res, err := h.Returns.Bench.Create(ctx, f, h.userID(r))
	if err == nil {
		redirect(w, r, fmt.Sprintf("/returns/commissions/%d", res.Commission.ID))
		return
	}
	if apperr.CodeOf(err) == apperr.Internal {
		h.Fail(w, r, err)
		return
	}
	vals := map[string]string{}
	for k := range r.Form {
		if k != "upload_id" {
			vals[k], _ = textin.Lines(r.FormValue(k), 5000) // shown again as typed, as far as it can be
		}
	}
	form := views.Form{Values: vals, Errors: apperr.FieldsOf(err), Message: apperr.MessageOf(err, "")}
	if res.UploadID != 0 && form.Errors["proof"] == "" {
		form.Message = strings.TrimSpace(form.Message + " The proof of purchase is kept: it is not needed again.")
	}
	h.renderNewCommission(w, r, statusOf(apperr.CodeOf(err)), form, res.UploadID)
}

// CommissionPage shows one commission: status and history, customer and
// product, files, transport, the moves it allows, messages and notes.
func (h *Handlers) CommissionPage(w http.ResponseWriter, r *http.Request) {
	h.renderCommission(w, r, http.StatusOK, views.Form{}, views.Form{})
}

func (h *Handlers) renderCommission(w http.ResponseWriter, r *http.Request, status int, note, message views.Form) {
	ctx := r.Context()
	id, ok := pathID(r)
	if !ok {
		h.NotFound(w, r)
		return
	}
	c, err := h.Returns.DB.CommissionByID(ctx, id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	files, err := h.Returns.DB.UploadsOf(ctx, id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := views.CommissionView{CommissionRow: commissionRow(c, time.Now()), Reference: c.Reference, Email: c.CustomerEmail, Error: c.Error,
		NoteForm: withKey(note), MessageForm: withKey(message), Duplicates: c.Duplicates}
	if c.SettlesAt != nil {
		v.SettlesAt = views.FormatTime(*c.SettlesAt)
	}
	open, err := h.Returns.DB.OpenActivities(ctx, id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	for _, a := range open {
		v.Unconfirmed = append(v.Unconfirmed, views.ActivityRow{Public: a.Public, Text: a.Text, Created: views.FormatTime(a.CreatedAt)})
	}
	if c.LastSyncedAt != nil {
		v.LastSynced = views.FormatTime(*c.LastSyncedAt)
	}
	for _, f := range files {
		v.Files = append(v.Files, views.KeptFile{ID: f.ID, Name: f.Filename, Size: sizeText(f.Size)})
	}
	var rc returns.Commission
	if len(c.Raw) > 0 && json.Unmarshal(c.Raw, &rc) == nil {
		v.Phone = rc.Customer.Phone
		v.Address = strings.Trim(strings.Join([]string{rc.Customer.Street, strings.TrimSpace(rc.Customer.Zip + " " + rc.Customer.City)}, ", "), ", ")
		v.Serial, v.Purchase, v.Fault = rc.Product.SerialNumber, rc.Product.PurchaseDate, rc.Product.Fault
		for i := len(rc.History) - 1; i >= 0; i-- { // newest first
			e := rc.History[i]
			v.History = append(v.History, views.HistoryRow{Status: e.Status, At: e.At, Note: e.Note})
		}
		for _, a := range rc.Activities {
			v.Activities = append(v.Activities, views.ActivityRow{Public: a.Public && a.Type == "message", Text: a.Text, Created: a.Created})
		}
		for _, t := range rc.Shipments {
			dir := "from the customer"
			if t.Direction == "to_customer" {
				dir = "to the customer"
			}
			v.Transport = append(v.Transport, views.TransportRow{Direction: dir, TrackingNumber: t.TrackingNumber, Ordered: t.Ordered, Delivered: t.Delivered})
		}
	} else {
		var req returns.CreateRequest
		_ = json.Unmarshal(c.Request, &req)
		v.Fault, v.Serial, v.Purchase = req.Product.Fault, req.Product.SerialNumber, req.Product.PurchaseDate
	}
	if c.State == storage.StateCreated {
		for _, to := range workbench.Moves[c.Status] {
			v.Moves = append(v.Moves, moveButton(to))
		}
	}
	h.render(w, r, status, views.CommissionPage(h.page(w, r, orDefault(c.Number, "Commission"), identity.Returns), v))
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func moveButton(to string) views.MoveButton {
	switch to {
	case "processing":
		return views.MoveButton{To: to, Label: "Start processing", Hint: "The goods are here."}
	case "outgoing":
		return views.MoveButton{To: to, Label: "Send back to the customer", Hint: "Orders the shipment to the customer."}
	case "closed":
		return views.MoveButton{To: to, Label: "Close", Hint: "Settled; nothing goes back by carrier."}
	case "cancelled":
		return views.MoveButton{To: to, Label: "Cancel the order", Danger: true}
	}
	return views.MoveButton{To: to, Label: to}
}

// AddNote saves an internal note; its own form and endpoint, so a note can
// never leave as a message.
func (h *Handlers) AddNote(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(r)
	if !ok || !parseForm(w, r) {
		h.NotFound(w, r)
		return
	}
	text, key := r.PostFormValue("note_text"), r.PostFormValue("key")
	_, err := h.Returns.Bench.AddNote(r.Context(), id, key, text, h.userID(r))
	h.afterActivity(w, r, id, err, "Internal note saved.", views.Form{Values: map[string]string{"note_text": text, "key": key}}, true)
}

// SendMessage sends a public message once the agent confirmed it.
func (h *Handlers) SendMessage(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(r)
	if !ok || !parseForm(w, r) {
		h.NotFound(w, r)
		return
	}
	text, key := r.PostFormValue("message_text"), r.PostFormValue("key")
	form := views.Form{Values: map[string]string{"message_text": text, "key": key}}
	if r.PostFormValue("confirm") != "yes" {
		form.Errors = map[string]string{"confirm": "Tick the box to confirm the customer should receive this."}
		h.renderCommission(w, r, http.StatusUnprocessableEntity, views.Form{}, form)
		return
	}
	_, err := h.Returns.Bench.SendMessage(r.Context(), id, key, text, h.userID(r))
	h.afterActivity(w, r, id, err, "Message sent to the customer.", form, false)
}

func (h *Handlers) afterActivity(w http.ResponseWriter, r *http.Request, id int64, err error, done string, form views.Form, note bool) {
	if err == nil {
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "ok", Text: done})
		redirect(w, r, fmt.Sprintf("/returns/commissions/%d", id))
		return
	}
	if apperr.CodeOf(err) == apperr.Internal {
		h.Fail(w, r, err)
		return
	}
	form.Errors, form.Message = apperr.FieldsOf(err), apperr.MessageOf(err, "")
	if note {
		h.renderCommission(w, r, statusOf(apperr.CodeOf(err)), form, views.Form{})
	} else {
		h.renderCommission(w, r, statusOf(apperr.CodeOf(err)), views.Form{}, form)
	}
}

// CommissionAction returns the handler of a button on the commission page.
func (h *Handlers) CommissionAction(act func(wb *workbench.Workbench, r *http.Request, id int64) (storage.Commission, error), done string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, ok := pathID(r)
		if !ok || !parseForm(w, r) {
			h.NotFound(w, r)
			return
		}
		_, err := act(h.Returns.Bench, r, id)
		h.finish(w, r, err, done, fmt.Sprintf("/returns/commissions/%d", id))
	}
}

// ServeUpload serves a proof of purchase with the type its content has: a
// commission's to every returns role, one kept from a failed form only to the
// agent who uploaded it.
func (h *Handlers) ServeUpload(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(r)
	if !ok {
		h.NotFound(w, r)
		return
	}
	up, err := h.Returns.DB.UploadByID(r.Context(), id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if up.CommissionID == nil && (up.CreatedBy == nil || *up.CreatedBy != h.userID(r)) {
		h.NotFound(w, r) // a kept file is its uploader's until a commission takes it
		return
	}
	ctype, _ := workbench.SniffProof(up.Data)
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", "inline; filename*=UTF-8''"+url.PathEscape(up.Filename))
	w.Header().Set("Cache-Control", "private, max-age=300")
	_, _ = w.Write(up.Data)
}

// withKey gives an activity form its request key: a new one for a fresh form,
// the posted one when the form is shown again, so posting it twice sends once.
func withKey(f views.Form) views.Form {
	if f.Value("key") != "" {
		return f
	}
	v := map[string]string{"key": requestkey.New()}
	for k, x := range f.Values {
		if k != "key" {
			v[k] = x
		}
	}
	f.Values = v
	return f
}

// StornoCommissionDuplicate cancels an extra commission the service holds
// under our reference, once the agent confirmed which.
func (h *Handlers) StornoCommissionDuplicate(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(r)
	if !ok || !parseForm(w, r) {
		h.NotFound(w, r)
		return
	}
	back := fmt.Sprintf("/returns/commissions/%d", id)
	number := r.PostFormValue("number")
	if !h.confirmed(w, r, back, "Tick the confirmation to cancel the extra commission.") {
		return
	}
	_, err := h.Returns.Bench.CancelDuplicate(r.Context(), id, number)
	h.finish(w, r, err, fmt.Sprintf("The extra commission %s is cancelled.", number), back)
}
