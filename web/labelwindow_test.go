package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/requestkey"
)

// inQueue says the print queue offers the shipment's label.
func inQueue(b *apptest.Browser, id string) bool {
	return strings.Contains(b.Get("/shipping/print").Body, `name="ids" value="`+id+`"`)
}

// stepOf is the next step the shipment page shows.
func stepOf(t *testing.T, b *apptest.Browser, page string) string {
	t.Helper()
	return htmlOf(t, b.Get(page).Body).Find(`[data-testid=todo]`).AttrOr("data-step", "")
}

// Nothing lost in the window between the label's arrival and the courier: a
// label ready and never printed stays on the shipment page and in the print
// queue until the parcel is delivered or cancelled. Unprinted, the sandbox's
// parcel waits at ONPICKUP; when the carrier reports it on its way anyway,
// both say so beside the label. Delivered, it is offered nowhere; a shipment
// cancelled before its label came does not read "being made".
func TestUnprintedLabelStaysReachableUntilTheEnd(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	ctx := context.Background()
	form := shipmentForm(t, env)
	page := place(t, b, form, "UPS")
	id := page[strings.LastIndex(page, "/")+1:]

	// Exported at one minute; the courier's pickup time would be at 16. Not printed.
	env.Sandbox.Advance(15 * time.Minute)
	if _, err := env.App.Jobs.Labels(ctx); err != nil {
		t.Fatal(err)
	}
	if step := stepOf(t, b, page); step != "print" {
		t.Fatalf("ready, not printed: step %q", step)
	}
	if !inQueue(b, id) {
		t.Fatal("a ready label is not in the print queue")
	}

	// Hours on, nobody has fetched the label: the sandbox's courier has not
	// taken the parcel, and the label is still to print in both places.
	env.Sandbox.Advance(3 * time.Hour)
	if r := b.PostForm(page+"/refresh", url.Values{}); r.StatusCode != 303 {
		t.Fatalf("refresh: %d", r.StatusCode)
	}
	if s := shipmentAt(t, env, page); s.Status != "ONPICKUP" || s.PrintedAt != nil {
		t.Errorf("an unlabelled parcel three hours on: %s, printed %v", s.Status, s.PrintedAt)
	}
	doc := htmlOf(t, b.Get(page).Body)
	if doc.Find(`[data-testid=todo]`).AttrOr("data-step", "") != "print" || doc.Find(`[data-testid=print-label]`).Length() != 1 ||
		doc.Find(`[data-testid=print-late]`).Length() != 0 {
		t.Errorf("at the pickup: step %q, print button %d, note %d", doc.Find(`[data-testid=todo]`).AttrOr("data-step", ""),
			doc.Find(`[data-testid=print-label]`).Length(), doc.Find(`[data-testid=print-late]`).Length())
	}
	if !inQueue(b, id) {
		t.Error("an unprinted label left the print queue at the pickup")
	}

	// The carrier reports it on its way though nothing was printed here (as
	// the real service may): still printable from the page and the queue, with a note.
	for _, status := range []string{"INTRANSIT", "ONDELIVERY"} {
		setShipment(t, env, page, `status = $2`, status)
		doc = htmlOf(t, b.Get(page).Body)
		if step := doc.Find(`[data-testid=todo]`).AttrOr("data-step", ""); step != "print" || doc.Find(`[data-testid=print-label]`).Length() != 1 {
			t.Errorf("%s, never printed: step %q, print button %d", status, step, doc.Find(`[data-testid=print-label]`).Length())
		}
		if note := textOf(doc, "print-late"); !strings.Contains(note, "The carrier has the parcel already") {
			t.Errorf("%s: the page's note %q", status, note)
		}
		queue := htmlOf(t, b.Get("/shipping/print").Body)
		row := queue.Find(`input[name=ids][value="` + id + `"]`).Closest("tr")
		if row.Length() != 1 || !strings.Contains(row.Find(`[data-testid=print-late]`).Text(), "With the carrier already") {
			t.Errorf("%s: the queue's row %q", status, strings.Join(strings.Fields(row.Text()), " "))
		}
	}
	if resp := b.Get(page + "/label.pdf"); resp.StatusCode != 200 || !strings.HasPrefix(resp.Body, "%PDF-") {
		t.Errorf("label of a parcel on its way, never printed: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if s := shipmentAt(t, env, page); s.PrintedAt != nil {
		t.Error("opening the label marked it printed") // only a print from the queue does
	}

	// Delivered: no label anywhere.
	setShipment(t, env, page, `status = 'DELIVERED'`)
	if step := stepOf(t, b, page); step != "delivered" {
		t.Errorf("delivered: step %q", step)
	}
	if inQueue(b, id) {
		t.Error("a delivered shipment waits in the print queue")
	}
	if resp := b.Get(page + "/label.pdf"); resp.StatusCode != 409 {
		t.Errorf("label of a delivered shipment: %d", resp.StatusCode)
	}

	// Cancelled while its label was still to come: not "being made" anywhere.
	gone := place(t, b, with(form, "key", requestkey.New()), "UPS")
	if r := b.PostForm(gone+"/storno", url.Values{"confirm": {"yes"}}); r.StatusCode != 303 {
		t.Fatalf("storno: %d", r.StatusCode)
	}
	if s := shipmentAt(t, env, gone); s.CancelledAt == nil || s.LabelStatus != "PENDING" {
		t.Fatalf("precondition: cancelled with a pending label, got %+v", s)
	}
	if step := stepOf(t, b, gone); step != "cancelled" {
		t.Errorf("cancelled: step %q", step)
	}
	list := htmlOf(t, env.SignedIn(identity.Manager).Get("/tracking").Body)
	row := list.Find(`a[href="` + gone + `"]`).Closest("tr")
	if row.Length() != 1 || strings.Contains(row.Text(), "Being made") {
		t.Errorf("the list's row of a cancelled shipment: %q", strings.Join(strings.Fields(row.Text()), " "))
	}
	if home := htmlOf(t, b.Get("/shipping").Body); strings.Contains(home.Find(`a[href="`+gone+`"]`).Closest("tr").Text(), "pending") {
		t.Error("the desk's list says the label of a cancelled shipment is pending")
	}
}

// A storno is offered only while the service allows one: at CREATED and
// EXPORTED the page offers it and its confirm step asks; at ONPICKUP (here a
// printed parcel waiting for the courier) the page offers none, the confirm
// step sends the clerk back, and the list's bulk storno leaves it out without
// asking the service.
func TestStornoOfferedOnlyWhileTheServiceAllows(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	page := place(t, b, form, "UPS")
	id := page[strings.LastIndex(page, "/")+1:]
	offered := func(when string, want bool) {
		t.Helper()
		if got := htmlOf(t, b.Get(page).Body).Find(`[data-testid=storno]`).Length() == 1; got != want {
			t.Errorf("%s: storno offered %v, want %v", when, got, want)
		}
		resp := b.Get(page + "/storno")
		if asked := resp.StatusCode == 200 && strings.Contains(resp.Body, `data-testid="confirm"`); asked != want {
			t.Errorf("%s: the confirm step asks %v (%d), want %v", when, asked, resp.StatusCode, want)
		}
	}
	refresh := func(want string) {
		t.Helper()
		if r := b.PostForm(page+"/refresh", url.Values{}); r.StatusCode != 303 {
			t.Fatalf("refresh: %d", r.StatusCode)
		}
		if s := shipmentAt(t, env, page); s.Status != want {
			t.Fatalf("status %q, want %q", s.Status, want)
		}
	}

	offered("just ordered", true)
	env.Sandbox.Advance(2 * time.Minute)
	refresh("EXPORTED")
	offered("exported", true)

	// Printed, then the courier is on the way to pick it up.
	if resp := b.PostForm("/shipping/print", url.Values{"ids": {id}, "format": {"A6"}, "start": {"1"}}); resp.StatusCode != 200 {
		t.Fatalf("print: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	env.Sandbox.Advance(5 * time.Minute)
	refresh("ONPICKUP")
	offered("printed, at the pickup", false)
	if body := b.Get(page).Body; !strings.Contains(body, "can no longer be cancelled") {
		t.Errorf("the confirm step sent the clerk back without saying why: %s", problemsOf(body))
	}

	calls := countCalls(env, "shipments/storno")
	for _, v := range []url.Values{{"ids": {id}}, {"ids": {id}, "confirm": {"yes"}}} {
		resp := b.PostForm("/tracking/selection/storno", v)
		if resp.StatusCode != 409 || !strings.Contains(resp.Body, "already with the carrier") {
			t.Errorf("bulk storno at the pickup (%v): %d %s", v, resp.StatusCode, problemsOf(resp.Body))
		}
	}
	if n := countCalls(env, "shipments/storno") - calls; n != 0 {
		t.Errorf("the service was asked %d times to cancel a shipment at the pickup", n)
	}
	if s := shipmentAt(t, env, page); s.CancelledAt != nil {
		t.Error("cancelled at the pickup")
	}
}
