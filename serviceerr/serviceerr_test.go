package serviceerr_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"syscall"
	"testing"

	"shipdesk/apperr"
	"shipdesk/client/transport"
	"shipdesk/i18n"
	"shipdesk/serviceerr"
)

var (
	czech   = i18n.WithLang(context.Background(), i18n.Czech)
	english = i18n.WithLang(context.Background(), i18n.English)
)

// Every message we know is in the catalog, its English is the service's own
// text (so nothing changes for an English reader), and its Czech is Czech.
func TestKnownMessagesAreTheServicesWords(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range serviceerr.KnownEnglish {
		t.Run(k.Key, func(t *testing.T) {
			if !i18n.Has(k.Key) {
				t.Fatalf("%s is not in the catalog", k.Key)
			}
			if seen[k.Pattern] {
				t.Errorf("%q is listed twice", k.Pattern)
			}
			seen[k.Pattern] = true
			var args []any
			for range strings.Count(k.Pattern, "%s") {
				args = append(args, "42 CZK")
			}
			service := strings.ReplaceAll(k.Pattern, "%s", "42 CZK")
			if got := serviceerr.Said(service); got.Key != k.Key || got.IsLiteral() {
				t.Fatalf("Said(%q) = %#v, want the key %s", service, got, k.Key)
			}
			// A message with a code said in words (WordsOf) has English of
			// our own, to read with the word; the others are the service's.
			if en := apperr.Msg(k.Key, args...).In(english); en != service && serviceerr.WordsOf[k.Key] == nil {
				t.Errorf("English %q, the service says %q", en, service)
			}
			if cs := apperr.Msg(k.Key, args...).In(czech); cs == service || (len(args) > 0 && !strings.Contains(cs, "42 CZK")) {
				t.Errorf("Czech %q", cs)
			}
		})
	}
}

// The Czech service's messages are known too: each is in the catalog, its
// Czech is the service's own text (a Czech reader reads what the service
// said), and an English reader reads English.
func TestKnownCzechMessagesAreTheServicesWords(t *testing.T) {
	seen := map[string]bool{}
	inEnglish := map[string]bool{}
	for _, k := range serviceerr.KnownEnglish {
		inEnglish[k.Key] = true
	}
	for _, k := range serviceerr.KnownCzech {
		t.Run(k.Key, func(t *testing.T) {
			if !inEnglish[k.Key] {
				t.Errorf("%s is known in Czech only", k.Key)
			}
			if seen[k.Pattern] {
				t.Errorf("%q is listed twice", k.Pattern)
			}
			seen[k.Pattern] = true
			var args []any
			for range strings.Count(k.Pattern, "%s") {
				args = append(args, "42 CZK")
			}
			service := strings.ReplaceAll(k.Pattern, "%s", "42 CZK")
			if got := serviceerr.Said(service); got.Key != k.Key || got.IsLiteral() {
				t.Fatalf("Said(%q) = %#v, want the key %s", service, got, k.Key)
			}
			if cs := apperr.Msg(k.Key, args...).In(czech); cs != service && serviceerr.WordsOf[k.Key] == nil {
				t.Errorf("Czech %q, the service says %q", cs, service)
			}
			if en := apperr.Msg(k.Key, args...).In(english); en == service {
				t.Errorf("English %q is the Czech service's text", en)
			}
		})
	}
	if len(serviceerr.KnownCzech) != len(serviceerr.KnownEnglish) {
		t.Errorf("%d messages known in Czech, %d in English", len(serviceerr.KnownCzech), len(serviceerr.KnownEnglish))
	}
}

