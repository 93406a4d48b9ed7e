package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// setShipment puts a stored shipment in a state the service would report
// later (delivered, in transit, returned) without waiting for the carrier,
// written past the desks as a poller of the same process would.
func setShipment(t *testing.T, env *apptest.Env, page, set string, args ...any) {
	t.Helper()
	id := strings.TrimPrefix(page, "/shipping/shipments/")
	if _, err := env.App.DB.Exec(context.Background(), `UPDATE shipments SET `+set+` WHERE id = $1`, append([]any{id}, args...)...); err != nil {
		t.Fatal(err)
	}
}

// The shipment page decides its next step in one place and never contradicts
// itself: no label to print once the shipment is delivered or returned, and
// a status the service reports before any event is said as it is.
func TestShipmentPageNeverContradictsItself(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	page := place(t, b, form, "UPS")

	// Ready, not printed, not handed over: print.
	setShipment(t, env, page, `status = 'EXPORTED', label_status = 'READY', label_mode = 'PRINT'`)
	doc := htmlOf(t, b.Get(page).Body)
	if doc.Find(`[data-testid=todo]`).AttrOr("data-step", "") != "print" || doc.Find(`[data-testid=print-label]`).Length() != 1 {
		t.Errorf("a ready label: step %q", doc.Find(`[data-testid=todo]`).AttrOr("data-step", ""))
	}

	// In transit, and no event stored: the service's status, said accurately.
	if _, err := env.App.DB.SQL().Exec(`DELETE FROM tracking_events WHERE shipment_id = $1`, strings.TrimPrefix(page, "/shipping/shipments/")); err != nil {
		t.Fatal(err)
	}
	setShipment(t, env, page, `status = 'INTRANSIT'`)
	body := b.Get(page).Body
	doc = htmlOf(t, body)
	if got := textOf(doc, "status-only"); !strings.Contains(got, "The service reports “in transit”; no events from the carrier yet.") {
		t.Errorf("in transit without events says %q", got)
	}
	if strings.Contains(body, "No events yet") || strings.Contains(body, "No tracking events yet") {
		t.Error("the page says there are no events while the status is in transit, without saying where the status comes from")
	}
	// Never printed here: the label stays offered, with a note (nothing lost
	// between the label's arrival and the pickup).
	if step := doc.Find(`[data-testid=todo]`).AttrOr("data-step", ""); step != "print" || doc.Find(`[data-testid=print-late]`).Length() != 1 {
		t.Errorf("in transit, never printed: step %q, note %d", step, doc.Find(`[data-testid=print-late]`).Length())
	}
	// Printed: follow it, nothing more to print.
	setShipment(t, env, page, `printed_at = now()`)
	doc = htmlOf(t, b.Get(page).Body)
	if step := doc.Find(`[data-testid=todo]`).AttrOr("data-step", ""); step != "follow" || doc.Find(`[data-testid=print-label]`).Length() != 0 {
		t.Errorf("in transit: step %q, label offered %d", step, doc.Find(`[data-testid=print-label]`).Length())
	}

	// Delivered: nothing to do, nothing to print, no storno; the label itself is refused.
	setShipment(t, env, page, `status = 'DELIVERED'`)
	body = b.Get(page).Body
	doc = htmlOf(t, body)
	if step := doc.Find(`[data-testid=todo]`).AttrOr("data-step", ""); step != "delivered" {
		t.Errorf("delivered: step %q", step)
	}
	if doc.Find(`[data-testid=print-label]`).Length() != 0 || strings.Contains(body, "Print label") || strings.Contains(body, `/label.pdf"`) {
		t.Error("a delivered shipment offers its label")
	}
	if doc.Find(`[data-testid=storno]`).Length() != 0 {
		t.Error("a delivered shipment offers a storno")
	}
	if r := b.Get(page + "/label.pdf"); r.StatusCode != 409 {
		t.Errorf("label of a delivered shipment: %d", r.StatusCode)
	}
	if strings.Contains(b.Get("/shipping/print").Body, page) {
		t.Error("a delivered shipment waits in the print queue")
	}

	// Returned to the sender: nothing to print either.
	setShipment(t, env, page, `status = 'ONDELIVERY', returned = true`)
	doc = htmlOf(t, b.Get(page).Body)
	if step := doc.Find(`[data-testid=todo]`).AttrOr("data-step", ""); step != "returned" || doc.Find(`[data-testid=print-label]`).Length() != 0 {
		t.Errorf("returned: step %q", step)
	}
}

// "Last checked" and the carrier's events read on the same clock: the
// sandbox's simulated one.
func TestLastCheckedOnTheSandboxClock(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	page := place(t, b, shipmentForm(t, env), "UPS")
	env.Sandbox.Advance(30 * time.Minute)
	simulated := env.Sandbox.Clock.Now // the simulator's own clock
	before := simulated()
	if r := b.PostForm(page+"/refresh", url.Values{}); r.StatusCode != 303 {
		t.Fatalf("refresh: %d", r.StatusCode)
	}
	after := simulated()
	s := shipmentAt(t, env, page)
	if s.LastCheckedAt == nil || s.LastCheckedAt.Before(before) || s.LastCheckedAt.After(after) {
		t.Errorf("last checked %v, want the simulated time of the refresh, between %v and %v", s.LastCheckedAt, before, after)
	}
}

