package views_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"shipdesk/i18n"
	"shipdesk/views"
)

// render renders a component in English and parses the HTML for querying.
func render(t *testing.T, c templ.Component) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(i18n.WithLang(context.Background(), i18n.English), &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return doc
}

// texts are the trimmed texts of every match of selector.
func texts(doc *goquery.Document, selector string) []string {
	var out []string
	doc.Find(selector).Each(func(_ int, s *goquery.Selection) { out = append(out, strings.TrimSpace(s.Text())) })
	return out
}

func testids(doc *goquery.Document, selector string) []string {
	var out []string
	doc.Find(selector).Each(func(_ int, s *goquery.Selection) { out = append(out, s.AttrOr("data-testid", "")) })
	return out
}

// commission is a created warranty claim in processing.
func commission() views.CommissionView {
	return views.CommissionView{
		CommissionRow: views.CommissionRow{ID: 7, Number: "RC-0007", Type: "warranty", Status: "processing", State: "created",
			Customer: "Alena Veselá", Product: "Bexon K101 (Coffee machine)", DaysLeft: "3", Urgent: true},
		Reference: "RC-ABC", Email: "alena@example.cz", Phone: "+420 777 111 222", Address: "Lipová 3, 602 00 Brno", Fault: "Does not switch on.",
		NoteForm: views.Form{Values: map[string]string{"key": "note-key"}}, MessageForm: views.Form{Values: map[string]string{"key": "message-key"}},
	}
}

func TestCommissionPageShowsNotesAndMessagesApart(t *testing.T) {
	c := commission()
	c.Activities = []views.ActivityRow{
		{Public: true, Text: "We have your claim.", Created: "2026-11-20 10:00:00"},
		{Public: false, Text: "Customer called twice.", Created: "2026-11-20 10:05:00"},
		{Public: true, Text: "Your machine is on its way back.", Created: "2026-11-21 09:00:00"},
	}
	doc := render(t, views.CommissionPage(views.Page{Title: "RC-0007"}, c))

	if got := texts(doc, `[data-testid=activities] [data-kind=message] p`); len(got) != 2 || got[0] != "We have your claim." || got[1] != "Your machine is on its way back." {
		t.Errorf("messages: %q", got)
	}
	if got := texts(doc, `[data-testid=activities] [data-kind=note] p`); len(got) != 1 || got[0] != "Customer called twice." {
		t.Errorf("notes: %q", got)
	}
	if got := texts(doc, `[data-testid=activities] [data-kind=note] .kind`); len(got) != 1 || got[0] != "Internal note" {
		t.Errorf("a note is not labelled internal: %q", got)
	}
	// Each has its own form and endpoint, with its own request key.
	for _, f := range []struct{ testid, action, field, key string }{
		{"note-form", "/returns/commissions/7/notes", "note_text", "note-key"},
		{"message-form", "/returns/commissions/7/messages", "message_text", "message-key"},
	} {
		t.Run(f.testid, func(t *testing.T) {
			form := doc.Find(`form[data-testid=` + f.testid + `]`)
			if form.Length() != 1 {
				t.Fatalf("%d forms", form.Length())
			}
			if got := form.AttrOr("action", ""); got != f.action {
				t.Errorf("action %q, want %q", got, f.action)
			}
			if form.Find(`textarea[name=`+f.field+`]`).Length() != 1 {
				t.Errorf("no %s field", f.field)
			}
			if got := form.Find(`input[name=key]`).AttrOr("value", ""); got != f.key {
				t.Errorf("key %q, want %q", got, f.key)
			}
		})
	}
	// Only the message asks for a confirmation.
	if doc.Find(`[data-testid=message-form] input[name=confirm]`).Length() != 1 || doc.Find(`[data-testid=note-form] input[name=confirm]`).Length() != 0 {
		t.Error("the confirmation belongs to the message form alone")
	}
}

