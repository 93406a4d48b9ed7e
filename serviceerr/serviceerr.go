// Package serviceerr maps a failed call to the service onto the one error type
// of the application (apperr), once for every desk: the service's field errors
// onto the form's fields, its refusals into a sentence, a failed link into a
// fixed message. What exactly failed ("EOF", "connection reset") is for the
// log only; the transport logs every failed call with it.
//
// Every text here is a key of the message catalog; the service's own messages
// are said by our catalog where we know them (Known), and shown as the
// service wrote them where we do not.
package serviceerr

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"shipdesk/apperr"
	"shipdesk/client/transport"
	"shipdesk/textin"
)

// Mapper is what one desk says about the service's failures, each a key of
// the message catalog.
type Mapper struct {
	Field func(path string) string // the form field of a field path in the service's answer
	// What happened to a call that did not succeed, said in three ways and
	// chosen here only: the service answered with an error (Failed, "%d" its
	// status), no answer came in time (NoAnswer), or the request was sent and
	// its answer lost on the way (Lost). A refusal of the request itself (4xx)
	// says the service's reason.
	NoAnswer string
	Lost     string
	Failed   string
	NotFound string // "Could not %s: …" when the service does not know the thing
	Refused  string // shown when the service refused our API key
}

// Unreadable is what a person reads when the service answered something we
// cannot read.
const Unreadable = "svc.unreadable"

// Map turns a failed call to the service into an apperr.Error; doing is the
// key of the step's phrase ("order the shipment"), said in "Could not %s: …".
func (m Mapper) Map(doing string, err error) error {
	var te *transport.Error
	if !errors.As(err, &te) {
		return fmt.Errorf("%s: %w", apperr.Msg(doing), err)
	}
	unavailable := func(t apperr.Text) error { return &apperr.Error{Code: apperr.Unavailable, Err: err, Message: t} }
	switch {
	case te.Kind == transport.KindTransport && te.Sent && !timedOut(te):
		return unavailable(apperr.Msg(m.Lost))
	case te.Kind == transport.KindTransport:
		return unavailable(apperr.Msg(m.NoAnswer))
	case te.Kind != transport.KindStatus:
		return unavailable(apperr.Msg(Unreadable))
	case te.Status == http.StatusTooManyRequests || te.Status >= 500:
		return unavailable(apperr.Msg(m.Failed, te.Status))
	case len(te.Fields) > 0:
		fields := apperr.Problems{}
		for _, fe := range te.Fields {
			name := m.Field(fe.Field)
			fields[name] = apperr.Join(fields[name], Said(fe.Message))
		}
		e := apperr.Fields("svc.see_fields", fields)
		if general, ok := fields["form"]; ok && len(fields) == 1 {
			e.Message = couldNot(doing, general) // nothing to mark: say it
		}
		e.Err = err
		return e
	case te.Status == http.StatusUnauthorized:
		return unavailable(apperr.Msg(m.Refused))
	case te.Status == http.StatusNotFound:
		return &apperr.Error{Code: apperr.NotFound, Err: err, Message: couldNot(doing, apperr.Msg(m.NotFound))}
	}
	msg := Said(te.Message)
	if te.Message == "" {
		msg = apperr.Msg("svc.status", te.Status)
	}
	return &apperr.Error{Code: apperr.Invalid, Err: err, Message: couldNot(doing, msg), Fields: apperr.Problems{"form": msg}}
}

// timedOut: the call gave up waiting for the answer (its time limit, or the
// person's request ended), rather than the connection breaking.
func timedOut(te *transport.Error) bool {
	var ne interface{ Timeout() bool }
	return errors.Is(te.Err, context.DeadlineExceeded) || errors.Is(te.Err, context.Canceled) ||
		(errors.As(te.Err, &ne) && ne.Timeout())
}

func couldNot(doing string, why apperr.Text) apperr.Text {
	return apperr.Msg("svc.could_not", apperr.Msg(doing), why)
}

// WithField is the same mapper for another form, whose fields field names.
func (m Mapper) WithField(field func(path string) string) Mapper {
	m.Field = field
	return m
}

// Known are the service's messages that we can say in the reader's language:
// those interfaces.md documents and those the sandbox sends as the service
// does (the COD rules are shared with it). A pattern is the message's exact
// text, or its text with a "%s" for each part that varies (an amount, a
// number): that part is kept as the service wrote it, unless WordsOf names
// it a code (a status) to say by the catalog's word. Messages not listed
// here are shown as the service wrote them. The service answers in Czech
// (our client asks for it, transport.AnswerLanguage) and in English when
// asked: each message is listed in both.
var Known = append(KnownEnglish, KnownCzech...)

