package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/printout"
	"shipdesk/storage"
	"shipdesk/views"
)

// The shipments list's selection: the rows ticked on its page, or every
// shipment of its filter (scope=filter, the filter sent as the list's own
// query and read again here). Labels, storno and protocols take at most
// bulkLimit shipments; the export takes a filter of any size.

// bulkLimit is the most shipments one action on a selection takes.
const bulkLimit = desk.MaxPrint

// selection is what the list's form sent.
type selection struct {
	ids    []int64            // the ticked rows, in the page's order
	whole  bool               // every shipment of the filter
	filter storage.ListFilter // the list's filter
	vals   map[string]string  // the list's query as sent (for the way back)
	back   string             // the list the selection came from
}

// errTooMany stops reading a filter past the limit.
var errTooMany = errors.New("too many shipments")

// readSelection reads the list's form: the filter it was drawn with and the
// selection. What cannot be read is answered here, and ok is false.
func (h *Handlers) readSelection(w http.ResponseWriter, r *http.Request) (selection, bool) {
	if !h.readForm(w, r) {
		return selection{}, false
	}
	ctx := r.Context()
	f, vals, errs := parseListQuery(ctx, r.PostForm)
	sel := selection{filter: f, vals: vals, back: "/tracking"}
	if len(errs) > 0 {
		h.bulkProblem(w, r, http.StatusUnprocessableEntity, sel, i18n.T(ctx, "bulk.err.filter"))
		return sel, false
	}
	sel.back = views.QueryURL("/tracking", vals)
	switch scope := r.PostForm["scope"]; {
	case len(scope) == 0:
	case len(scope) == 1 && scope[0] == "filter":
		sel.whole = true
		return sel, true
	default:
		h.bulkProblem(w, r, http.StatusUnprocessableEntity, sel, i18n.T(ctx, "bulk.err.scope"))
		return sel, false
	}
	values := r.PostForm["ids"]
	problem := ""
	switch {
	case len(values) > bulkLimit:
		problem = i18n.T(ctx, "bulk.err.too_many", bulkLimit)
	case len(values) == 0:
		problem = i18n.T(ctx, "bulk.err.none")
	}
	for _, v := range values {
		if problem != "" {
			break
		}
		id, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || id <= 0 {
			problem = i18n.T(ctx, "bulk.err.ids")
			break
		}
		if !slices.Contains(sel.ids, id) {
			sel.ids = append(sel.ids, id)
		}
	}
	if problem != "" {
		h.bulkProblem(w, r, http.StatusUnprocessableEntity, sel, problem)
		return sel, false
	}
	return sel, true
}

// selectedShipments reads a selection from the request and its shipments;
// when either cannot be had the answer is written.
func (h *Handlers) selectedShipments(w http.ResponseWriter, r *http.Request) (sel selection, list []storage.Shipment, missing int, ok bool) {
	if sel, ok = h.readSelection(w, r); !ok {
		return sel, nil, 0, false
	}
	list, missing, ok = h.selected(w, r, sel)
	return sel, list, missing, ok
}

// selected loads the shipments of a selection, at most bulkLimit of them, in
// the list's order; missing counts the ticked ids that name no shipment.
// Too large a filter is answered here, and ok is false.
func (h *Handlers) selected(w http.ResponseWriter, r *http.Request, sel selection) (list []storage.Shipment, missing int, ok bool) {
	ctx := r.Context()
	if sel.whole {
		err := h.ShipReads.EachShipment(ctx, sel.filter, func(s storage.Shipment) error {
			if len(list) == bulkLimit {
				return errTooMany
			}
			list = append(list, s)
			return nil
		})
		if errors.Is(err, errTooMany) {
			h.bulkProblem(w, r, http.StatusUnprocessableEntity, sel, i18n.T(ctx, "bulk.err.filter_too_many", bulkLimit))
			return nil, 0, false
		}
		if err != nil {
			h.Fail(w, r, err)
			return nil, 0, false
		}
		return list, 0, true
	}
	found, err := h.ShipReads.ShipmentsByID(ctx, sel.ids)
	if err != nil {
		h.Fail(w, r, err)
		return nil, 0, false
	}
	order := map[int64]int{}
	for i, id := range sel.ids {
		order[id] = i
	}
	slices.SortFunc(found, func(a, b storage.Shipment) int { return order[a.ID] - order[b.ID] })
	return found, len(sel.ids) - len(found), true
}

