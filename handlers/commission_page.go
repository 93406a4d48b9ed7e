package handlers

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/views"
	"shipdesk/workbench"
)

func commissionPath(id int64) string { return fmt.Sprintf("/returns/commissions/%d", id) }

// CommissionPage shows one commission: status and history, customer and
// product, files, transport, the moves it allows, messages and notes.
// A chosen message template (?template=received&tlang=cs) fills the message
// box, so templates work without script too.
func (h *Handlers) CommissionPage(w http.ResponseWriter, r *http.Request) {
	h.renderCommission(w, r, http.StatusOK, commissionForms{})
}

// commissionForms are the commission page's forms as posted, to show again
// with their problems; empty ones are drawn fresh.
type commissionForms struct {
	Note, Message, Settle, Withdrawal, Extension views.Form
}

func (h *Handlers) renderCommission(w http.ResponseWriter, r *http.Request, status int, forms commissionForms) {
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	d, err := h.Returns.Detail(r.Context(), id)
	if err == nil && r.Method == http.MethodGet {
		d, err = h.refreshedIfDue(r.Context(), d, h.Returns.Detail)
	}
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	ctx := r.Context()
	v := commissionView(ctx, d, h.now())
	if r.Method == http.MethodGet {
		forms.Message = chosenTemplate(ctx, r.URL.Query(), d, forms.Message)
	}
	v.NoteForm, v.MessageForm, v.SettleForm = withKey(forms.Note), withKey(forms.Message), forms.Settle
	v.Templates, v.TemplateLangs = messageTemplates(ctx, d), templateLangs(ctx)
	if v.Withdrawal, err = h.withdrawalView(ctx, id, forms.Withdrawal, h.now()); err != nil {
		h.Fail(w, r, err)
		return
	}
	// Only a withdrawal takes the form; one recorded earlier stays shown.
	v.ShowWithdrawal = d.Type == workbench.Withdrawal || v.Withdrawal.Recorded
	if v.FromClaim, err = h.claimOrigin(r, id); err != nil {
		h.Fail(w, r, err)
		return
	}
	if v.Claim {
		docs, err := h.Returns.Confirmations(ctx, id)
		if err != nil {
			h.Fail(w, r, err)
			return
		}
		v.Documents, v.ExtensionForm = confirmationRows(ctx, id, docs), forms.Extension
	}
	h.render(w, r, status, views.CommissionPage(h.page(w, r, cmp.Or(d.Number, i18n.T(ctx, "ret.commission")), identity.Returns), v))
}

// commissionView is the commission page's model of a commission, its words,
// dates and times in the request's language and the shop's time zone.
func commissionView(ctx context.Context, d workbench.Detail, now time.Time) views.CommissionView {
	v := views.CommissionView{CommissionRow: views.CommissionRow{ID: d.ID, Number: d.Number, Type: d.Type, Status: d.Status, State: d.State,
		Customer: d.Customer.Name, Product: d.Product, Created: i18n.DateTime(ctx, d.CreatedAt)},
		Reference: d.Reference, Email: d.Customer.Email, Phone: d.Customer.Phone, Address: d.Customer.Address(),
		Serial: d.Serial, Purchase: i18n.Day(ctx, d.Purchase), Fault: d.Fault, Error: d.Error.In(ctx), Duplicates: d.Duplicates}
	v.DaysLeft, v.Urgent = daysLeft(ctx, d.DeadlineAt, now)
	v.Claim = d.Type == "warranty" && d.State == storage.StateCreated
	if v.Claim && d.DeadlineAt != nil {
		v.Deadline = i18n.Date(ctx, *d.DeadlineAt)
	}
	commissionAge(ctx, &v.CommissionRow, d.SyncedAt, now)
	v.Settled, v.Resolution, v.ResolutionReason = settledText(ctx, d), d.Resolution, d.ResolutionReason
	for _, code := range workbench.Resolutions {
		v.Resolutions = append(v.Resolutions, views.Option{Value: code, Label: i18n.T(ctx, "ret.res."+code)})
	}
	if d.SettlesAt != nil {
		v.SettlesAt = i18n.Deadline(ctx, *d.SettlesAt)
	}
	if d.SyncedAt != nil {
		v.LastSynced = i18n.DateTime(ctx, *d.SyncedAt)
	}
	for _, a := range d.Unconfirmed {
		v.Unconfirmed = append(v.Unconfirmed, views.ActivityRow{Public: a.Public, Text: a.Text, Created: i18n.DateTime(ctx, a.CreatedAt)})
	}
	for _, f := range d.Files {
		v.Files = append(v.Files, views.KeptFile{ID: f.ID, Name: f.Name, Size: sizeText(ctx, f.Size)})
	}
	settledBy := -1 // the move that settled the claim: the oldest to a settling status
	for i, e := range d.History {
		if d.Resolved() && slices.Contains(workbench.Settling, e.Status) {
			settledBy = i
		}
	}
	for i, e := range d.History {
		row := views.HistoryRow{Status: e.Status, At: serviceTime(ctx, e.At), Note: e.Note}
		if i == settledBy {
			row.Resolution, row.Reason = d.Resolution, d.ResolutionReason
		}
		v.History = append(v.History, row)
	}
	for _, a := range d.Activities {
		v.Activities = append(v.Activities, views.ActivityRow{Public: a.Public, Text: a.Text, Created: serviceTime(ctx, a.Created)})
	}
	for _, t := range d.Transport {
		dir := i18n.T(ctx, "ret.transport.from_customer")
		if t.ToCustomer {
			dir = i18n.T(ctx, "ret.transport.to_customer")
		}
		v.Transport = append(v.Transport, views.TransportRow{Direction: dir, TrackingNumber: t.TrackingNumber,
			Ordered: serviceTime(ctx, t.Ordered), Delivered: serviceTime(ctx, t.Delivered)})
	}
	for _, to := range d.Moves {
		if slices.Contains(workbench.Settling, to) {
			v.Settling = append(v.Settling, moveButton(ctx, d.Type, to))
		} else {
			v.Moves = append(v.Moves, moveButton(ctx, d.Type, to))
		}
	}
	return v
}

