package handlers

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/storage"
	"shipdesk/views"
	"shipdesk/workbench"
)

// fakeBench is the returns desk as the handlers see it; it records the writes.
type fakeBench struct {
	ReturnsBench // unused steps panic
	detail       workbench.Detail
	notes        []string
}

func (f *fakeBench) Detail(context.Context, int64) (workbench.Detail, error) { return f.detail, nil }

func (f *fakeBench) AddNote(_ context.Context, _ int64, _, text string, _ int64) (storage.Commission, error) {
	f.notes = append(f.notes, text)
	return storage.Commission{}, nil
}

type noSessions struct{ Sessions }

func (noSessions) TakeFlashes(http.ResponseWriter, *http.Request) []views.Flash { return nil }
func (noSessions) AddFlash(http.ResponseWriter, *http.Request, views.Flash)     {}

func returnsHandlers(b *fakeBench) *Handlers {
	return &Handlers{Returns: b, Sessions: noSessions{}, Log: slog.New(slog.DiscardHandler)}
}

func TestCommissionPageShowsTheWorkbenchsDetail(t *testing.T) {
	b := &fakeBench{detail: workbench.Detail{ID: 7, Number: "RC-7", Type: "warranty", Status: "processing", State: storage.StateCreated,
		Customer: workbench.Customer{Name: "Alena", Email: "a@example.cz", Street: "Lipová 3", Zip: "602 00", City: "Brno"},
		Moves:    []string{"outgoing"}, Activities: []workbench.Activity{{Public: true, Text: "Hello"}},
		Transport: []workbench.Transport{{ToCustomer: true, TrackingNumber: "T2"}}, Files: []workbench.FileInfo{{ID: 3, Name: "r.pdf", Size: 2048}}}}
	r := httptest.NewRequest(http.MethodGet, "/returns/commissions/7", nil)
	r.SetPathValue("id", "7")
	w := httptest.NewRecorder()
	returnsHandlers(b).CommissionPage(w, r)
	if w.Code != http.StatusOK {
		t.Fatalf("status %d", w.Code)
	}
	doc, err := goquery.NewDocumentFromReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ testid, want string }{
		{"address", "Lipová 3, 602 00 Brno"},
		{"move-outgoing", "Send back to the customer"},
		{"transport", "to the customer · T2"},
		{"file", "r.pdf"},
	} {
		t.Run(c.testid, func(t *testing.T) {
			if got := strings.Join(strings.Fields(doc.Find(`[data-testid=`+c.testid+`]`).Text()), " "); !strings.Contains(got, c.want) {
				t.Errorf("%q, want %q", got, c.want)
			}
		})
	}
	if got := doc.Find(`[data-testid=activities] [data-kind=message] p`).Text(); got != "Hello" {
		t.Errorf("message %q", got)
	}
}

func TestNotePostThatCannotBeReadIsAnsweredOneWay(t *testing.T) {
	for _, c := range []struct {
		name string
		body string
		want int
	}{
		{"too large", "note_text=" + strings.Repeat("x", maxFormBytes+1), http.StatusRequestEntityTooLarge},
		{"malformed", "note_text=%zz", http.StatusBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := &fakeBench{}
			r := httptest.NewRequest(http.MethodPost, "/returns/commissions/7/notes", strings.NewReader(c.body))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.SetPathValue("id", "7")
			w := httptest.NewRecorder()
			returnsHandlers(b).AddNote(w, r)
			if w.Code != c.want {
				t.Errorf("status %d, want %d", w.Code, c.want)
			}
			if len(b.notes) != 0 {
				t.Errorf("the workbench was asked to add %q", b.notes)
			}
		})
	}
}
