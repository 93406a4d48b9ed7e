package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/requestkey"
)

// noteCount is how many notes shipment id has, read from the database.
func noteCount(t *testing.T, env *apptest.Env, id string) int {
	t.Helper()
	notes, err := env.App.DB.ShipmentNotes(context.Background(), mustID(t, id))
	if err != nil {
		t.Fatal(err)
	}
	return len(notes)
}

// mustID is the shipment id at the end of a shipment's path.
func mustID(t *testing.T, path string) int64 {
	t.Helper()
	id, err := strconv.ParseInt(path[strings.LastIndex(path, "/")+1:], 10, 64)
	if err != nil {
		t.Fatalf("no shipment id in %q", path)
	}
	return id
}

// upstreamCalls is how many calls the dashboard made to the service.
func upstreamCalls(env *apptest.Env) int64 {
	var n int64
	for _, c := range env.App.Upstream.Metrics.Counters() {
		n += c.Calls
	}
	return n
}

// formValues are what a browser would post of a page's form as drawn: its
// fields' values, ticked boxes only, each select's chosen option.
func formValues(doc *goquery.Document) url.Values {
	v := url.Values{}
	doc.Find(`form#new-shipment input[name]`).Each(func(_ int, in *goquery.Selection) {
		name := in.AttrOr("name", "")
		switch in.AttrOr("type", "text") {
		case "checkbox", "radio":
			if _, on := in.Attr("checked"); on {
				v.Add(name, in.AttrOr("value", "on"))
			}
		case "submit", "button":
		default:
			v.Add(name, in.AttrOr("value", ""))
		}
	})
	doc.Find(`form#new-shipment textarea[name]`).Each(func(_ int, in *goquery.Selection) {
		v.Add(in.AttrOr("name", ""), in.Text())
	})
	doc.Find(`form#new-shipment select[name]`).Each(func(_ int, sel *goquery.Selection) {
		opt := sel.Find(`option[selected]`)
		if opt.Length() == 0 {
			opt = sel.Find(`option`).First()
		}
		v.Add(sel.AttrOr("name", ""), opt.AttrOr("value", ""))
	})
	return v
}

