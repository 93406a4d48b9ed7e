// Package apperr is the one error type of the application: a code that says what
// kind of failure it is and a message fit for a person. Domain code says the
// message by a key of the message catalog (Text); the edge (handlers, the
// command line) maps codes to statuses and says the message in the reader's
// language; internal errors are logged and shown as a generic apology instead.
package apperr

import (
	"context"
	"errors"
	"fmt"
	"time"
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
	Message Text
	// Fields maps form field names to what is wrong with them.
	Fields Problems
	// Err is the underlying cause, for logs.
	Err error
	// Wait, of a TooMany error, is how long until the same request would be
	// admitted (0: not known): the edge says it as Retry-After.
	Wait time.Duration
}

// Error is for logs: the message in English.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// New makes an error with a code and a message for a person: the catalog's
// key and its arguments.
func New(code Code, key string, args ...any) *Error {
	return &Error{Code: code, Message: Msg(key, args...)}
}

// With makes an error with a code and a message already said as a Text.
func With(code Code, message Text) *Error {
	return &Error{Code: code, Message: message}
}

// Fields makes an Invalid error about form fields, with the message of key.
func Fields(key string, fields Problems) *Error {
	return &Error{Code: Invalid, Message: Msg(key), Fields: fields}
}

// Throttled makes a TooMany error that says when to come back: after wait.
func Throttled(wait time.Duration, message Text) *Error {
	return &Error{Code: TooMany, Message: message, Wait: wait}
}

// WaitOf is how long a throttled request must wait (Error.Wait), 0 when err
// says nothing of it.
func WaitOf(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) && e.Code == TooMany {
		return e.Wait
	}
	return 0
}

// CodeOf returns the code of the first *Error in err's chain, Internal otherwise.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// TextOf returns the person-facing message of err, none for errors that carry
// none (internal errors must never show their text).
func TextOf(err error) Text {
	var e *Error
	if errors.As(err, &e) && e.Code != Internal {
		return e.Message
	}
	return Text{}
}

// MessageOf says the person-facing message of err in the language of ctx, or
// the catalog's text of fallbackKey for errors that carry none ("" for no
// fallback).
func MessageOf(ctx context.Context, err error, fallbackKey string) string {
	if t := TextOf(err); !t.IsZero() {
		return t.In(ctx)
	}
	if fallbackKey == "" {
		return ""
	}
	return Msg(fallbackKey).In(ctx)
}

// ProblemsOf returns the field problems of err, if any.
func ProblemsOf(err error) Problems {
	var e *Error
	if errors.As(err, &e) {
		return e.Fields
	}
	return nil
}

// FieldsOf says the field problems of err in the language of ctx, if any.
func FieldsOf(ctx context.Context, err error) map[string]string {
	return ProblemsOf(err).In(ctx)
}

// Is reports whether err carries the code.
func Is(err error, code Code) bool { return err != nil && CodeOf(err) == code }