// bulkProblem answers a selection that cannot be acted on, with the way back.
func (h *Handlers) bulkProblem(w http.ResponseWriter, r *http.Request, status int, sel selection, problem string) {
	ctx := r.Context()
	h.render(w, r, status, views.BulkPage(h.page(w, r, i18n.T(ctx, "bulk.title"), identity.Tracking),
		views.Bulk{Heading: i18n.T(ctx, "bulk.title"), Problem: problem, Back: sel.back}))
}

// listHidden is the list's query as hidden fields of a follow-up form.
func listHidden(vals map[string]string) []views.Option {
	var out []views.Option
	for _, k := range listParams {
		if vals[k] != "" {
			out = append(out, views.Option{Value: k, Label: vals[k]})
		}
	}
	return out
}

// skipped groups shipments left out of an action by why (a word of the
// catalog under prefix): a line per reason with the count and the numbers.
func skipped(ctx context.Context, prefix string, list []storage.Shipment, why func(storage.Shipment) string) []string {
	var reasons []string
	ids := map[string][]string{}
	for _, s := range list {
		w := why(s)
		if _, seen := ids[w]; !seen {
			reasons = append(reasons, w)
		}
		ids[w] = append(ids[w], strconv.FormatInt(s.ID, 10))
	}
	var out []string
	for _, w := range reasons {
		out = append(out, i18n.N(ctx, prefix+w, len(ids[w]))+" "+i18n.T(ctx, "bulk.numbers", strings.Join(ids[w], ", ")))
	}
	return out
}

// missingLine says how many of the ticked shipments do not exist (any more).
func missingLine(ctx context.Context, n int) []string {
	if n == 0 {
		return nil
	}
	return []string{i18n.N(ctx, "bulk.missing", n)}
}