var KnownEnglish = []struct{ Pattern, Key string }{
	// Label-free shipping (interfaces.md, Errors).
	{"Label-free shipping is available for only one carrier", "svc.label_less.carrier"},
	{"Label-free shipping requires exactly one package", "svc.label_less.packages"},
	{"Label-free shipping is available only within the Czech Republic", "svc.label_less.country"},
	{"Label-free shipping requires hand-over at a pickup point of the carrier", "svc.label_less.point"},
	// Package sizes at points (interfaces.md, Errors).
	{"The package size is too big for the pickup branch", "svc.too_big.pickup"},
	{"The package size is too big for the delivery branch", "svc.too_big.delivery"},
	// Maxima of a service, known only to the service.
	{"The maximum cash on delivery amount for this service is %s", "svc.cod.max"},
	{"The maximum insured value for this service is %s", "svc.insured.max"},
	{"The weight exceeds the maximum of %s kg of this service", "svc.weight.max"},
	// Cash on delivery (interfaces.md, Limits; the texts of the cod package).
	{"Cash on delivery is not available for this service", "cod.unavailable"},
	{"The minimum cash on delivery amount is %s", "svc.cod.min"},
	{"Cash on delivery in CZK must be a whole number", "cod.whole_czk"},
	{"Cash on delivery in EUR can have at most two decimals", "cod.eur_decimals"},
	{"Cash on delivery with this carrier is possible only for a single package", "cod.single.k1"},
	{"Cash on delivery with this carrier is possible only for a single package when a pickup or delivery point is used", "cod.single.k2"},
	{"Cash on delivery from the Czech Republic to Slovakia with this carrier is possible only for a single package", "cod.single.k3"},
	{"The bank account is required for cash on delivery", "cod.account.required"},
	{"The IBAN is not valid (check digits do not match)", "cod.iban.invalid"},
	{"The bank account must be a Czech account number (prefix-number) or an IBAN", "cod.account.shape"},
	{"The account number prefix is not valid (modulo 11 check failed)", "cod.account.prefix"},
	{"The account number is not valid (modulo 11 check failed)", "cod.account.mod11"},
	{"The account number is not valid", "cod.account.zero"},
	{"The bank code is required for a Czech account number", "cod.bank_code.required"},
	{"The bank code must be exactly four digits", "cod.bank_code.shape"},
	{"The bank code must be omitted when the account is an IBAN", "cod.bank_code.iban"},
	{"The variable symbol can have only digits, at most 10", "cod.variable"},
	// Pickup requests.
	{"Couriers do not collect on Saturdays and Sundays: choose a working day", "svc.pickup.weekend"},
	{"The pickup date cannot be in the past", "svc.pickup.past"},
	{"The window must end after it starts", "svc.pickup.window_order"},
	{"The window must be at least 2 hours long", "svc.pickup.window_short"},
	{"Too late for today: the window must end at least 2 hours from now", "svc.pickup.too_late"},
	{"Couriers collect between 07:00 and 18:00", "svc.pickup.hours"},
	{"The pickup date can be at most %s days ahead", "svc.pickup.ahead"},
	{"Carrier %s does not collect from a pickup address", "svc.pickup.no_collect"},
	// Addresses.
	{"A name or a company is required", "svc.address.name"},
	{"The street is required", "svc.address.street"},
	{"The city is required", "svc.address.city"},
	{"The postal code is required", "svc.address.zip"},
	{"A phone number or an e-mail is required", "svc.address.contact"},
	{"The e-mail address is not valid", "svc.address.email"},
	// Storno of a shipment the carrier already has.
	{"Shipment %s cannot be cancelled in state %s", "svc.storno.state"},
}

