package transport

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// FieldError is one problem the service attached to a request field, named by a
// path such as "shipments[0].label_less"; a general error has no field. An
// interface that names its errors by a code (Shoptet's errorCode and
// instance) fills Code and Instance: for logs and for the client that
// classifies them, never for a person.
type FieldError struct {
	Field    string `json:"field"`
	Message  string `json:"message"`
	Code     string `json:"errorCode,omitempty"`
	Instance string `json:"instance,omitempty"`
}

// Kind says what went wrong with a call.
type Kind int

const (
	// KindStatus: the service answered with an error status and envelope.
	KindStatus Kind = iota + 1
	// KindTransport: no answer arrived (connection refused, reset, timeout).
	KindTransport
	// KindDecode: an answer arrived but is not the documented shape.
	KindDecode
)

// Error is every failure of an upstream call. It keeps the HTTP status, the
// service's message and its field errors so the dashboard can show each one
// next to the field it concerns.
type Error struct {
	Op      string // operation, e.g. "shipments/create"
	Kind    Kind
	Status  int    // HTTP status; 0 when no answer arrived
	Message string // the service's message, or what was wrong with the answer
	Fields  []FieldError
	// Sent is true when the request may have reached the service: a transport
	// failure after the request was written leaves the outcome unknown.
	Sent bool
	Err  error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Op)
	switch e.Kind {
	case KindStatus:
		fmt.Fprintf(&b, ": %d", e.Status)
		if e.Message != "" {
			b.WriteString(" " + e.Message)
		}
		for _, f := range e.Fields {
			if f.Code != "" {
				fmt.Fprintf(&b, "; %s (%s): %s", f.Code, f.Instance, f.Message)
			} else if f.Field != "" {
				fmt.Fprintf(&b, "; %s: %s", f.Field, f.Message)
			} else {
				fmt.Fprintf(&b, "; %s", f.Message)
			}
		}
	case KindDecode:
		fmt.Fprintf(&b, ": unexpected answer (HTTP %d): %s", e.Status, e.Message)
	default:
		b.WriteString(": " + e.Message)
	}
	if e.Err != nil && e.Kind != KindStatus {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

func asError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// StatusOf is the HTTP status of a failed call, 0 when there was no answer.
func StatusOf(err error) int {
	if e, ok := asError(err); ok {
		return e.Status
	}
	return 0
}

// IsUnauthorized: the key is missing or not valid for the operation.
func IsUnauthorized(err error) bool { return StatusOf(err) == http.StatusUnauthorized }

// IsNotFound: the service does not know the thing (or it is not ours).
func IsNotFound(err error) bool { return StatusOf(err) == http.StatusNotFound }

// IsInvalid: the service refused the data (400 or 422).
func IsInvalid(err error) bool {
	s := StatusOf(err)
	return s == http.StatusBadRequest || s == http.StatusUnprocessableEntity
}

// HasFieldErrors: the service named at least one field.
func HasFieldErrors(err error) bool { return len(FieldErrors(err)) > 0 }

// FieldErrors returns the field errors of a refusal, general ones included.
func FieldErrors(err error) []FieldError {
	if e, ok := asError(err); ok {
		return e.Fields
	}
	return nil
}

// IsOutcomeUnknown: the request may have reached the service but no answer
// came back, so a non-idempotent operation may or may not have happened.
func IsOutcomeUnknown(err error) bool {
	e, ok := asError(err)
	return ok && e.Kind == KindTransport && e.Sent
}

// IsTemporary: trying again later may succeed (no answer, 429, 423 Locked:
// the same request still being processed, or 5xx).
func IsTemporary(err error) bool {
	e, ok := asError(err)
	if !ok {
		return false
	}
	return e.Kind == KindTransport || e.Status == http.StatusTooManyRequests || e.Status == http.StatusLocked || e.Status >= 500
}

// IsRefused reports whether the service answered and did nothing: a 4xx other
// than timeout and throttling. After any other failure of a create, the order
// may exist and must be reconciled before it is sent again.
func IsRefused(err error) bool {
	e, ok := asError(err)
	return ok && e.Kind == KindStatus && e.Status >= 400 && e.Status < 500 &&
		e.Status != http.StatusRequestTimeout && e.Status != http.StatusTooManyRequests
}
