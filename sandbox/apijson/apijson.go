// Package apijson writes and reads the JSON envelope every sandbox interface uses:
// {status, message, data} on success and {status, message, errors[{field, message}]}
// on failure, the status always equal to the HTTP status (public-evidence.md).
package apijson

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// FieldError names the request field a problem concerns, as a path such as
// "shipments[0].label_less". A general error has no field.
type FieldError struct {
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// Envelope is the body of every answer.
type Envelope struct {
	Status  int          `json:"status"`
	Message string       `json:"message"`
	Data    any          `json:"data,omitempty"`
	Errors  []FieldError `json:"errors,omitempty"`
}

// Problem is a refusal to be written as an error envelope.
type Problem struct {
	Status  int
	Message string
	Errors  []FieldError
}

func (p *Problem) Error() string {
	if len(p.Errors) == 0 {
		return fmt.Sprintf("%d %s", p.Status, p.Message)
	}
	parts := make([]string, 0, len(p.Errors))
	for _, e := range p.Errors {
		parts = append(parts, e.Field+": "+e.Message)
	}
	return fmt.Sprintf("%d %s (%s)", p.Status, p.Message, strings.Join(parts, "; "))
}

// Invalid is a 400 with field errors.
func Invalid(errs ...FieldError) *Problem {
	return &Problem{Status: http.StatusBadRequest, Message: "Validation failed", Errors: errs}
}

// Fail is a problem without fields.
func Fail(status int, message string) *Problem {
	return &Problem{Status: status, Message: message}
}

// Write sends a success envelope with data.
func Write(w http.ResponseWriter, status int, message string, data any) {
	WriteRaw(w, status, Envelope{Status: status, Message: message, Data: data})
}

// WriteProblem sends an error envelope.
func WriteProblem(w http.ResponseWriter, p *Problem) {
	WriteRaw(w, p.Status, Envelope{Status: p.Status, Message: p.Message, Errors: p.Errors})
}

// WriteRaw sends any JSON value (for answers whose top level is not the plain
// envelope, such as rates/get with its top-level "rates" list).
func WriteRaw(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	_ = enc.Encode(body)
}

// Decode reads a JSON request body of at most maxBytes into dst. Malformed JSON,
// a wrong type or trailing data give a 400 naming the field; an oversized body a 413.
// Unknown fields are ignored, as real integrations send extra ones.
func Decode(w http.ResponseWriter, r *http.Request, maxBytes int64, dst any) *Problem {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		return Fail(http.StatusUnsupportedMediaType, "Content-Type must be application/json")
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBytes))
	if err := dec.Decode(dst); err != nil {
		return decodeProblem(err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return Invalid(FieldError{Message: "request body must hold exactly one JSON value"})
	}
	return nil
}

func decodeProblem(err error) *Problem {
	var (
		maxErr    *http.MaxBytesError
		syntaxErr *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &maxErr):
		return &Problem{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("request body is larger than %d bytes", maxErr.Limit)}
	case errors.Is(err, io.EOF):
		return Invalid(FieldError{Message: "request body is empty; a JSON object is required"})
	case errors.As(err, &syntaxErr):
		return Invalid(FieldError{Message: fmt.Sprintf("malformed JSON at byte %d", syntaxErr.Offset)})
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Invalid(FieldError{Message: "malformed JSON: the body ends too early"})
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			field = "body"
		}
		return Invalid(FieldError{Field: jsonPath(field), Message: fmt.Sprintf("must be %s, not %s", article(typeErr.Type.Kind().String()), typeErr.Value)})
	default:
		return Invalid(FieldError{Message: "malformed request body: " + err.Error()})
	}
}

// jsonPath turns a dotted path with numeric parts ("shipments.0.packages") into
// "shipments[0].packages"; encoding/json itself names the field without indices.
func jsonPath(field string) string {
	parts := strings.Split(field, ".")
	var b strings.Builder
	for i, p := range parts {
		if p != "" && strings.Trim(p, "0123456789") == "" && i > 0 {
			b.WriteString("[" + p + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

func article(kind string) string {
	switch kind {
	case "int", "int64", "int32", "float64", "float32", "uint", "uint64":
		return "a number"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "a list"
	case "map", "struct":
		return "an object"
	case "string":
		return "a string"
	}
	return "a " + kind
}
