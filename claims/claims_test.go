package claims

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"net/url"
	"strings"
	"testing"
	"time"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/upload"
)

// The 14 days to withdraw end at the end of the 14th calendar day after
// delivery in the shop's zone, across a change of summer time too.
func TestWithdrawBy(t *testing.T) {
	for _, c := range []struct{ delivered, last string }{
		{"2026-11-23T23:30:00+01:00", "2026-12-07T23:59:59+01:00"},
		{"2026-03-20T10:00:00+01:00", "2026-04-03T23:59:59+02:00"}, // summer time begins on 29 March
		{"2026-11-23T23:30:00Z", "2026-12-08T23:59:59+01:00"},      // already the 24th in Prague
	} {
		at, _ := time.Parse(time.RFC3339, c.delivered)
		want, _ := time.Parse(time.RFC3339, c.last)
		if got := withdrawBy(at); !got.Equal(want) {
			t.Errorf("delivered %s: by %s, want %s", c.delivered, got.In(i18n.Prague), want)
		}
	}
}

// Only what newToken makes is looked up: 43 characters of the URL-safe
// alphabet, never a path, a quote or a space.
func TestTokenShape(t *testing.T) {
	for i := 0; i < 100; i++ {
		if tok := newToken(); !tokenShape(tok) {
			t.Fatalf("a made token is refused: %q", tok)
		}
	}
	for _, bad := range []string{"", strings.Repeat("a", 42), strings.Repeat("a", 44), strings.Repeat("a", 42) + "/",
		strings.Repeat("a", 42) + "'", strings.Repeat("a", 42) + " ", strings.Repeat("á", 22)} {
		if tokenShape(bad) {
			t.Errorf("%q taken for a token", bad)
		}
	}
}