func TestCommissionPageOffersOnlyTheAllowedMoves(t *testing.T) {
	for _, c := range []struct {
		name  string
		moves []views.MoveButton
		want  []string
	}{
		{"processing", []views.MoveButton{{To: "outgoing", Label: "Send back"}, {To: "closed", Label: "Close"}, {To: "cancelled", Label: "Cancel", Danger: true}},
			[]string{"move-outgoing", "move-closed", "move-cancelled"}},
		{"waiting for the goods", []views.MoveButton{{To: "cancelled", Label: "Cancel", Danger: true}}, []string{"move-cancelled"}},
		{"closed", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := commission()
			v.Moves = c.moves
			doc := render(t, views.CommissionPage(views.Page{}, v))
			got := testids(doc, `[data-testid=moves] form[action$="/move"] button`)
			if strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("moves %q, want %q", got, c.want)
			}
			for i, m := range c.moves {
				to := doc.Find(`[data-testid=moves] form[action$="/move"]`).Eq(i).Find(`input[name=to]`).AttrOr("value", "")
				if to != m.To {
					t.Errorf("button %d posts %q, want %q", i, to, m.To)
				}
				if danger := doc.Find(`[data-testid=move-` + m.To + `]`).HasClass("danger"); danger != m.Danger {
					t.Errorf("%s: danger %v, want %v", m.To, danger, m.Danger)
				}
			}
			if len(c.moves) == 0 && !strings.Contains(doc.Find(`[data-testid=moves]`).Text(), "Nothing to do here now") {
				t.Error("a commission without moves does not say that nothing is to be done")
			}
		})
	}
}

func TestCommissionPageByState(t *testing.T) {
	for _, c := range []struct {
		state        string
		shows, hides []string // data-testid values
		forms        bool     // the note and message forms
	}{
		{"created", []string{"note-form", "message-form"}, []string{"waiting", "check", "create-again"}, true},
		{"unknown", []string{"waiting", "check"}, []string{"create-again", "note-form", "message-form"}, false},
		{"missing", []string{"missing", "create-again"}, []string{"waiting", "check", "note-form", "message-form"}, false},
	} {
		t.Run(c.state, func(t *testing.T) {
			v := commission()
			v.State, v.SettlesAt, v.Error = c.state, "2026-11-22 10:03", "The service has no commission with reference RC-ABC: it was not created."
			doc := render(t, views.CommissionPage(views.Page{}, v))
			for _, id := range c.shows {
				if doc.Find(`[data-testid=`+id+`]`).Length() == 0 {
					t.Errorf("%s is not shown", id)
				}
			}
			for _, id := range c.hides {
				if doc.Find(`[data-testid=`+id+`]`).Length() != 0 {
					t.Errorf("%s is shown", id)
				}
			}
		})
	}
}

func TestCommissionPageShowsDuplicatesWithAConfirmation(t *testing.T) {
	v := commission()
	doc := render(t, views.CommissionPage(views.Page{}, v))
	if doc.Find(`[data-testid=duplicates]`).Length() != 0 {
		t.Error("a commission without duplicates shows the duplicates section")
	}
	v.Duplicates = []string{"RC-0008", "RC-0009"}
	doc = render(t, views.CommissionPage(views.Page{}, v))
	section := doc.Find(`[data-testid=duplicates]`)
	if section.Length() != 1 || !strings.Contains(section.Text(), "RC-ABC") {
		t.Fatalf("duplicates section: %q", section.Text())
	}
	forms := section.Find(`form[data-testid=cancel-duplicate]`)
	if forms.Length() != 2 {
		t.Fatalf("%d cancel forms, want one per duplicate", forms.Length())
	}
	forms.Each(func(i int, f *goquery.Selection) {
		want := v.Duplicates[i]
		if got := f.AttrOr("action", ""); got != "/returns/commissions/7/duplicates/cancel" {
			t.Errorf("%s: action %q", want, got)
		}
		if got := f.Find(`input[name=number]`).AttrOr("value", ""); got != want {
			t.Errorf("form %d cancels %q, want %q", i, got, want)
		}
		confirm := f.Find(`input[type=checkbox][name=confirm]`)
		if confirm.AttrOr("value", "") != "yes" || confirm.AttrOr("required", "x") == "x" {
			t.Errorf("%s: the confirmation is not a required tick", want)
		}
		if !strings.Contains(f.Find("label").Text(), want) {
			t.Errorf("%s: the confirmation does not name the commission", want)
		}
	})
}