// Each removal in the address book asks first: the confirm step names what
// goes, a post without the confirmation removes nothing, Confirm removes.
func TestAddressBookRemovalsAskFirst(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	ctx := context.Background()
	form := shipmentForm(t, env)
	place(t, b, with(form, "save_recipient", "on"), "UPS") // a saved recipient
	senders, _ := env.App.DB.Senders(ctx)
	recipients, _ := env.App.DB.Recipients(ctx)
	presets, _ := env.App.DB.Presets(ctx)
	if len(senders) < 2 || len(recipients) == 0 || len(presets) == 0 {
		t.Fatalf("demo data: %d senders, %d recipients, %d presets", len(senders), len(recipients), len(presets))
	}
	count := func() [3]int {
		s, _ := env.App.DB.Senders(ctx)
		r, _ := env.App.DB.Recipients(ctx)
		p, _ := env.App.DB.Presets(ctx)
		return [3]int{len(s), len(r), len(p)}
	}
	last := senders[len(senders)-1]
	for i, c := range []struct {
		path, name string
	}{
		{"/shipping/senders/" + itoa(last.ID) + "/delete", last.Label},
		{"/shipping/recipients/" + itoa(recipients[0].ID) + "/delete", recipients[0].Surname},
		{"/shipping/presets/" + itoa(presets[0].ID) + "/delete", presets[0].Name},
	} {
		before := count()
		// The address book's Remove leads to the confirm step.
		if !strings.Contains(b.Get("/shipping/addresses").Body, `action="`+c.path+`"`) {
			t.Errorf("the address book does not lead to %s", c.path)
		}
		r := b.Get(c.path)
		doc := htmlOf(t, r.Body)
		if r.StatusCode != 200 || !strings.Contains(textOf(doc, "confirm"), c.name) {
			t.Fatalf("confirm step %s: %d %q", c.path, r.StatusCode, textOf(doc, "confirm"))
		}
		if doc.Find(`[data-testid=confirm] form[method=post]`).AttrOr("action", "") != c.path ||
			doc.Find(`[data-testid=confirm-cancel]`).AttrOr("href", "") == "" {
			t.Errorf("confirm step %s: no confirming form or no way back", c.path)
		}
		// Not confirmed: nothing goes, the post leads to the confirm step.
		if r := b.PostForm(c.path, url.Values{}); r.StatusCode != 303 || r.Header.Get("Location") != c.path {
			t.Errorf("unconfirmed post %s: %d %q", c.path, r.StatusCode, r.Header.Get("Location"))
		}
		if count() != before {
			t.Fatalf("%s removed without a confirmation", c.path)
		}
		if r := b.PostForm(c.path, url.Values{"confirm": {"yes"}}); r.StatusCode != 303 {
			t.Errorf("confirmed %s: %d", c.path, r.StatusCode)
		}
		after := count()
		if after[i] != before[i]-1 {
			t.Errorf("%s: %v before, %v after", c.path, before, after)
		}
	}
	// Something that is not there: a clear 404, nothing else.
	if r := b.Get("/shipping/senders/999999/delete"); r.StatusCode != 404 {
		t.Errorf("confirm step of a missing sender: %d", r.StatusCode)
	}
}