// The form's own rules: each kind needs its own fields, each way of sending
// its own, and every file is checked by its content and counted.
func TestFormRules(t *testing.T) {
	proof := spooled(t, "invoice.pdf", []byte("%PDF-1.4 x"))
	good := Form{Key: "8f0e4c7a-3b1d-4e2f-9a6b-5c4d3e2f1a0b", Kind: KindDefect, Remedy: "repair", Description: "Cracked.",
		ModelID: 1, Transport: "shop", Proof: &proof}
	good.Customer.Name, good.Customer.Email = "Jana", "jana@example.cz" // the e-mail is the link's: File sets it
	if p := good.Check(); len(p) > 0 {
		t.Fatalf("a good form: %v", p)
	}
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, image.NewGray(image.Rect(0, 0, 4, 4)), nil); err != nil {
		t.Fatal(err)
	}
	photo := spooled(t, "p.jpg", jpg.Bytes())
	if p := (Form{Photos: []File{photo}}).Check(); !p["photos"].IsZero() {
		t.Fatalf("a good photo: %v", p["photos"])
	}
	html := spooled(t, "p.jpg", []byte("<html>"))
	for name, c := range map[string]struct {
		edit  func(*Form)
		field string
	}{
		"no remedy":          {func(f *Form) { f.Remedy = "" }, "remedy"},
		"unknown remedy":     {func(f *Form) { f.Remedy = "money back" }, "remedy"},
		"no description":     {func(f *Form) { f.Description = " " }, "description"},
		"no proof":           {func(f *Form) { f.Proof = nil }, "proof"},
		"no refund account":  {func(f *Form) { f.Kind, f.RefundAmount = KindWithdrawal, "100" }, "refund_account"},
		"no refund amount":   {func(f *Form) { f.Kind, f.RefundAccount = KindWithdrawal, "19-2000145399/0800" }, "refund_amount"},
		"no point":           {func(f *Form) { f.Transport = "code" }, "point"},
		"courier, no street": {func(f *Form) { f.Transport = "courier"; f.Customer.City, f.Customer.Zip = "Brno", "60200" }, "street"},
		"unknown transport":  {func(f *Form) { f.Transport = "drone" }, "transport"},
		"unknown kind":       {func(f *Form) { f.Kind = "refund" }, "kind"},
		"no name":            {func(f *Form) { f.Customer.Name = "" }, "name"},
		"bad key":            {func(f *Form) { f.Key = "1" }, "form"},
		"html photo":         {func(f *Form) { f.Photos = []File{html} }, "photos"},
		"seven photos":       {func(f *Form) { f.Photos = []File{photo, photo, photo, photo, photo, photo, photo} }, "photos"},
		// The desk's rules of a person's address, as the claim's parcel and commission meet them.
		"phone not a phone":  {func(f *Form) { f.Customer.Phone = "call me" }, "phone"},
		"surname too long":   {func(f *Form) { f.Customer.Name = "Jana " + strings.Repeat("x", 101) }, "name"},
		"zip not Czech":      {func(f *Form) { f.Customer.Zip = "ABCDE" }, "zip"},
		"country not served": {func(f *Form) { f.Customer.Country = "-1" }, "country"},
		"code from abroad": {func(f *Form) {
			f.Transport, f.PointCarrier, f.PointCode = "code", "X", "1"
			f.Customer.Street, f.Customer.City, f.Customer.Zip, f.Customer.Country = "Hauptstraße 1", "Berlin", "10115", "DE"
		}, "country"},
		"code, no address": {func(f *Form) { f.Transport, f.PointCarrier, f.PointCode = "code", "X", "1" }, "street"},
	} {
		f := good
		c.edit(&f)
		if p := f.Check(); p[c.field].IsZero() {
			t.Errorf("%s: no problem on %s: %v", name, c.field, p)
		}
	}
	// What the desk takes is taken, written the way it sends it.
	for name, edit := range map[string]func(*Form){
		"one word":     func(f *Form) { f.Customer.Name = "Novák" },
		"dashed phone": func(f *Form) { f.Customer.Phone = "777123456" },
		"code at home": func(f *Form) {
			f.Transport, f.PointCarrier, f.PointCode = "code", "X", "1"
			f.Customer.Street, f.Customer.City, f.Customer.Zip, f.Customer.Country = "Masarykova 5", "Brno", "60200", "CZ"
		},
	} {
		f := good
		edit(&f)
		if p := f.Check(); len(p) > 0 {
			t.Errorf("%s: %v", name, p)
		}
	}
	read := ParseForm(url.Values{"name": {"  Jana   Nováková "}, "phone": {"777-123-456"}}, nil, nil)
	if read.Customer.Phone != "777123456" || read.Customer.Country != "CZ" {
		t.Errorf("read as %+v", read.Customer)
	}
	if first, surname := desk.SplitName(read.Customer.Name); first != "Jana" || surname != "Nováková" {
		t.Errorf("name split as %q %q", first, surname)
	}
}

// A step's problem is said in words, field by field, and a refusal is told
// from a service that did not answer.
func TestProblemOfAStep(t *testing.T) {
	en := i18n.WithLang(context.Background(), i18n.English)
	refused := stepError{"parcel", apperr.Fields("form.see_fields", apperr.Problems{"point": apperr.Msg("retparcel.err.point_unknown")})}
	problem, isRefusal := problemOf(refused)
	if got := problem.In(en); !isRefusal || got != "The return parcel was not ordered: We do not know this point: choose one from the list." {
		t.Errorf("refused parcel: %v %q", isRefusal, got)
	}
	away := stepError{"commission", apperr.New(apperr.Unavailable, "error.unavailable")}
	if _, isRefusal := problemOf(away); isRefusal {
		t.Error("a service away is taken for a refusal")
	}
	for _, step := range []string{"commission", "parcel", "handover", "arrival", "other"} {
		if !i18n.Has("claim.err.step." + step) {
			t.Errorf("no words for the step %s", step)
		}
	}
}

// spooled is data as the page spools a posted file.
func spooled(t *testing.T, name string, data []byte) File {
	t.Helper()
	f, err := upload.Spool(t.TempDir(), bytes.NewReader(data), name, MaxFileBytes)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
