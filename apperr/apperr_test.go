package apperr_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"shipdesk/apperr"
	"shipdesk/i18n"
)

var (
	czech   = i18n.WithLang(context.Background(), i18n.Czech)
	english = i18n.WithLang(context.Background(), i18n.English)
)

func TestTextIsSaidInTheReadersLanguage(t *testing.T) {
	for _, c := range []struct {
		name   string
		text   apperr.Text
		cs, en string
	}{
		{"key", apperr.Msg("ship.err.cancelled", 12), "Zásilka 12 je stornovaná.", "Shipment 12 is cancelled."},
		{"plural", apperr.Count("staff.password_min", 10), "Použijte alespoň 10 znaků.", "Use at least 10 characters."},
		{"plural few", apperr.Count("text.too_long", 3), "Nejvýše 3 znaky.", "At most 3 characters."},
		{"a word as an argument", apperr.Msg("text.sentence", apperr.Msg("cod.whole_czk")),
			"Dobírka v CZK musí být v celých korunách.", "Cash on delivery in CZK must be a whole number."},
		{"the service's words", apperr.Literal("Carrier G9 is resting"), "Carrier G9 is resting", "Carrier G9 is resting"},
		{"a known code", apperr.Word("ret.status.", "processing"), "v opravě", "processing"},
		{"an unknown code", apperr.Word("ret.status.", "sleeping"), "sleeping", "sleeping"},
		{"joined", apperr.Join(apperr.Msg("form.required"), apperr.Text{}, apperr.Literal("And more.")),
			"Povinný údaj. And more.", "Required. And more."},
		{"nothing", apperr.Text{}, "", ""},
		{"a missing key shows itself", apperr.Msg("no.such.key"), "[no.such.key]", "[no.such.key]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.text.In(czech); got != c.cs {
				t.Errorf("Czech %q, want %q", got, c.cs)
			}
			if got := c.text.In(english); got != c.en {
				t.Errorf("English %q, want %q", got, c.en)
			}
			if got := c.text.String(); got != c.en {
				t.Errorf("String %q, want the English %q", got, c.en)
			}
		})
	}
}

// The edge says an error in the reader's language; the log reads English;
// an internal error never shows its text.
func TestErrorAtTheEdge(t *testing.T) {
	p := apperr.Problems{}
	p.Add("to_surname", "ship.err.recipient_name")
	p.Add("to_surname", "form.required") // the first problem of a field is the one shown
	p.Put("cod_value", apperr.Text{})    // no problem
	err := fmt.Errorf("order: %w", p.Err("form.see_fields"))
	if got := apperr.MessageOf(czech, err, ""); got != "Některé údaje je potřeba opravit: podívejte se na označená pole." {
		t.Errorf("Czech message %q", got)
	}
	if got := apperr.FieldsOf(czech, err); len(got) != 1 || got["to_surname"] != "Napište příjmení nebo firmu příjemce." {
		t.Errorf("Czech fields %q", got)
	}
	if got := err.Error(); got != "order: invalid: Some fields need attention: see the marked fields." {
		t.Errorf("log %q", got)
	}
	if (apperr.Problems{}).Err("form.see_fields") != nil {
		t.Error("no problems, yet an error")
	}

	internal := &apperr.Error{Code: apperr.Internal, Message: apperr.Literal("pq: relation does not exist")}
	if got := apperr.MessageOf(czech, internal, "error.unavailable"); got != i18n.T(czech, "error.unavailable") {
		t.Errorf("internal error shows %q", got)
	}
	if got := apperr.MessageOf(english, errors.New("EOF"), ""); got != "" {
		t.Errorf("plain error shows %q", got)
	}
}

// A text is stored as JSON and read back in whatever language the reader
// has then; text stored before (plain English) is shown as it is.
func TestTextIsStoredAndReadBack(t *testing.T) {
	for _, c := range []struct {
		name string
		text apperr.Text
	}{
		{"nested with a time", apperr.Msg("ship.err.waiting", apperr.Msg("ship.err.not_confirmed"), "14:05:09")},
		{"nested with a deadline", apperr.Msg("ship.err.waiting", apperr.Msg("ship.err.not_confirmed"), apperr.Deadline(time.Date(2026, 11, 26, 5, 39, 25, 0, time.UTC)))},
		{"numbers", apperr.Msg("rec.no_model", 7, int64(3))},
		{"a decimal", apperr.Msg("cod.minimum", 1.5, "EUR")},
		{"plural", apperr.Count("staff.throttle_here", 1)},
		{"the service's words", apperr.Literal("Label not available {for now}")},
		{"a word", apperr.Word("ret.status.", "outgoing")},
		{"joined", apperr.Join(apperr.Msg("form.required"), apperr.Literal("x"))},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := c.text.Value()
			if err != nil {
				t.Fatal(err)
			}
			var back apperr.Text
			if err := back.Scan(v); err != nil {
				t.Fatal(err)
			}
			for _, ctx := range []context.Context{czech, english} {
				if got, want := back.In(ctx), c.text.In(ctx); got != want {
					t.Errorf("read back %q, stored %q", got, want)
				}
			}
		})
	}
	var old apperr.Text
	if err := old.Scan([]byte("The service refused the order.")); err != nil || old.In(czech) != "The service refused the order." {
		t.Errorf("old text %q, %v", old.In(czech), err)
	}
	var none apperr.Text
	if err := none.Scan(nil); err != nil || !none.IsZero() {
		t.Errorf("NULL read as %#v, %v", none, err)
	}
	if v, _ := (apperr.Text{}).Value(); v != "" {
		t.Errorf("no text stored as %q", v)
	}
}

// A deadline is said in the shop's time zone whatever zone the moment was
// taken in, in the reader's language, rounded up to the minute: the same as
// the page writes the moment beside it.
func TestDeadlineIsSaidInTheShopsZone(t *testing.T) {
	at := time.Date(2026, 11, 26, 5, 39, 25, 0, time.UTC) // 06:39:25 in Prague
	v, _ := apperr.Msg("ret.err.waiting", apperr.Deadline(at)).Value()
	var back apperr.Text
	if err := back.Scan(v); err != nil {
		t.Fatal(err)
	}
	for ctx, want := range map[context.Context]string{czech: "26. 11. 2026 06:40", english: "26 Nov 2026, 06:40"} {
		got := back.In(i18n.WithZone(ctx, i18n.Prague))
		if !strings.Contains(got, want) || strings.Contains(got, "05:39") {
			t.Errorf("%q lacks %q", got, want)
		}
		if page := i18n.Deadline(ctx, at); page != want {
			t.Errorf("the page writes %q, the message %q", page, want)
		}
	}
}