func TestCommissionPageShowsUnconfirmedActivities(t *testing.T) {
	v := commission()
	doc := render(t, views.CommissionPage(views.Page{}, v))
	if doc.Find(`[data-testid=unconfirmed]`).Length() != 0 {
		t.Error("the unconfirmed list is shown with nothing in it")
	}
	v.Unconfirmed = []views.ActivityRow{{Public: true, Text: "We have your claim.", Created: "2026-11-22 10:00"}}
	doc = render(t, views.CommissionPage(views.Page{}, v))
	got := texts(doc, `[data-testid=unconfirmed] li`)
	if len(got) != 1 || !strings.Contains(got[0], "We have your claim.") || !strings.Contains(got[0], "never sent twice") ||
		!strings.Contains(got[0], "2026-11-22 10:00") {
		t.Errorf("unconfirmed: %q", got)
	}
	if doc.Find(`[data-testid=activities] li`).Length() != 0 {
		t.Error("an unconfirmed activity is listed as one the service holds")
	}
}

func TestCommissionPageFacts(t *testing.T) {
	v := commission()
	v.Files = []views.KeptFile{{ID: 3, Name: "receipt.pdf", Size: "2 KiB"}}
	v.Transport = []views.TransportRow{{Direction: "to the customer", TrackingNumber: "TN1", Ordered: "2026-11-21", Delivered: "2026-11-22"}}
	doc := render(t, views.CommissionPage(views.Page{}, v))
	for _, c := range []struct{ testid, want string }{
		{"commission-status", "processing"},
		{"commission-type", "Warranty claim"},
		{"days-left", "3"},
		{"customer", "Alena Veselá, alena@example.cz +420 777 111 222"},
		{"address", "Lipová 3, 602 00 Brno"},
		{"product", "Bexon K101 (Coffee machine)"},
		{"fault", "Does not switch on."},
		{"file", "receipt.pdf"},
		{"transport", "to the customer · TN1 · ordered 2026-11-21 · delivered 2026-11-22"},
	} {
		t.Run(c.testid, func(t *testing.T) {
			got := strings.Join(strings.Fields(doc.Find(`[data-testid=`+c.testid+`]`).Text()), " ")
			if got != c.want {
				t.Errorf("%q, want %q", got, c.want)
			}
		})
	}
	if !doc.Find(`[data-testid=days-left]`).HasClass("urgent") {
		t.Error("3 days left is not marked urgent")
	}
	if href := doc.Find(`[data-testid=file]`).AttrOr("href", ""); href != "/returns/files/3" {
		t.Errorf("file link %q", href)
	}
}

func TestCommissionListRows(t *testing.T) {
	v := views.CommissionList{Rows: []views.CommissionRow{
		{ID: 1, Number: "RC-1", Type: "warranty", Status: "new", State: "created", Customer: "Old Claim", DaysLeft: "overdue 2", Urgent: true},
		{ID: 2, Type: "paid_repair", State: "unknown", Customer: "Fresh Claim"},
	}}
	doc := render(t, views.CommissionListPage(views.Page{}, v))
	if got := texts(doc, `[data-testid=commission] [data-testid=customer]`); strings.Join(got, "|") != "Old Claim|Fresh Claim" {
		t.Errorf("rows: %q", got)
	}
	days := doc.Find(`[data-testid=commission] [data-testid=days-left]`)
	if days.Eq(0).Text() != "overdue 2" || !days.Eq(0).HasClass("urgent") || days.Eq(1).Text() != "" || days.Eq(1).HasClass("urgent") {
		t.Errorf("days left: %q %q", days.Eq(0).Text(), days.Eq(1).Text())
	}
	if got := texts(doc, `[data-testid=commission] a`); strings.Join(got, "|") != "RC-1|#2" {
		t.Errorf("links: %q (a commission without a number goes by its id)", got)
	}
	if empty := render(t, views.CommissionListPage(views.Page{}, views.CommissionList{})); !strings.Contains(empty.Find("main").Text(), "No commissions match") {
		t.Error("an empty list does not say so")
	}
}