// KnownCzech are the same messages as the Czech service words them (the
// sandbox says them in the catalog's Czech, as the dashboard does).
var KnownCzech = []struct{ Pattern, Key string }{
	{"Zásilku bez štítku nabízí jen jeden dopravce", "svc.label_less.carrier"},
	{"Zásilka bez štítku musí mít právě jeden balík", "svc.label_less.packages"},
	{"Zásilku bez štítku lze poslat jen v rámci Česka", "svc.label_less.country"},
	{"Zásilku bez štítku je nutné podat na výdejním místě dopravce", "svc.label_less.point"},
	{"Balík je pro místo podání příliš velký", "svc.too_big.pickup"},
	{"Balík je pro výdejní místo příliš velký", "svc.too_big.delivery"},
	{"Nejvyšší částka dobírky u této služby je %s", "svc.cod.max"},
	{"Nejvyšší pojistná částka u této služby je %s", "svc.insured.max"},
	{"Hmotnost překračuje nejvyšší povolenou hmotnost této služby (%s kg)", "svc.weight.max"},
	{"Dobírka u této služby není k dispozici", "cod.unavailable"},
	{"Nejnižší částka dobírky je %s", "svc.cod.min"},
	{"Dobírka v CZK musí být v celých korunách", "cod.whole_czk"},
	{"Dobírka v EUR může mít nejvýše dvě desetinná místa", "cod.eur_decimals"},
	{"Dobírka je u tohoto dopravce možná jen u zásilky s jedním balíkem", "cod.single.k1"},
	{"Při podání nebo doručení na výdejní místo je dobírka u tohoto dopravce možná jen u zásilky s jedním balíkem", "cod.single.k2"},
	{"Dobírka z Česka na Slovensko je u tohoto dopravce možná jen u zásilky s jedním balíkem", "cod.single.k3"},
	{"Pro dobírku je potřeba bankovní účet", "cod.account.required"},
	{"IBAN není platný (nesouhlasí kontrolní číslice)", "cod.iban.invalid"},
	{"Bankovní účet musí být české číslo účtu (předčíslí-číslo) nebo IBAN", "cod.account.shape"},
	{"Předčíslí účtu není platné (neprošlo kontrolou modulo 11)", "cod.account.prefix"},
	{"Číslo účtu není platné (neprošlo kontrolou modulo 11)", "cod.account.mod11"},
	{"Číslo účtu není platné", "cod.account.zero"},
	{"U českého čísla účtu je potřeba kód banky", "cod.bank_code.required"},
	{"Kód banky musí mít přesně čtyři číslice", "cod.bank_code.shape"},
	{"U účtu ve tvaru IBAN se kód banky nevyplňuje", "cod.bank_code.iban"},
	{"Variabilní symbol smí obsahovat jen číslice, nejvýše 10", "cod.variable"},
	{"V sobotu a v neděli kurýři nesvážejí: vyberte pracovní den", "svc.pickup.weekend"},
	{"Datum svozu nemůže být v minulosti", "svc.pickup.past"},
	{"Časové okno musí skončit až po svém začátku", "svc.pickup.window_order"},
	{"Časové okno musí být dlouhé alespoň 2 hodiny", "svc.pickup.window_short"},
	{"Na dnešek je pozdě: okno musí končit nejdříve za 2 hodiny", "svc.pickup.too_late"},
	{"Kurýři svážejí mezi 07:00 a 18:00", "svc.pickup.hours"},
	{"Datum svozu může být nejvýše %s dní dopředu", "svc.pickup.ahead"},
	{"Dopravce %s nesváží z adresy svozu", "svc.pickup.no_collect"},
	{"Chybí jméno nebo firma", "svc.address.name"},
	{"Chybí ulice", "svc.address.street"},
	{"Chybí obec", "svc.address.city"},
	{"Chybí PSČ", "svc.address.zip"},
	{"Chybí telefon nebo e-mail", "svc.address.contact"},
	{"E-mailová adresa není platná", "svc.address.email"},
	{"Zásilku %s nelze stornovat ve stavu %s", "svc.storno.state"},
}

// WordsOf are, for a Known key, the catalog prefix of the word for each part
// that varies ("" keeps the part as written): a status is said in words.
var WordsOf = map[string][]string{
	"svc.storno.state": {"", "ship.status."},
}

// Said is a message of the service as a person reads it: the catalog's text
// when the message is Known, else the service's own words (made safe to show).
func Said(message string) apperr.Text {
	message = strings.TrimSpace(textin.ServiceText(message))
	for _, k := range Known {
		parts, ok := match(k.Pattern, message)
		if !ok {
			continue
		}
		args := make([]any, len(parts))
		words := WordsOf[k.Key]
		for i, p := range parts {
			args[i] = p
			if i < len(words) && words[i] != "" {
				args[i] = apperr.Word(words[i], p)
			}
		}
		return apperr.Msg(k.Key, args...)
	}
	return apperr.Literal(message)
}

// match reports whether message is pattern with each "%s" a part that is
// not empty, and returns those parts.
func match(pattern, message string) ([]string, bool) {
	fixed := strings.Split(pattern, "%s")
	if len(fixed) == 1 {
		return nil, message == pattern
	}
	if !strings.HasPrefix(message, fixed[0]) {
		return nil, false
	}
	rest, parts := message[len(fixed[0]):], []string{}
	for i, f := range fixed[1:] {
		var end int
		if i == len(fixed)-2 { // the last: what remains ends with it
			if len(rest) <= len(f) || !strings.HasSuffix(rest, f) {
				return nil, false
			}
			end = len(rest) - len(f)
		} else {
			j := strings.Index(rest[min(1, len(rest)):], f)
			if j < 0 || len(rest) == 0 {
				return nil, false
			}
			end = j + 1
		}
		parts = append(parts, rest[:end])
		rest = rest[end+len(f):]
	}
	return parts, true
}