func TestSaidInTheReadersLanguage(t *testing.T) {
	for _, c := range []struct{ service, cs, en string }{
		{"Label-free shipping requires exactly one package", "Zásilka bez štítku musí mít právě jeden balík",
			"Label-free shipping requires exactly one package"},
		{"The minimum cash on delivery amount is 30 CZK", "Nejnižší částka dobírky je 30 CZK",
			"The minimum cash on delivery amount is 30 CZK"},
		{"The weight exceeds the maximum of 31.5 kg of this service", "Hmotnost překračuje nejvyšší povolenou hmotnost této služby (31.5 kg)",
			"The weight exceeds the maximum of 31.5 kg of this service"},
		// A refused storno: the state said in words, the number as written.
		{"Shipment DR0000000042 cannot be cancelled in state ONPICKUP", "Zásilku DR0000000042 už nelze stornovat: je ve stavu „u kurýra ke svozu“.",
			"Shipment DR0000000042 can no longer be cancelled: it is “out for pickup”."},
		{"Shipment DR1 cannot be cancelled in state LOST", "Zásilku DR1 už nelze stornovat: je ve stavu „LOST“.",
			"Shipment DR1 can no longer be cancelled: it is “LOST”."},
		// The Czech service's words, said in the reader's language.
		{"Zásilka bez štítku musí mít právě jeden balík", "Zásilka bez štítku musí mít právě jeden balík",
			"Label-free shipping requires exactly one package"},
		{"Nejnižší částka dobírky je 30 CZK", "Nejnižší částka dobírky je 30 CZK", "The minimum cash on delivery amount is 30 CZK"},
		{"Zásilku DR0000000042 nelze stornovat ve stavu ONPICKUP", "Zásilku DR0000000042 už nelze stornovat: je ve stavu „u kurýra ke svozu“.",
			"Shipment DR0000000042 can no longer be cancelled: it is “out for pickup”."},
		// Not known: shown as the service wrote it, in either language.
		{"Shipment  cannot be cancelled in state ONPICKUP", "Shipment  cannot be cancelled in state ONPICKUP", "Shipment  cannot be cancelled in state ONPICKUP"},
		{"Carrier G9 does not deliver to HU", "Carrier G9 does not deliver to HU", "Carrier G9 does not deliver to HU"},
		{"The minimum cash on delivery amount is ", "The minimum cash on delivery amount is", "The minimum cash on delivery amount is"},
		{"Label-free shipping requires exactly one package, and more", "Label-free shipping requires exactly one package, and more",
			"Label-free shipping requires exactly one package, and more"},
		// Made safe to show: no control characters.
		{"Bad\x00 text", "Bad text", "Bad text"},
	} {
		t.Run(c.service, func(t *testing.T) {
			said := serviceerr.Said(c.service)
			if got := said.In(czech); got != c.cs {
				t.Errorf("Czech %q, want %q", got, c.cs)
			}
			if got := said.In(english); got != c.en {
				t.Errorf("English %q, want %q", got, c.en)
			}
		})
	}
}

var mapper = serviceerr.Mapper{
	Field: func(path string) string {
		if strings.HasSuffix(path, "label_less") {
			return "label_less"
		}
		return "form"
	},
	NoAnswer: "ship.err.no_answer",
	Lost:     "ship.err.answer_lost",
	Failed:   "ship.err.failed",
	NotFound: "ship.err.not_known",
	Refused:  "ship.err.refused",
}

// A refusal says its field problems, its message and the step ("doing") in
// the reader's language; the service's unknown words stay as it wrote them.
func TestMapSaysRefusalsInTheReadersLanguage(t *testing.T) {
	refusal := &transport.Error{Op: "shipments/create", Kind: transport.KindStatus, Status: 400, Message: "Validation failed",
		Fields: []transport.FieldError{
			{Field: "shipments[0].label_less", Message: "Label-free shipping requires exactly one package"},
			{Field: "shipments[0].label_less", Message: "A rule the service added later"},
		}}
	err := mapper.Map("ship.doing.order", refusal)
	if apperr.CodeOf(err) != apperr.Invalid || !errors.Is(err, refusal) {
		t.Fatalf("%v", err)
	}
	if got := apperr.FieldsOf(czech, err)["label_less"]; got != "Zásilka bez štítku musí mít právě jeden balík A rule the service added later" {
		t.Errorf("Czech field %q", got)
	}
	if got := apperr.FieldsOf(english, err)["label_less"]; got != "Label-free shipping requires exactly one package A rule the service added later" {
		t.Errorf("English field %q", got)
	}
	if got := apperr.MessageOf(czech, err, ""); got != "Služba požadavek odmítla: podívejte se na označená pole." {
		t.Errorf("Czech message %q", got)
	}
	if got := apperr.MessageOf(english, err, ""); got != "The service refused: see the marked fields." {
		t.Errorf("English message %q", got)
	}

	// Nothing to mark: the message says it, with the step.
	general := &transport.Error{Op: "shipments/create", Kind: transport.KindStatus, Status: 400,
		Fields: []transport.FieldError{{Message: "The package size is too big for the pickup branch"}}}
	err = mapper.Map("ship.doing.order", general)
	if got := apperr.MessageOf(czech, err, ""); got != "Nepodařilo se objednat zásilku: Balík je pro místo podání příliš velký" {
		t.Errorf("Czech message %q", got)
	}
	if got := apperr.MessageOf(english, err, ""); got != "Could not order the shipment: The package size is too big for the pickup branch" {
		t.Errorf("English message %q", got)
	}

	// A refusal without fields: the service's message, or its status.
	plain := &transport.Error{Op: "shipments/label", Kind: transport.KindStatus, Status: 400, Message: "Label not available for this shipment"}
	err = mapper.Map("ship.doing.label", plain)
	if got := apperr.MessageOf(czech, err, ""); got != "Nepodařilo se stáhnout štítek: Label not available for this shipment" {
		t.Errorf("Czech message %q", got)
	}
	if got := apperr.FieldsOf(english, err)["form"]; got != "Label not available for this shipment" {
		t.Errorf("English form problem %q", got)
	}
	err = mapper.Map("ship.doing.label", &transport.Error{Kind: transport.KindStatus, Status: 409})
	if got := apperr.MessageOf(english, err, ""); got != "Could not download the label: status 409" {
		t.Errorf("English message %q", got)
	}
}

