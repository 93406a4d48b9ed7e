package handlers

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/views"
)

// ShipDesk is what the shipping pages change, each part declared beside the
// handlers that use it; desk.Desk is the one implementation.
type ShipDesk interface {
	shipmentForm
	trackPage
	ShipmentSteps
	printing
	drafts
	AddressBookDesk
	PickupDesk
	carrierDesk
	shipmentPoints
	parcelMailDesk
	ruleDesk
	batchDesk
}

// ShipReads are the shipping tables the pages read (storage.DB).
type ShipReads interface {
	homeReads
	formReads
	pageReads
	printReads
	bookReads
	pickupReads
	trackingReads
	figureReads
	ruleReads
	batchReads
}

// Tracker asks the service about one shipment now (desk.Refresher): at
// once ("refresh now"), or when it is due as its page shows it (live.go).
type Tracker interface {
	RefreshNow(ctx context.Context, id int64) error
	RefreshDue(ctx context.Context, id int64, now time.Time, pendingAfter time.Duration) (bool, error)
}

type homeReads interface {
	RecentAndToPrint(ctx context.Context, limit int) ([]storage.Shipment, int, error)
	Attention(ctx context.Context, now time.Time) (storage.Attention, error)
}

func (h *Handlers) userID(r *http.Request) int64 {
	if s := identity.From(r.Context()); s != nil {
		return s.ID
	}
	return 0
}

// Shipping is the desk's home: actions and the latest shipments.
func (h *Handlers) Shipping(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	recent, toPrint, err := h.ShipReads.RecentAndToPrint(ctx, 30)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, views.ShippingHome(h.page(w, r, i18n.T(r.Context(), "ship.desk"), identity.Shipping), h.liveRows(r.Context(), recent), toPrint))
}

// shipmentRow is a shipment as the lists show it, its time in the request's
// language and the shop's time zone.
func shipmentRow(ctx context.Context, s storage.Shipment, names carrierNames) views.ShipmentRow {
	return views.ShipmentRow{ID: s.ID, Created: i18n.DateTime(ctx, s.CreatedAt), Reference: s.Reference, Recipient: s.RecipientName,
		Carrier: names.of(s.Carrier), Service: s.ServiceName, State: s.State, Status: s.Status,
		LabelMode: s.LabelMode, LabelStatus: desk.LabelShown(s), TrackingNumber: s.Tracking(), Printed: s.PrintedAt != nil,
		PrintLate: desk.PrintLate(s), CodeOnly: desk.CodeOnly(s), NoteCount: s.NoteCount, LastNote: s.LastNote}
}

func shipmentRows(ctx context.Context, list []storage.Shipment, names carrierNames) []views.ShipmentRow {
	rows := make([]views.ShipmentRow, 0, len(list))
	for _, s := range list {
		rows = append(rows, shipmentRow(ctx, s, names))
	}
	return rows
}

// num writes a measure (kg, cm) with as many decimals as it has, in the
// request's language: 1,5 or 1.5.
func num(ctx context.Context, x float64) string {
	decimals := 0
	if s := strconv.FormatFloat(x, 'f', -1, 64); strings.Contains(s, ".") {
		decimals = len(s) - strings.Index(s, ".") - 1
	}
	return i18n.Number(ctx, x, decimals)
}
