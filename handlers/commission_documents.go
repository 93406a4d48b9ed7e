package handlers

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/views"
	"shipdesk/workbench"
)

// CommissionConfirmations are the returns desk's written confirmations of a
// claim, kept with the commission.
type CommissionConfirmations interface {
	IssueIntake(ctx context.Context, id, by int64) (storage.Document, error)
	ExtendDeadline(ctx context.Context, id int64, e workbench.Extension, by int64) (storage.Document, error)
	Confirmation(ctx context.Context, commission, doc int64) (name string, pdf []byte, err error)
	Confirmations(ctx context.Context, commission int64) ([]storage.Document, error)
}

func documentPath(commission, doc int64) string {
	return fmt.Sprintf("/returns/commissions/%d/documents/%d.pdf", commission, doc)
}

// CommissionDocument serves a kept confirmation as it was issued, shown in
// the browser (to print or save); one of another commission is not found.
func (h *Handlers) CommissionDocument(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(r)
	number, pdf := strings.CutSuffix(r.PathValue("doc"), ".pdf")
	doc, err := strconv.ParseInt(number, 10, 64)
	if !ok || !pdf || err != nil || doc <= 0 {
		h.NotFound(w, r)
		return
	}
	name, data, err := h.Returns.Confirmation(r.Context(), id, doc)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", disposition("inline", name))
	w.Header().Set("Cache-Control", "private, max-age=300")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	_, _ = w.Write(data)
}

// PrintIntakeConfirmation opens the claim's intake confirmation to print, for
// a claim taken at the counter; one not kept yet (an older claim) is issued now.
func (h *Handlers) PrintIntakeConfirmation(w http.ResponseWriter, r *http.Request) {
	id, ok := h.commissionPost(w, r)
	if !ok {
		return
	}
	doc, err := h.Returns.IssueIntake(r.Context(), id, h.userID(r))
	if err != nil {
		h.finish(w, r, err, "", commissionPath(id))
		return
	}
	redirect(w, r, documentPath(id, doc.ID))
}

// ExtendCommissionDeadline records a longer time agreed with the customer and
// issues the intake confirmation again with it; wrong days show the page
// again with the form as typed.
func (h *Handlers) ExtendCommissionDeadline(w http.ResponseWriter, r *http.Request) {
	id, ok := h.commissionPost(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	e := workbench.Extension{To: r.PostFormValue("extended_to"), AgreedOn: r.PostFormValue("agreed_on")}
	_, err := h.Returns.ExtendDeadline(ctx, id, e, h.userID(r))
	if fields := apperr.FieldsOf(ctx, err); len(fields) > 0 {
		form := views.Form{Values: map[string]string{}, Errors: fields, Message: apperr.MessageOf(ctx, err, "")}
		form.Values["extended_to"], _ = textin.Cut(textin.Safe(e.To, false), 40)
		form.Values["agreed_on"], _ = textin.Cut(textin.Safe(e.AgreedOn, false), 40)
		h.renderCommission(w, r, statusOf(apperr.CodeOf(err)), commissionForms{Extension: form})
		return
	}
	h.finish(w, r, err, i18n.T(ctx, "conf.ext.saved", i18n.Day(ctx, isoOf(e.To))), commissionPath(id))
}

// isoOf is a typed day as ISO, for i18n.Day; as typed when it is none.
func isoOf(s string) string {
	if d, problem := textin.Date(s); problem.IsZero() {
		return d.Format("2006-01-02")
	}
	return s
}

// confirmationRows are a commission's kept confirmations as its page lists them.
func confirmationRows(ctx context.Context, id int64, docs []storage.Document) []views.DocumentRow {
	var out []views.DocumentRow
	for _, d := range docs {
		out = append(out, views.DocumentRow{URL: documentPath(id, d.ID), Name: d.Filename, Label: i18n.T(ctx, "conf.kind."+d.Kind),
			Version: d.Version, Issued: i18n.DateTime(ctx, d.CreatedAt)})
	}
	return out
}
