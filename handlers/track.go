package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/views"
)

// trackPage is what the public tracking page reads (desk.Desk).
type trackPage interface {
	Track(ctx context.Context, token, client string) (desk.Track, error)
}

// TrackShipment shows a shipment's public tracking page to whoever has its
// token: no account, no cookie, nothing cached or referred on. A token of
// another shape or of no shipment is answered alike (404, one message),
// and a client who misses too often is refused.
func (h *Handlers) TrackShipment(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	t, err := h.ShipDesk.Track(ctx, r.PathValue("token"), h.address(r))
	if err != nil {
		if code := apperr.CodeOf(err); code != apperr.NotFound && code != apperr.TooMany {
			h.Fail(w, r, err)
			return
		}
		private(w)
		shell := h.claimShell(r, "track.problem_title")
		h.render(w, r, answerStatus(w, err), views.TrackProblemPage(shell, apperr.MessageOf(ctx, err, "track.err.unknown")))
		return
	}
	private(w)
	h.render(w, r, http.StatusOK, views.TrackShipmentPage(trackView(ctx, h.claimShell(r, "track.title"), t)))
}

// TrackUnknown answers any other path under /track/ (a link cut short,
// lengthened, with a slash after it) as a page that does not exist,
// counted as one: never the sign-in page, whose address would take the
// token along.
func (h *Handlers) TrackUnknown(w http.ResponseWriter, r *http.Request) {
	r.SetPathValue("token", "")
	h.TrackShipment(w, r)
}

// trackView is the page's words: the state as the staff page says it, the
// events at the shop's zone's time, the point, and the claim page with this
// purchase's number filled in.
func trackView(ctx context.Context, shell views.ClaimShell, t desk.Track) views.TrackPage {
	row := views.ShipmentRow{State: t.State, Status: t.Status}
	state, _ := views.ShipmentState(ctx, row)
	code := t.Status
	if t.State != "created" {
		code = t.State
	}
	v := views.TrackPage{Shell: shell, TrackingNumber: t.TrackingNumber, State: state, StateCode: code, Returned: t.Returned,
		ClaimLink: "/claim?" + url.Values{"reference": {t.TrackingNumber}}.Encode()}
	if t.Expected != nil {
		v.Expected = i18n.Date(ctx, *t.Expected)
	}
	for _, e := range t.Events {
		v.Events = append(v.Events, views.TrackEvent{At: i18n.DateTime(ctx, e.Occurred), Name: e.Name, Location: e.Location})
	}
	if p := t.Point; p != nil {
		v.PointName, v.PointAddress = p.Name, fmt.Sprintf("%s, %s %s", p.Street, p.Zip, p.City)
	}
	return v
}
