package handlers

import (
	"context"
	"net/http"

	"shipdesk/i18n"
	"shipdesk/identity"
)

// AttentionSummary downloads the managers' daily summary of the queue: every
// open item and those dismissed today with their reasons, as CSV in the
// reader's language or as XLSX (format "csv" or "xlsx", from the route).
func (h *Handlers) AttentionSummary(format string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		t, name, err := h.attentionSummary(ctx, identity.From(ctx))
		if err != nil {
			h.Fail(w, r, err)
			return
		}
		if format == "xlsx" {
			h.writeXLSX(w, r, name+".xlsx", t)
			return
		}
		writeCSVTable(ctx, w, name+".csv", t)
	}
}

// AttentionSummaryXLSX is the same summary as a spreadsheet, for the daily
// mail to a manager (st) in the context's language; items counts its rows.
func (h *Handlers) AttentionSummaryXLSX(ctx context.Context, st *identity.Staff) (name string, data []byte, items int, err error) {
	t, name, err := h.attentionSummary(ctx, st)
	if err != nil {
		return "", nil, 0, err
	}
	data, err = xlsxOf(ctx, t)
	return name + ".xlsx", data, len(t.rows), err
}

func (h *Handlers) attentionSummary(ctx context.Context, st *identity.Staff) (figTable, string, error) {
	items, err := h.Queue.Summary(ctx, st)
	if err != nil {
		return figTable{}, "", err
	}
	now := h.Queue.Now()
	t := figTable{title: i18n.T(ctx, "attn.title")}
	for _, k := range []string{"kind", "record", "why", "step", "since", "taken", "note", "dismissed", "dismiss_text", "dismissed_by"} {
		t.header = append(t.header, i18n.T(ctx, "attn.csv."+k))
	}
	names := h.carrierNames(ctx)
	for _, it := range items {
		row := attentionRow(ctx, it, now, st, names)
		t.rows = append(t.rows, []any{row.KindText, row.RecordText, row.Why, row.StepText, i18n.DateTime(ctx, row.Since),
			row.TakenBy, row.LastNote, row.Dismissed, row.DismissText, row.DismissedBy})
	}
	return t, "attention-" + now.Format("20060102"), nil
}
