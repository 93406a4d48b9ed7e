// Package apperr is the one error type of the application: a code that says what
// kind of failure it is and a message fit for a person. The edge (handlers, the
// command line) maps codes to statuses and shows the message; internal errors are
// logged and shown as a generic apology instead.
package apperr

import (
	"errors"
	"fmt"
)

// Code classifies an error.
type Code string

const (
	Invalid      Code = "invalid"      // the input is wrong; Fields says where
	NotFound     Code = "not_found"    // the thing does not exist (or is not yours)
	Conflict     Code = "conflict"     // it exists already or the state forbids the change
	Unauthorized Code = "unauthorized" // not signed in, or wrong credentials
	Forbidden    Code = "forbidden"    // signed in, but the role may not do this
	TooMany      Code = "too_many"     // throttled; try again later
	Unavailable  Code = "unavailable"  // a dependency (database, upstream) is down
	Internal     Code = "internal"     // a bug or an unexpected failure
)

// Error is an error with a code and a message for a person.
type Error struct {
	Code    Code
	Message string
	// Fields maps form field names to what is wrong with them.
	Fields map[string]string
	// Err is the underlying cause, for logs.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// New makes an error with a code and a message for a person.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Fields makes an Invalid error about form fields.
func Fields(message string, fields map[string]string) *Error {
	return &Error{Code: Invalid, Message: message, Fields: fields}
}

// CodeOf returns the code of the first *Error in err's chain, Internal otherwise.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// MessageOf returns the person-facing message of err, or fallback for errors
// that carry none (internal errors must never show their text).
func MessageOf(err error, fallback string) string {
	var e *Error
	if errors.As(err, &e) && e.Code != Internal && e.Message != "" {
		return e.Message
	}
	return fallback
}

// FieldsOf returns the field errors of err, if any.
func FieldsOf(err error) map[string]string {
	var e *Error
	if errors.As(err, &e) {
		return e.Fields
	}
	return nil
}

// Is reports whether err carries the code.
func Is(err error, code Code) bool { return err != nil && CodeOf(err) == code }
