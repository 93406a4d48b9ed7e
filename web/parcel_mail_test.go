package web_test

import (
	"context"
	"net/url"
	"shipdesk/i18n"
	"shipdesk/shopid"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/desk"
	"shipdesk/identity"
	"shipdesk/mailcatch"
	"shipdesk/requestkey"
	"shipdesk/storage"
)

// parcelMailTo orders a parcel to Brno for to (a point of Zásilkovna when
// point), with the form's extra fields, and returns its shipment.
func parcelMailTo(t *testing.T, env *apptest.Env, b *apptest.Browser, to string, point bool, extra ...string) storage.Shipment {
	t.Helper()
	form := with(shipmentForm(t, env), append([]string{"key", requestkey.New(), "to_email", to}, extra...)...)
	var loc string
	if point {
		_, full := order(t, b, form, "Zásilkovna To Point")
		d := page(t, b.PostForm("/shipping/points?for=delivery", with(full, "delivery_q", "Brno")).Body)
		code := d.Find(`input[name=delivery_branch]`).First().AttrOr("value", "")
		resp := b.PostForm("/shipping/new/order", with(full, "delivery_branch", code))
		if resp.StatusCode != 303 {
			t.Fatalf("order to point %s: %d %s", code, resp.StatusCode, problemsOf(resp.Body))
		}
		loc = resp.Header.Get("Location")
	} else {
		loc = place(t, b, form, "UPS")
	}
	s, err := env.App.DB.ShipmentByID(context.Background(), atoi(loc[strings.LastIndex(loc, "/")+1:]))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pollAndSend moves the sandbox by d, lets the labels and tracking pollers
// run and the outbox send, and returns the mail caught for to since seen.
func pollAndSend(t *testing.T, env *apptest.Env, d time.Duration, to string, seen *int) []mailcatch.Caught {
	t.Helper()
	ctx := context.Background()
	env.Sandbox.Advance(d)
	if _, err := env.App.Jobs.Labels(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := env.App.Jobs.Tracking(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := env.App.Outbox.SendDue(ctx); err != nil {
		t.Fatal(err)
	}
	return newMailTo(env, to, seen)
}

// refreshAndSend moves the sandbox by d, asks about the shipments ids now
// (the shipment page's "refresh now", which records as the poller does) and
// lets the outbox send; it returns the mail caught for to since seen.
func refreshAndSend(t *testing.T, env *apptest.Env, d time.Duration, to string, seen *int, ids ...int64) []mailcatch.Caught {
	t.Helper()
	ctx := context.Background()
	if d > 0 {
		env.Sandbox.Advance(d)
	}
	for _, id := range ids {
		if err := env.App.Jobs.Refresher().RefreshNow(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := env.App.Outbox.SendDue(ctx); err != nil {
		t.Fatal(err)
	}
	return newMailTo(env, to, seen)
}

// newMailTo is the mail caught for to after the first *seen of them.
func newMailTo(env *apptest.Env, to string, seen *int) []mailcatch.Caught {
	var mine []mailcatch.Caught
	for _, m := range env.App.Catcher.All() {
		if slices.Contains(m.Recipients, to) {
			mine = append(mine, m)
		}
	}
	slices.SortFunc(mine, func(a, b mailcatch.Caught) int { return a.ID - b.ID }) // in the order they came
	out := mine[*seen:]
	*seen = len(mine)
	return out
}

func subjects(ms []mailcatch.Caught) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Subject)
	}
	return out
}

// A parcel to a point mails its customer once at each step that is turned
// on, in Czech, in the shop's name with the tracking page's link and the
// point, answered to the shop; a step turned off mails nothing; a parcel
// marked "no customer mail" gets none; two instances on one database
// polling at once send each step once.
func TestParcelStepsMailTheCustomerOnce(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	ctx := context.Background()
	if err := env.App.DB.SaveShopIdentity(ctx, storage.ShopIdentity{Name: "Kávovar.cz", ReplyEmail: "info@kavovar.cz"}); err != nil {
		t.Fatal(err)
	}
	if err := env.App.DB.SaveParcelMailSetting(ctx, storage.ParcelMailSetting{Event: desk.ParcelDelivered, Enabled: false}, time.Now()); err != nil {
		t.Fatal(err)
	}
	other := apptest.StartOn(t, env.App.DB, env.Sandbox) // a second instance on the same database
	p := parcelMailTo(t, env, b, "jana@example.cz", true)
	quiet := parcelMailTo(t, env, b, "firma@example.cz", false, "no_customer_mail", "on")
	if !quiet.NoCustomerMail || p.NoCustomerMail {
		t.Fatalf("no customer mail stored as %v and %v", quiet.NoCustomerMail, p.NoCustomerMail)
	}
	seen, seenQuiet := 0, 0
	if got := pollAndSend(t, env, 10*time.Minute, "jana@example.cz", &seen); len(got) != 0 {
		t.Errorf("exported, waiting for the courier: mailed %q", subjects(got))
	}
	env.Sandbox.LabelsFetched(p.Tracking(), quiet.Tracking())
	got := refreshAndSend(t, env, 10*time.Minute, "jana@example.cz", &seen, p.ID, quiet.ID)
	if len(got) != 1 || !strings.Contains(got[0].Subject, "je na cestě") {
		t.Fatalf("picked up by the courier: mailed %q, want one handed-over mail", subjects(got))
	}
	token := trackToken(t, env, p.ID)
	for _, want := range []string{p.Tracking(), "/track/" + token, "Kávovar.cz", "Dobrý den, Jana Nováková"} {
		if !strings.Contains(got[0].Text, want) {
			t.Errorf("the handed-over mail lacks %q:\n%s", want, got[0].Text)
		}
	}
	var replyTo, lang string
	if err := env.App.DB.SQL().QueryRowContext(ctx, `SELECT reply_to, lang FROM mail_outbox WHERE event_key = $1`,
		desk.ParcelMailKey(p.ID, desk.ParcelHandedOver)).Scan(&replyTo, &lang); err != nil || replyTo != "info@kavovar.cz" || lang != "cs" {
		t.Errorf("the mail answers to %q in %q: %v", replyTo, lang, err)
	}
	// Both instances' pollers take the due parcels at once: the step at the
	// point mails once.
	env.Sandbox.Advance(30 * time.Minute)
	var wg sync.WaitGroup
	for _, e := range []*apptest.Env{env, other, env, other} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := e.App.Jobs.Tracking(ctx); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got = refreshAndSend(t, env, 0, "jana@example.cz", &seen, p.ID)
	if len(got) != 1 || !strings.Contains(got[0].Subject, "čeká na výdejním místě") {
		t.Fatalf("ready at the point: mailed %q, want one", subjects(got))
	}
	if point := pointName(t, env, p); !strings.Contains(got[0].Text, point) || !strings.Contains(got[0].Text, "Počká na vás do") {
		t.Errorf("the point's mail lacks the point %q or how long it waits:\n%s", point, got[0].Text)
	}
	// Delivered is turned off: nothing, and nothing more however often asked.
	if got := refreshAndSend(t, env, 10*time.Minute, "jana@example.cz", &seen, p.ID, quiet.ID); len(got) != 0 {
		t.Errorf("delivered (turned off): mailed %q", subjects(got))
	}
	if s, _ := env.App.DB.ShipmentByID(ctx, p.ID); s.Status != "DELIVERED" {
		t.Fatalf("the parcel is %s, want delivered", s.Status)
	}
	if got := pollAndSend(t, env, time.Hour, "jana@example.cz", &seen); len(got) != 0 {
		t.Errorf("asked again: mailed %q", subjects(got))
	}
	if got := newMailTo(env, "firma@example.cz", &seenQuiet); len(got) != 0 {
		t.Errorf("a parcel marked no customer mail mailed %q", subjects(got))
	}
}

// A poller that was down while the parcel went all the way mails only its
// latest state, once, in English for a recipient abroad.
func TestLatePollerMailsOnlyTheLatestState(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	p := parcelMailTo(t, env, b, "anna@example.de", false, "to_country", "DE", "to_city", "Berlin", "to_zip", "10115",
		"to_street", "Unter den Linden 5", "to_phone", "+49 30 1234567")
	env.Sandbox.LabelsFetched(p.Tracking())
	seen := 0
	got := pollAndSend(t, env, 48*time.Hour, "anna@example.de", &seen)
	want := "has been delivered"
	if s, _ := env.App.DB.ShipmentByID(context.Background(), p.ID); s.Returned { // the sandbox sends one parcel in ten back
		want = "is coming back to us"
	}
	if len(got) != 1 || !strings.Contains(got[0].Subject, want) {
		t.Fatalf("seen after two days: mailed %q, want one mail that %s", subjects(got), want)
	}
}

// A parcel without news for its carrier's working days mails its customer
// of the delay once, by the attention queue's own rule.
func TestStuckParcelMailsADelayOnce(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	p := parcelMailTo(t, env, b, "petr@example.cz", false)
	seen := 0
	if got := pollAndSend(t, env, 10*time.Minute, "petr@example.cz", &seen); len(got) != 0 {
		t.Fatalf("exported: mailed %q", subjects(got))
	}
	// The label is never fetched: the parcel waits for the courier, silent.
	got := pollAndSend(t, env, 8*24*time.Hour, "petr@example.cz", &seen)
	if len(got) != 1 || !strings.Contains(got[0].Subject, "má zpoždění") {
		t.Fatalf("silent for a week: mailed %q, want one delay", subjects(got))
	}
	items, err := env.App.DB.AttentionItems(context.Background(), storage.AttentionQuery{Now: env.Sandbox.Clock.Now(),
		Kinds: []string{storage.AttnStuck}})
	if err != nil || len(items) != 1 || items[0].RecordID != p.ID {
		t.Errorf("the queue lists %+v as stuck (%v), want the parcel that mailed", items, err)
	}
	if got := pollAndSend(t, env, 24*time.Hour, "petr@example.cz", &seen); len(got) != 0 {
		t.Errorf("a day later: mailed %q again", subjects(got))
	}
}

// The settings page is the managers': it shows each step's wording, refuses
// a placeholder that does not exist at its field (storing nothing), previews
// what is typed, and the next mail says what was saved.
func TestParcelMailSettings(t *testing.T) {
	t.Parallel()
	env, clerk := deskEnv(t)
	manager, agent, anon := env.SignedIn(identity.Manager), env.SignedIn(identity.Agent), env.NewBrowser()
	const path = "/settings/parcel-mail"
	for _, who := range []*apptest.Browser{clerk, agent} {
		for _, r := range []apptest.Response{who.Get(path), who.PostForm(path, url.Values{}), who.PostForm(path+"/preview", url.Values{})} {
			if r.StatusCode != 403 {
				t.Errorf("a clerk or an agent: %d, want 403", r.StatusCode)
			}
		}
	}
	for _, r := range []apptest.Response{anon.Get(path), anon.PostForm(path, url.Values{}), anon.PostForm(path+"/preview", url.Values{})} {
		if r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous: %d %s", r.StatusCode, r.Header.Get("Location"))
		}
	}
	resp := manager.Get(path)
	if resp.StatusCode != 200 {
		t.Fatalf("manager: %d", resp.StatusCode)
	}
	form := parcelMailForm(page(t, resp.Body).Find(`[data-testid=parcel-mail]`))
	if form.Get("handed_over.cs.subject") != "Vaše zásilka {tracking} je na cestě" || form.Get("delivered.enabled") != "on" {
		t.Fatalf("the defaults: %q, delivered %q", form.Get("handed_over.cs.subject"), form.Get("delivered.enabled"))
	}
	bad := with(form, "handed_over.cs.subject", "Balík {tracking} od {obchod}")
	resp = manager.PostForm(path, bad)
	if resp.StatusCode != 422 || !strings.Contains(page(t, resp.Body).Find(`#handed_over\.cs\.subject-error`).Text(), "There is no placeholder {obchod}") {
		t.Fatalf("an unknown placeholder: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if s, _ := env.App.DB.ParcelMailSettings(context.Background()); len(s) != 0 {
		t.Errorf("a refused form stored %+v", s)
	}
	preview := manager.PostForm(path+"/preview", url.Values{"event": {"handed_over"}, "lang": {"cs"},
		"handed_over.cs.subject": {"Balík {tracking} z obchodu {shop}"}, "handed_over.cs.body": {"Milá {recipient}, sledujte {link}"}})
	if preview.StatusCode != 200 || !strings.Contains(preview.Body, "Balík DEMO0000012345 z obchodu") || !strings.Contains(preview.Body, "Milá Jana Nováková") {
		t.Errorf("preview: %d %s", preview.StatusCode, preview.Body)
	}
	if r := manager.PostForm(path+"/preview", url.Values{"event": {"handed_over"}, "lang": {"cs"}, "handed_over.cs.subject": {"{x}"},
		"handed_over.cs.body": {"b"}}); !strings.Contains(r.Body, "There is no placeholder {x}") {
		t.Errorf("preview of an unknown placeholder: %s", r.Body)
	}
	good := with(form, "handed_over.cs.subject", "Balík {tracking} z obchodu {shop} vyrazil")
	if r := manager.PostForm(path, good); r.StatusCode != 303 {
		t.Fatalf("save: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	if r := manager.Get(path); !strings.Contains(r.Body, "Balík {tracking} z obchodu {shop} vyrazil") {
		t.Error("the saved subject is not on the page")
	}
	p := parcelMailTo(t, env, clerk, "eva@example.cz", false)
	env.Sandbox.LabelsFetched(p.Tracking())
	seen := 0
	got := refreshAndSend(t, env, 25*time.Minute, "eva@example.cz", &seen, p.ID)
	id, err := env.App.DB.ShopIdentity(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	shop := shopid.Name(i18n.WithLang(context.Background(), i18n.Czech), id)
	if len(got) != 1 || got[0].Subject != "Balík "+p.Tracking()+" z obchodu "+shop+" vyrazil" {
		t.Errorf("the next mail: %q", subjects(got))
	}
}

// trackToken is a shipment's tracking page token.
func trackToken(t *testing.T, env *apptest.Env, id int64) string {
	t.Helper()
	var token string
	if err := env.App.DB.SQL().QueryRowContext(context.Background(), `SELECT track_token FROM shipments WHERE id = $1`, id).Scan(&token); err != nil {
		t.Fatal(err)
	}
	return token
}

// pointName is the name of the point a shipment goes to.
func pointName(t *testing.T, env *apptest.Env, s storage.Shipment) string {
	t.Helper()
	var name string
	if err := env.App.DB.SQL().QueryRowContext(context.Background(), `SELECT p.name FROM shipments s JOIN parcel_points p
ON upper(p.carrier) = upper(s.carrier) AND p.code = s.request->'shipments'->0->>'delivery_branch' WHERE s.id = $1`, s.ID).Scan(&name); err != nil {
		t.Fatal(err)
	}
	return name
}

// parcelMailForm is what the settings form posts as drawn.
func parcelMailForm(f *goquery.Selection) url.Values {
	v := url.Values{}
	f.Find(`input[name], textarea[name]`).Each(func(_ int, in *goquery.Selection) {
		name := in.AttrOr("name", "")
		switch {
		case in.Is(`textarea`):
			v.Set(name, in.Text())
		case in.AttrOr("type", "") == "checkbox":
			if _, on := in.Attr("checked"); on {
				v.Set(name, "on")
			}
		default:
			v.Set(name, in.AttrOr("value", ""))
		}
	})
	return v
}