// SelectionLabels is the print step of a selection: which labels go into
// the print, which are left out and why, and the paper. The print itself is
// the print queue's (POST /shipping/print).
func (h *Handlers) SelectionLabels(w http.ResponseWriter, r *http.Request) {
	sel, list, missing, ok := h.selectedShipments(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	ready, left := split(list, desk.NoLabelToPrint)
	v := views.Bulk{Heading: i18n.T(ctx, "bulk.labels.heading"), Back: sel.back,
		Notes: append(skipped(ctx, "bulk.skip.", left, desk.NoLabelToPrint), missingLine(ctx, missing)...)}
	status := http.StatusOK
	if len(ready) == 0 {
		v.Problem = i18n.T(ctx, "bulk.labels.none")
		status = http.StatusConflict
	} else {
		batches, err := h.ShipReads.RecentPrintBatches(ctx, 1)
		if err != nil {
			h.Fail(w, r, err)
			return
		}
		p := &views.BulkPrint{Format: string(printout.A6), Start: 1, Count: i18n.N(ctx, "bulk.labels.count", len(ready))}
		if len(batches) > 0 { // the paper of the last print is likely the paper in the printer
			p.Format = batches[0].Format
		}
		for _, fm := range printout.Formats {
			p.Formats = append(p.Formats, string(fm))
		}
		names := h.carrierNames(ctx)
		for _, s := range ready {
			p.IDs = append(p.IDs, s.ID)
			p.Rows = append(p.Rows, shipmentRow(ctx, s, names))
		}
		p.Button = i18n.N(ctx, "bulk.labels.print", len(ready))
		v.Print = p
		if len(left) > 0 || missing > 0 {
			v.Lead = i18n.T(ctx, "bulk.labels.some", i18n.N(ctx, "bulk.selected", len(list)+missing))
		}
	}
	h.render(w, r, status, views.BulkPage(h.page(w, r, v.Heading, identity.Tracking), v))
}

// SelectionStorno cancels the shipments of a selection that may still be
// cancelled, after a confirm step that lists them and those that cannot be.
// Each goes through the desk's storno; those the service refuses are said.
func (h *Handlers) SelectionStorno(w http.ResponseWriter, r *http.Request) {
	sel, list, missing, ok := h.selectedShipments(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	can, cannot := split(list, desk.NotCancellable)
	notes := append(skipped(ctx, "bulk.storno.cannot.", cannot, desk.NotCancellable), missingLine(ctx, missing)...)
	if len(can) == 0 {
		h.render(w, r, http.StatusConflict, views.BulkPage(h.page(w, r, i18n.T(ctx, "bulk.storno.heading_done"), identity.Tracking),
			views.Bulk{Heading: i18n.T(ctx, "bulk.storno.heading_done"), Problem: i18n.T(ctx, "bulk.storno.none"), Notes: notes, Back: sel.back}))
		return
	}
	if r.PostFormValue("confirm") != "yes" {
		text := []string{i18n.N(ctx, "bulk.storno.will", len(can))}
		names := h.carrierNames(ctx)
		for _, s := range can {
			text = append(text, fmt.Sprintf("%d · %s · %s · %s, %s", s.ID, s.Tracking(), names.of(s.Carrier), s.RecipientName, s.RecipientCity))
		}
		if len(notes) > 0 {
			text = append(text, i18n.T(ctx, "bulk.storno.not_these"))
			text = append(text, notes...)
		}
		text = append(text, i18n.T(ctx, "ship.cancel_text"))
		hidden := listHidden(sel.vals)
		for _, s := range can {
			hidden = append(hidden, views.Option{Value: "ids", Label: strconv.FormatInt(s.ID, 10)})
		}
		h.confirmPage(w, r, identity.Tracking, views.Confirm{Heading: i18n.N(ctx, "bulk.storno.heading", len(can)), Text: text,
			Action: "/tracking/selection/storno", Hidden: hidden, Button: i18n.N(ctx, "bulk.storno.button", len(can)),
			Keep: i18n.T(ctx, "bulk.storno.keep"), Back: sel.back})
		return
	}
	var done int
	var refused []string
	for _, s := range can {
		if _, err := h.ShipDesk.Storno(ctx, s.ID); err != nil {
			h.refreshRefused(ctx, s.ID, err)
			if apperr.CodeOf(err) == apperr.Internal {
				h.Log.Error("storno of a selection", "shipment", s.ID, "err", err)
			}
			refused = append(refused, i18n.T(ctx, "bulk.storno.refused", s.ID, apperr.MessageOf(ctx, err, i18n.T(ctx, "bulk.storno.failed"))))
			continue
		}
		done++
	}
	v := views.Bulk{Heading: i18n.T(ctx, "bulk.storno.heading_done"), Back: sel.back, Lead: i18n.N(ctx, "bulk.storno.done", done)}
	if len(refused)+len(notes) > 0 {
		v.Problem = i18n.N(ctx, "bulk.storno.not_done", len(refused)+len(cannot)+missing)
		v.Notes = append(refused, notes...)
	}
	h.render(w, r, http.StatusOK, views.BulkPage(h.page(w, r, v.Heading, identity.Tracking), v))
}

// SelectionProtocol serves the hand-over protocols of a selection as one
// PDF: one protocol per carrier and place, handed over today.
func (h *Handlers) SelectionProtocol(w http.ResponseWriter, r *http.Request) {
	sel, list, _, ok := h.selectedShipments(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	ids := make([]int64, 0, len(list))
	for _, s := range list {
		ids = append(ids, s.ID)
	}
	if len(ids) == 0 {
		h.bulkProblem(w, r, http.StatusConflict, sel, i18n.T(ctx, "bulk.err.none_to_hand_over"))
		return
	}
	today := h.now().In(i18n.ZoneOf(ctx))
	protocols, err := h.ShipDesk.HandoversOf(ctx, ids, today)
	if err != nil {
		if apperr.CodeOf(err) == apperr.Internal {
			h.Fail(w, r, err)
			return
		}
		h.bulkProblem(w, r, statusOf(apperr.CodeOf(err)), sel, apperr.MessageOf(ctx, err, ""))
		return
	}
	h.serveProtocols(w, r, protocols, "handover-selection-"+today.Format("20060102-1504"))
}

// SelectionExport is the list's CSV of a selection: the ticked rows, or the
// whole filter of any size.
func (h *Handlers) SelectionExport(w http.ResponseWriter, r *http.Request) {
	sel, ok := h.readSelection(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	if sel.whole {
		f := sel.filter
		h.writeShipmentsCSV(w, r, func(fn func(*storage.ExportRow) error) error { return h.ShipReads.ExportShipments(ctx, f, fn) })
		return
	}
	list, _, ok := h.selected(w, r, sel)
	if !ok {
		return
	}
	if len(list) == 0 {
		h.bulkProblem(w, r, http.StatusUnprocessableEntity, sel, i18n.N(ctx, "bulk.missing", len(sel.ids)))
		return
	}
	h.writeShipmentsCSV(w, r, func(fn func(*storage.ExportRow) error) error {
		for _, s := range list {
			row := storage.ExportRowOf(s)
			if err := fn(&row); err != nil {
				return err
			}
		}
		return nil
	})
}

// split parts shipments by a check that says what stands against each: those
// it finds nothing against, and the rest.
func split(list []storage.Shipment, against func(storage.Shipment) string) (ok, rest []storage.Shipment) {
	for _, s := range list {
		if against(s) == "" {
			ok = append(ok, s)
		} else {
			rest = append(rest, s)
		}
	}
	return ok, rest
}
