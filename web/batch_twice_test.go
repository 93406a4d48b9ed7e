package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"shipdesk/requestkey"
	"shipdesk/storage"
)

// A row ordered before shows as such, with its shipment; taken as a new
// parcel it needs a reference of its own, and bad text there is a clear
// error that changes nothing. The row's point picker answers htmx with its
// points and a plain post with the batch page, the row opened.
func TestKnownRowAndRowPickerOverHTTP(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	ctx := context.Background()
	s, _, _, err := env.App.DB.BeginShipment(ctx, storage.Shipment{RequestKey: requestkey.New(), Reference: "OBJ-2026-0413",
		Request: []byte("{}"), Carrier: "x"}, env.Sandbox.Clock.Now(), env.Sandbox.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	id := importOrders(t, env, b)
	var known, bad storage.BatchRow
	for _, r := range env.SettledBatch(t, id) {
		switch r.Line {
		case 3:
			known = r
		case 4:
			bad = r
		}
	}
	if known.State != storage.RowKnown || known.KnownShipment == nil || *known.KnownShipment != s.ID {
		t.Fatalf("line 3: %s as %v, want known as shipment %d", known.State, known.KnownShipment, s.ID)
	}
	path := "/shipping/batches/" + itoa(id)
	body := b.Get(path).Body
	if !strings.Contains(body, `href="/shipping/shipments/`+itoa(s.ID)+`"`) || !strings.Contains(body, "1 row of this file was ordered already") {
		t.Errorf("the batch page does not say line 3 was ordered as shipment %d", s.ID)
	}
	newParcel := path + "/rows/" + itoa(known.ID) + "/new-parcel"
	for _, ref := range []string{"", "OBJ-2026-0413", "a\x00b", "\xff\xfe", "bell\x07", strings.Repeat("R", 65)} {
		r := postHTMX(env, b, newParcel, url.Values{"reference": {ref}})
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.Body, `data-testid="new-reference-error"`) {
			t.Errorf("reference %q: %d %s", ref, r.StatusCode, problemsOf(r.Body))
		}
		if strings.ContainsRune(r.Body, 0) || strings.Contains(r.Body, "\x07") {
			t.Errorf("reference %q is shown back raw", ref)
		}
	}
	// A plain post's error comes back as the page's message.
	if r := b.PostForm(newParcel, url.Values{"reference": {"OBJ-2026-0413"}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("plain post: %d", r.StatusCode)
	} else if page := b.Get(r.Header.Get("Location")).Body; !strings.Contains(page, "reference of the parcel already ordered") {
		t.Error("the plain post's page does not say why")
	}
	if r, _ := env.App.DB.BatchRow(ctx, id, known.ID); r.State != storage.RowKnown {
		t.Fatalf("after bad references line 3 is %s", r.State)
	}
	// Text that looks like markup or SQL is only text, shown escaped.
	hostile := `<script>x</script>' OR 1=1--`
	if r := postHTMX(env, b, newParcel, url.Values{"reference": {hostile}}); r.StatusCode != http.StatusOK || strings.Contains(r.Body, "<script>x") {
		t.Fatalf("markup as a reference: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	if r, _ := env.App.DB.BatchRow(ctx, id, known.ID); r.Reference != hostile || !r.NewParcel || r.State == storage.RowKnown {
		t.Errorf("line 3 after the new parcel: %s %q", r.State, r.Reference)
	}
	// Only a known row may be taken as a new parcel.
	if r := postHTMX(env, b, path+"/rows/"+itoa(bad.ID)+"/new-parcel", url.Values{"reference": {"NEW-1"}}); r.StatusCode != http.StatusConflict {
		t.Errorf("a row not known as a new parcel: %d", r.StatusCode)
	}

	points := path + "/rows/" + itoa(bad.ID) + "/points"
	q := "row-" + itoa(bad.ID) + "-point_q"
	r := postHTMX(env, b, points, url.Values{q: {"Ostrava"}})
	if r.StatusCode != http.StatusOK || !strings.Contains(r.Body, `name="point_pick"`) || !strings.Contains(r.Body, "Ostrava") {
		t.Errorf("the row's points: %d %s", r.StatusCode, r.Body[:min(len(r.Body), 300)])
	}
	if r := postHTMX(env, b, points, url.Values{q: {"\x00\xff"}}); r.StatusCode != http.StatusOK {
		t.Errorf("unreadable search: %d", r.StatusCode)
	}
	r = b.PostForm(points, url.Values{q: {"Ostrava"}})
	if loc := r.Header.Get("Location"); r.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "open="+itoa(bad.ID)) || !strings.Contains(loc, q+"=Ostrava") {
		t.Errorf("plain search: %d %s", r.StatusCode, loc)
	} else if page := b.Get(loc).Body; !strings.Contains(page, `id="row-`+itoa(bad.ID)+`-point-picker"`) {
		t.Error("the plain search's page has no picker in the row")
	}
}