// Storno and cancelling a commission ask first too.
func TestStornoAndCommissionCancelAskFirst(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	page := place(t, b, shipmentForm(t, env), "UPS")
	doc := htmlOf(t, b.Get(page).Body)
	if doc.Find(`[data-testid=storno] form`).AttrOr("method", "") != "get" {
		t.Error("the storno button does not lead to its confirm step")
	}
	r := b.Get(page + "/storno")
	if r.StatusCode != 200 || !strings.Contains(textOf(htmlOf(t, r.Body), "confirm"), "Jana Nováková") {
		t.Fatalf("storno confirm step: %d", r.StatusCode)
	}
	if s := shipmentAt(t, env, page); s.CancelledAt != nil {
		t.Fatal("cancelled by showing the confirm step")
	}
	b.PostForm(page+"/storno", url.Values{"confirm": {"yes"}})
	if s := shipmentAt(t, env, page); s.CancelledAt == nil {
		t.Fatal("not cancelled once confirmed")
	}
	// Cancelled already: no second confirm step, back to the page with why.
	if r := b.Get(page + "/storno"); r.StatusCode != 303 || r.Header.Get("Location") != page {
		t.Errorf("storno step of a cancelled shipment: %d %q", r.StatusCode, r.Header.Get("Location"))
	}

	_, agent := benchEnvOn(t, env)
	resp := postMultipart(t, env, agent, commissionForm(t, env), "receipt.png", pngBytes)
	if resp.StatusCode != 303 {
		t.Fatalf("create: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	cpage := resp.Header.Get("Location")
	cdoc := htmlOf(t, agent.Get(cpage).Body)
	if f := cdoc.Find(`[data-testid=move-cancelled]`).Closest("form"); f.AttrOr("method", "") != "get" {
		t.Fatalf("the cancel move does not lead to its confirm step: %q", f.AttrOr("method", ""))
	}
	status := textOf(cdoc, "commission-status")
	if r := agent.PostForm(cpage+"/move", url.Values{"to": {"cancelled"}}); r.StatusCode != 303 || r.Header.Get("Location") != cpage+"/move?to=cancelled" {
		t.Errorf("unconfirmed cancel: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	if got := textOf(htmlOf(t, agent.Get(cpage).Body), "commission-status"); got != status {
		t.Fatalf("cancelled without a confirmation: %q", got)
	}
	r = agent.Get(cpage + "/move?to=cancelled")
	cdoc = htmlOf(t, r.Body)
	if r.StatusCode != 200 || cdoc.Find(`[data-testid=confirm] input[name=to]`).AttrOr("value", "") != "cancelled" ||
		cdoc.Find(`[data-testid=confirm-cancel]`).AttrOr("href", "") != cpage {
		t.Fatalf("commission confirm step: %d", r.StatusCode)
	}
	agent.PostForm(cpage+"/move", url.Values{"to": {"cancelled"}, "confirm": {"yes"}})
	if got := textOf(htmlOf(t, agent.Get(cpage).Body), "commission-status"); got == status {
		t.Errorf("not cancelled once confirmed: %q", got)
	}
	// Any other move needs no confirmation, and an odd one leads back.
	if r := agent.Get(cpage + "/move?to=processing"); r.StatusCode != 303 || r.Header.Get("Location") != cpage {
		t.Errorf("confirm step of an ordinary move: %d", r.StatusCode)
	}
}

// The drafts list says who sent which draft when; a draft's page says in
// words what the service filled in.
func TestDraftsSentAndTheirDefaults(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	if body := b.Get("/shipping/drafts").Body; !strings.Contains(body, `data-testid="drafts-none"`) {
		t.Error("an empty drafts list does not say so")
	}
	resp := b.PostForm("/shipping/new/draft", with(form, "reference", "OBJ-88"))
	if resp.StatusCode != 303 {
		t.Fatalf("draft: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	draft := resp.Header.Get("Location")
	doc := htmlOf(t, b.Get(draft).Body)
	said := doc.Find(`[data-testid=draft-defaults] li[data-field=serviceId]`).Text()
	if !strings.Contains(said, "the cheapest service available (service no. ") {
		t.Errorf("the service's choice of service in words: %q", said)
	}
	// The form gave a sender and a package: the service filled neither.
	if n := doc.Find(`[data-testid=draft-defaults] li[data-field=from], [data-testid=draft-defaults] li[data-field=packages]`).Length(); n != 0 {
		t.Errorf("%d defaults said for fields the clerk gave", n)
	}
	list := htmlOf(t, b.Get("/shipping/drafts").Body)
	row := list.Find(`[data-testid=draft-row]`)
	if row.Length() != 1 || !strings.Contains(row.Text(), "OBJ-88") || !strings.Contains(row.Text(), "Jana Nováková") ||
		!strings.Contains(row.Text(), "clerk") || row.Find(`a[href="`+draft+`"]`).Length() != 1 {
		t.Errorf("drafts list row: %q", strings.Join(strings.Fields(row.Text()), " "))
	}
	for _, bad := range []string{"x", "-1", "0", strings.Repeat("9", 40), "<script>alert(1)</script>"} {
		if r := b.Get("/shipping/drafts?before=" + url.QueryEscape(bad)); r.StatusCode != 400 {
			t.Errorf("before=%q: %d", bad, r.StatusCode)
		}
	}
}

// The new pages refuse other roles and anonymous people.
func TestNewPagesRefuseOtherRoles(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	agent, clerk, anon := env.SignedIn(identity.Agent), env.SignedIn(identity.Clerk), env.NewBrowser()
	for _, c := range []struct {
		path  string
		wrong interface {
			Get(string) apptest.Response
		}
	}{
		{"/shipping/drafts", agent},
		{"/shipping/senders/1/delete", agent},
		{"/shipping/recipients/1/delete", agent},
		{"/shipping/presets/1/delete", agent},
		{"/shipping/shipments/1/storno", agent},
		{"/returns/commissions/1/move?to=cancelled", clerk},
	} {
		if r := c.wrong.Get(c.path); r.StatusCode != 403 {
			t.Errorf("wrong role GET %s: %d", c.path, r.StatusCode)
		}
		if r := anon.Get(c.path); r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous GET %s: %d", c.path, r.StatusCode)
		}
	}
}
