// Package serviceerr maps a failed call to the service onto the one error type
// of the application (apperr), once for every desk: the service's field errors
// onto the form's fields, its refusals into a sentence, a failed link into a
// fixed message. What exactly failed ("EOF", "connection reset") is for the
// log only; the transport logs every failed call with it.
package serviceerr

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"shipdesk/apperr"
	"shipdesk/client/transport"
)

// Mapper is what one desk says about the service's failures.
type Mapper struct {
	Field    func(path string) string // the form field of a field path in the service's answer
	NoAnswer string                   // shown when the link failed
	NotFound string                   // "Could not %s: …" when the service does not know the thing
	Refused  string                   // shown when the service refused our API key
}

// Map turns a failed call to the service into an apperr.Error; doing names the
// step for the person ("order the shipment").
func (m Mapper) Map(doing string, err error) error {
	var te *transport.Error
	if !errors.As(err, &te) {
		return fmt.Errorf("%s: %w", doing, err)
	}
	switch {
	case transport.IsTemporary(err) || te.Kind != transport.KindStatus:
		return &apperr.Error{Code: apperr.Unavailable, Err: err, Message: m.NoAnswer}
	case len(te.Fields) > 0:
		fields := apperr.Problems{}
		for _, fe := range te.Fields {
			name := m.Field(fe.Field)
			fields[name] = strings.TrimSpace(fields[name] + " " + fe.Message)
		}
		e := apperr.Fields("The service refused: see the marked fields.", fields)
		if general, ok := fields["form"]; ok && len(fields) == 1 {
			e.Message = fmt.Sprintf("Could not %s: %s", doing, general) // nothing to mark: say it
		}
		e.Err = err
		return e
	case te.Status == http.StatusUnauthorized:
		return &apperr.Error{Code: apperr.Unavailable, Err: err, Message: m.Refused}
	case te.Status == http.StatusNotFound:
		return &apperr.Error{Code: apperr.NotFound, Err: err, Message: fmt.Sprintf("Could not %s: %s", doing, m.NotFound)}
	}
	msg := te.Message
	if msg == "" {
		msg = fmt.Sprintf("status %d", te.Status)
	}
	return &apperr.Error{Code: apperr.Invalid, Err: err, Message: fmt.Sprintf("Could not %s: %s", doing, msg), Fields: map[string]string{"form": msg}}
}

// WithField is the same mapper for another form, whose fields field names.
func (m Mapper) WithField(field func(path string) string) Mapper {
	m.Field = field
	return m
}
