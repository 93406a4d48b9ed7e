package handlers

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/views"
)

// RefreshNow asks the service about one shipment at once.
func (h *Handlers) RefreshNow(w http.ResponseWriter, r *http.Request) {
	id, ok := h.shipmentID(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	defer cancel()
	h.finish(w, r, h.Tracker.RefreshNow(ctx, id), i18n.T(r.Context(), "trk.timeline.refreshed"), fmt.Sprintf("/shipping/shipments/%d", id))
}

// timeline groups a shipment's events by package, newest first.
func timeline(s storage.Shipment, events []storage.Event) views.TimelineView {
	t := views.TimelineView{Returned: s.Returned}
	for i, p := range s.Packages {
		pt := views.PackageTimeline{Number: p.Number, Status: p.Status}
		for _, e := range events {
			if e.PackageIndex == i {
				pt.Events = append(pt.Events, views.EventRow{At: e.Occurred, Status: e.Status, Name: e.Name, Location: e.Location})
			}
		}
		t.Packages = append(t.Packages, pt)
	}
	return t
}