func TestMapSaysFailuresInTheReadersLanguage(t *testing.T) {
	for _, c := range []struct {
		name   string
		err    error
		code   apperr.Code
		cs, en string
	}{
		{"no answer", &transport.Error{Kind: transport.KindTransport, Message: "no answer within 30s", Sent: true, Err: context.DeadlineExceeded}, apperr.Unavailable,
			"Přepravní služba neodpověděla včas. Zkuste to za chvíli znovu.",
			"The shipping service did not answer in time. Try again in a minute."},
		{"not reached", &transport.Error{Kind: transport.KindTransport, Message: "no answer from the service", Err: syscall.ECONNREFUSED}, apperr.Unavailable,
			"Přepravní služba neodpověděla včas. Zkuste to za chvíli znovu.",
			"The shipping service did not answer in time. Try again in a minute."},
		{"answer lost", &transport.Error{Kind: transport.KindTransport, Message: "no answer from the service", Sent: true, Err: io.EOF}, apperr.Unavailable,
			"Požadavek přepravní službě odešel, ale její odpověď se cestou ztratila: není známo, co služba udělala. Zkuste to za chvíli znovu.",
			"The request was sent to the shipping service, but its answer was lost on the way: what the service did is not known. Try again in a minute."},
		{"failed", &transport.Error{Kind: transport.KindStatus, Status: 503, Message: "Service temporarily unavailable"}, apperr.Unavailable,
			"Přepravní služba selhala: místo výsledku odpověděla chybou 503. Zkuste to za chvíli znovu.",
			"The shipping service failed: it answered with error 503 instead of a result. Try again in a minute."},
		{"unreadable", &transport.Error{Kind: transport.KindDecode, Status: 200, Message: "not a JSON object"}, apperr.Unavailable,
			"Služba odpověděla, ale její odpověď nelze přečíst. Zkuste to za chvíli znovu.",
			"The service answered, but its answer could not be read. Try again in a minute."},
		{"not found", &transport.Error{Kind: transport.KindStatus, Status: 404, Message: "Not Found"}, apperr.NotFound,
			"Nepodařilo se stáhnout štítek: služba tuto zásilku (zatím) nezná.",
			"Could not download the label: the service does not know this shipment (yet)."},
		{"key refused", &transport.Error{Kind: transport.KindStatus, Status: 401, Message: "Unauthorized"}, apperr.Unavailable,
			"Přepravní služba odmítla náš klíč API: ať vedoucí zkontroluje stránku Spojení.",
			"The shipping service refused our API key: a manager should check the Connection page."},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := mapper.Map("ship.doing.label", c.err)
			if apperr.CodeOf(err) != c.code {
				t.Errorf("code %s, want %s", apperr.CodeOf(err), c.code)
			}
			if got := apperr.MessageOf(czech, err, ""); got != c.cs {
				t.Errorf("Czech %q, want %q", got, c.cs)
			}
			if got := apperr.MessageOf(english, err, ""); got != c.en {
				t.Errorf("English %q, want %q", got, c.en)
			}
		})
	}
	// Not a failure of the service: an internal error, for the log (in English).
	err := mapper.Map("ship.doing.label", errors.New("boom"))
	if apperr.CodeOf(err) != apperr.Internal || err.Error() != "download the label: boom" || apperr.MessageOf(czech, err, "") != "" {
		t.Errorf("%v", err)
	}
}