func TestNewCommissionFormKeepsTheProof(t *testing.T) {
	v := views.NewCommission{Form: views.Form{Values: map[string]string{"key": "k", "customer_name": "Alena"}, Errors: map[string]string{"fault": "Describe the fault."}}}
	doc := render(t, views.NewCommissionPage(views.Page{}, v))
	if doc.Find(`[data-testid=kept-file]`).Length() != 0 || doc.Find(`input[name=upload_id]`).Length() != 0 {
		t.Error("a form without a kept proof offers one")
	}
	if got := doc.Find(`#customer_name`).AttrOr("value", ""); got != "Alena" {
		t.Errorf("typed name not kept: %q", got)
	}
	if got := doc.Find(`#fault-error`).Text(); got != "Describe the fault." {
		t.Errorf("fault error %q", got)
	}
	v.Kept = &views.KeptFile{ID: 12, Name: "receipt.pdf", Size: "2 KiB"}
	doc = render(t, views.NewCommissionPage(views.Page{}, v))
	if got := doc.Find(`input[name=upload_id]`).AttrOr("value", ""); got != "12" {
		t.Errorf("kept upload id %q", got)
	}
	if got := doc.Find(`[data-testid=kept-file] a`); got.Text() != "receipt.pdf" || got.AttrOr("href", "") != "/returns/files/12" {
		t.Errorf("kept file link: %q %q", got.Text(), got.AttrOr("href", ""))
	}
}

func TestCommissionPageSettlesWithAResolution(t *testing.T) {
	v := commission()
	v.Moves = []views.MoveButton{{To: "cancelled", Label: "Cancel", Danger: true}}
	v.Settling = []views.MoveButton{{To: "outgoing", Label: "Send back"}, {To: "closed", Label: "Close"}}
	v.Resolutions = []views.Option{{Value: "repaired", Label: "repaired"}, {Value: "rejected", Label: "rejected"}}
	v.SettleForm = views.Form{Values: map[string]string{"resolution": "rejected", "reason": "Dropped."}, Errors: map[string]string{"reason": "Too short."}}
	doc := render(t, views.CommissionPage(views.Page{}, v))
	form := doc.Find(`form[data-testid=settle-form]`)
	if form.AttrOr("action", "") != "/returns/commissions/7/move" || form.AttrOr("method", "") != "post" {
		t.Fatalf("settle form: %v", form.Nodes)
	}
	var posts []string
	form.Find(`button[name=to]`).Each(func(_ int, b *goquery.Selection) { posts = append(posts, b.AttrOr("value", "")) })
	if strings.Join(posts, " ") != "outgoing closed" {
		t.Errorf("the settle form's buttons post %q", posts)
	}
	if form.Find(`select#resolution option[selected]`).AttrOr("value", "") != "rejected" || strings.TrimSpace(form.Find(`textarea#reason`).Text()) != "Dropped." {
		t.Error("the form as posted is not kept")
	}
	if form.Find(`#reason[aria-invalid=true]`).Length() != 1 || strings.TrimSpace(form.Find(`#reason-error`).Text()) != "Too short." {
		t.Error("the reason's problem is not tied to it")
	}
	if got := testids(doc, `[data-testid=moves] form.move button`); strings.Join(got, " ") != "move-cancelled" {
		t.Errorf("other moves: %q", got)
	}
}