// serviceLayout is how the returns service writes a moment, in its own
// (Czech) time: "2026-11-22 14:05:09".
const serviceLayout = "2006-01-02 15:04:05"

// serviceTime writes a moment the service reported as DateTime does; a day
// as Day; anything else as it came.
func serviceTime(ctx context.Context, s string) string {
	if t, err := time.ParseInLocation(serviceLayout, s, i18n.Prague); err == nil {
		return i18n.DateTime(ctx, t)
	}
	return i18n.Day(ctx, s)
}

func moveButton(ctx context.Context, kind, to string) views.MoveButton {
	switch {
	case to == "processing" && kind == workbench.Withdrawal: // the goods came back to stay: nothing is repaired
		return views.MoveButton{To: to, Label: i18n.T(ctx, "ret.move.withdrawal.processing"), Hint: i18n.T(ctx, "ret.move.withdrawal.processing.hint")}
	case to == "processing", to == "outgoing", to == "closed":
		return views.MoveButton{To: to, Label: i18n.T(ctx, "ret.move."+to), Hint: i18n.T(ctx, "ret.move."+to+".hint")}
	case to == "cancelled":
		return views.MoveButton{To: to, Label: i18n.T(ctx, "ret.move.cancelled"), Danger: true}
	}
	return views.MoveButton{To: to, Label: to}
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

// commissionPost reads the commission of a post to one of its page's forms,
// and the form; when either is wrong it has answered already.
func (h *Handlers) commissionPost(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, ok := pathID(r)
	if !ok {
		h.NotFound(w, r)
		return 0, false
	}
	return id, h.postedForm(w, r, maxFormBytes, "", i18n.T(r.Context(), "ret.commission.unreadable"))
}

// AddNote saves an internal note; its own form and endpoint, so a note can
// never leave as a message.
func (h *Handlers) AddNote(w http.ResponseWriter, r *http.Request) {
	id, ok := h.commissionPost(w, r)
	if !ok {
		return
	}
	text, key := r.PostFormValue("note_text"), r.PostFormValue("key")
	_, err := h.Returns.AddNote(r.Context(), id, key, text, h.userID(r))
	h.afterActivity(w, r, id, err, i18n.T(r.Context(), "ret.note.saved"), views.Form{Values: map[string]string{"note_text": text, "key": key}}, true)
}

// SendMessage sends a public message once the agent confirmed it.
func (h *Handlers) SendMessage(w http.ResponseWriter, r *http.Request) {
	id, ok := h.commissionPost(w, r)
	if !ok {
		return
	}
	text, key := r.PostFormValue("message_text"), r.PostFormValue("key")
	form := views.Form{Values: map[string]string{"message_text": text, "key": key}}
	if r.PostFormValue("confirm") != "yes" {
		form.Errors = map[string]string{"confirm": i18n.T(r.Context(), "ret.message.tick")}
		h.renderCommission(w, r, http.StatusUnprocessableEntity, commissionForms{Message: form})
		return
	}
	_, err := h.Returns.SendMessage(r.Context(), id, key, text, h.userID(r))
	h.afterActivity(w, r, id, err, i18n.T(r.Context(), "ret.message.sent"), form, false)
}

func (h *Handlers) afterActivity(w http.ResponseWriter, r *http.Request, id int64, err error, done string, form views.Form, note bool) {
	if err == nil {
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "ok", Text: done})
		redirect(w, r, commissionPath(id))
		return
	}
	if apperr.CodeOf(err) == apperr.Internal {
		h.Fail(w, r, err)
		return
	}
	form.Errors, form.Message = apperr.FieldsOf(r.Context(), err), apperr.MessageOf(r.Context(), err, "")
	if note {
		h.renderCommission(w, r, statusOf(apperr.CodeOf(err)), commissionForms{Note: form})
	} else {
		h.renderCommission(w, r, statusOf(apperr.CodeOf(err)), commissionForms{Message: form})
	}
}

// StornoCommissionDuplicate cancels an extra commission the service holds
// under our reference, once the agent confirmed which.
func (h *Handlers) StornoCommissionDuplicate(w http.ResponseWriter, r *http.Request) {
	id, ok := h.commissionPost(w, r)
	if !ok {
		return
	}
	back := commissionPath(id)
	number := r.PostFormValue("number")
	if !h.confirmed(w, r, back, i18n.T(r.Context(), "ret.dup.tick")) {
		return
	}
	_, err := h.Returns.CancelDuplicate(r.Context(), id, number)
	h.finish(w, r, err, i18n.T(r.Context(), "ret.dup.cancelled", number), back)
}