// A clerk's note is kept once per form with its author and time, shown on
// the shipment's page, marked on the list's row with its text, and found by
// the list's search; the service never hears of it.
func TestShipmentNotesOnPageListAndSearch(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	loc := place(t, b, shipmentForm(t, env), "UPS")
	other := place(t, b, with(shipmentForm(t, env), "to_surname", "Svobodová"), "UPS")
	id := strings.TrimPrefix(loc, "/shipping/shipments/")
	page0 := b.Get(loc).Body
	if !strings.Contains(page0, `data-testid="shipment-notes"`) || !strings.Contains(page0, `data-testid="send-again"`) {
		t.Fatal("the shipment page has no notes section or no send-again button")
	}
	calls := upstreamCalls(env)
	key := hiddenFields(page0).Get("key")
	if !requestkey.Valid(key) {
		t.Fatalf("the note form has no request key: %q", key)
	}
	form := url.Values{"key": {key}, "note_text": {"Zákazník volal: nechat u sousedů, zvonek Kopřiva"}}
	r := b.PostForm(loc+"/notes", form)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != loc {
		t.Fatalf("add note: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	if r := b.PostForm(loc+"/notes", form); r.StatusCode != http.StatusSeeOther || noteCount(t, env, id) != 1 {
		t.Errorf("the same form again: %d, %d notes", r.StatusCode, noteCount(t, env, id))
	}
	if upstreamCalls(env) != calls {
		t.Error("a note reached the service")
	}
	body := b.Get(loc).Body
	notes := page(t, body).Find(`[data-testid=note]`)
	if notes.Length() != 1 || !strings.Contains(notes.Text(), "zvonek Kopřiva") || !strings.Contains(notes.Text(), "clerk1") {
		t.Errorf("the page's notes: %q", notes.Text())
	}
	// htmx: the section comes back in place, with the new note on top and a new form.
	req, _ := http.NewRequest(http.MethodPost, env.URL+loc+"/notes", strings.NewReader(url.Values{"key": {requestkey.New()}, "note_text": {"Druhá poznámka"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", env.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("HX-Request", "true")
	r = b.Do(req)
	if r.StatusCode != 200 || page(t, r.Body).Find(`#shipment-notes [data-testid=note]`).First().Find(".note-text").Text() != "Druhá poznámka" {
		t.Errorf("htmx note: %d", r.StatusCode)
	}

	list := page(t, b.Get("/tracking").Body)
	marker := list.Find(`a[href="` + loc + `"]`).Closest("tr").Find(`[data-testid=note-marker]`)
	if marker.Length() != 1 || !strings.Contains(marker.Text(), "2") || marker.AttrOr("title", "") != "Druhá poznámka" {
		t.Errorf("the list's marker: %q title %q", marker.Text(), marker.AttrOr("title", ""))
	}
	if n := list.Find(`a[href="` + other + `"]`).Closest("tr").Find(`[data-testid=note-marker]`).Length(); n != 0 {
		t.Error("a shipment without notes is marked")
	}
	found := page(t, b.Get("/tracking?q=kop%C5%99iva").Body)
	if found.Find(`a[href="`+loc+`"]`).Length() != 1 || found.Find(`a[href="`+other+`"]`).Length() != 0 {
		t.Errorf("searching a note's word: %s", found.Find(`[data-testid=list-total]`).Text())
	}
	if home := page(t, b.Get("/shipping").Body); home.Find(`[data-testid=note-marker]`).Length() != 1 {
		t.Error("the desk's latest shipments do not mark the one with notes")
	}
}

// What cannot be a note is refused on its field with the text kept, and
// nothing is stored; text that merely looks like code is a note like any
// other, shown as text.
func TestShipmentNoteRefusesBadInput(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	loc := place(t, b, shipmentForm(t, env), "UPS")
	id := strings.TrimPrefix(loc, "/shipping/shipments/")
	for name, text := range map[string]string{
		"Empty": "  ", "NUL": "a\x00b", "InvalidUTF8": "ok \xff\xfe", "Control": "a\x1b[2Jb", "Oversized": strings.Repeat("ž", 2001),
	} {
		t.Run(name, func(t *testing.T) {
			r := b.PostForm(loc+"/notes", url.Values{"key": {requestkey.New()}, "note_text": {text}})
			doc := page(t, r.Body)
			if r.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-testid=note-error]`).Length() != 1 {
				t.Errorf("%d %s", r.StatusCode, problemsOf(r.Body))
			}
			if name == "Oversized" && !strings.Contains(doc.Find(`#note_text`).Text(), "žžž") {
				t.Error("the typed text is not kept")
			}
		})
	}
	if r := b.PostForm(loc+"/notes", url.Values{"key": {"not a key"}, "note_text": {"fine"}}); r.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a damaged key: %d", r.StatusCode)
	}
	if r := b.PostForm("/shipping/shipments/999999/notes", url.Values{"key": {requestkey.New()}, "note_text": {"fine"}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("a note on no shipment: %d", r.StatusCode)
	}
	if n := noteCount(t, env, id); n != 0 {
		t.Fatalf("%d notes stored from bad input", n)
	}
	for _, text := range []string{"<script>alert(1)</script>", "'; DROP TABLE shipments; --"} {
		if r := b.PostForm(loc+"/notes", url.Values{"key": {requestkey.New()}, "note_text": {text}}); r.StatusCode != http.StatusSeeOther {
			t.Errorf("%q: %d", text, r.StatusCode)
		}
	}
	body := b.Get(loc).Body
	if strings.Contains(body, "<script>alert(1)</script>") || !strings.Contains(body, "&lt;script&gt;") || noteCount(t, env, id) != 2 {
		t.Error("a note that looks like code is not kept as text")
	}
}

// Notes and "send the same again" are the shipping desk's: an agent is
// refused, an anonymous visitor is sent to sign in.
func TestShipmentNotesAndSendAgainRefuseOtherRoles(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	agent, anon := env.SignedIn(identity.Agent), env.NewBrowser()
	form := url.Values{"key": {requestkey.New()}, "note_text": {"x"}}
	if r := agent.PostForm("/shipping/shipments/1/notes", form); r.StatusCode != http.StatusForbidden {
		t.Errorf("agent note: %d", r.StatusCode)
	}
	if r := anon.PostForm("/shipping/shipments/1/notes", form); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
		t.Errorf("anonymous note: %d", r.StatusCode)
	}
	if r := agent.Get("/shipping/new?from=1"); r.StatusCode != http.StatusForbidden {
		t.Errorf("agent send again: %d", r.StatusCode)
	}
	if r := anon.Get("/shipping/new?from=1"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("anonymous send again: %d", r.StatusCode)
	}
}

// "Send the same again" is a form filled from the shipment: recipient,
// packages and services, a new request key, no reference and no pickup
// date, the COD amount filled in but off, said in a hint. Reading it orders
// nothing; ordering it makes a second shipment for the same recipient.
func TestSendTheSameAgainFillsTheForm(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	first := with(shipmentForm(t, env), "cod", "on", "cod_value", "1250", "cod_currency", "CZK", "cod_bank_account", "19-2000145399",
		"cod_bank_code", "0800", "reference", "ESHOP-1001", "pkg_weight", "2,5", "note", "Křehké")
	loc := place(t, b, first, "UPS")
	id := strings.TrimPrefix(loc, "/shipping/shipments/")
	calls := upstreamCalls(env)
	r := b.Get("/shipping/new?from=" + id)
	if r.StatusCode != 200 {
		t.Fatalf("send again: %d", r.StatusCode)
	}
	doc := page(t, r.Body)
	value := func(name string) string { return doc.Find(`[name=`+name+`]`).First().AttrOr("value", "") }
	for name, want := range map[string]string{"to_firstname": "Jana", "to_surname": "Nováková", "to_street": "Masarykova 5", "to_city": "Brno",
		"to_zip": "602 00", "to_phone": "+420 777 123 456", "to_email": "jana@example.cz", "pkg_weight": "2.5", "pkg_length": "30",
		"pkg_height": "10", "cod_value": "1250", "reference": "", "pickup_date": "", "note": "Křehké"} {
		if got := value(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if _, checked := doc.Find(`[name=cod]`).Attr("checked"); checked {
		t.Error("cash on delivery is on for a reshipment")
	}
	if key := value("key"); !requestkey.Valid(key) || key == first.Get("key") {
		t.Errorf("the form's key %q is not a new one", key)
	}
	if notice := doc.Find(`[data-testid=form-notices]`).Text(); !strings.Contains(notice, "1,250") && !strings.Contains(notice, "1 250") {
		t.Errorf("the hint does not name the former COD: %q", notice)
	}
	if upstreamCalls(env) != calls {
		t.Error("opening the form asked the service")
	}
	second := place(t, b, formValues(doc), "UPS")
	if second == loc {
		t.Fatal("ordering the filled form found the first shipment")
	}
	s1, _ := env.App.DB.ShipmentByID(context.Background(), mustID(t, loc))
	s2, err := env.App.DB.ShipmentByID(context.Background(), mustID(t, second))
	if err != nil || s2.RecipientName != s1.RecipientName || s2.RecipientCity != s1.RecipientCity || s2.Reference == s1.Reference || s2.CODValue != nil {
		t.Errorf("the second shipment: %+v %v", s2, err)
	}
}
