// Package textin reads what people type and what the service sends, so that no
// value can break a page or a record: text must be readable UTF-8 without
// control characters and is measured in characters, numbers must be finite and
// in range, currencies must be ISO 4217 codes.
package textin

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"shipdesk/apperr"
)

// Messages of the checks, shown next to the field: keys of the catalog.
const (
	Unreadable = "text.unreadable"
	Control    = "text.control"
	TooLong    = "text.too_long"
)

// IsUnreadable says the problem is the characters themselves (broken UTF-8 or
// control characters), not the length: a filter or search cannot use the value.
func IsUnreadable(problem apperr.Text) bool {
	return problem.Key == Unreadable || problem.Key == Control
}

// Line reads a one-line field: trimmed, readable UTF-8, no control characters,
// at most limit characters. It returns what to keep (on a problem, the value
// made safe to show and store, cut to limit) and the problem, none when none.
func Line(s string, limit int) (string, apperr.Text) {
	return read(s, limit, false)
}

// Lines reads a multi-line field (a textarea): as Line, but tab and line
// breaks are allowed; "\r\n" becomes "\n".
func Lines(s string, limit int) (string, apperr.Text) {
	return read(strings.ReplaceAll(s, "\r\n", "\n"), limit, true)
}

func read(s string, limit int, multiline bool) (string, apperr.Text) {
	s = strings.TrimSpace(s) // a pasted value's edges are not the person's text
	var problem apperr.Text
	switch {
	case !utf8.ValidString(s):
		problem = apperr.Msg(Unreadable)
	case strings.ContainsFunc(s, func(r rune) bool { return !allowed(r, multiline) }):
		problem = apperr.Msg(Control)
	}
	if !problem.IsZero() {
		s = strings.TrimSpace(Safe(s, multiline))
	}
	if cut, over := Cut(s, limit); over {
		s = cut
		if problem.IsZero() {
			problem = apperr.Count(TooLong, limit)
		}
	}
	return s, problem
}

// Cut keeps at most limit characters (never half of one); over says it cut.
func Cut(s string, limit int) (string, bool) {
	if utf8.RuneCountInString(s) <= limit {
		return s, false
	}
	n := 0
	for i := range s {
		if n == limit {
			return s[:i], true
		}
		n++
	}
	return s, false
}

// Safe drops what cannot be stored or shown: bytes that are not UTF-8 and
// control characters (keeping tab and line breaks when multiline).
func Safe(s string, multiline bool) string {
	s = strings.ToValidUTF8(s, "")
	return strings.Map(func(r rune) rune {
		if !allowed(r, multiline) {
			return -1
		}
		return r
	}, s)
}

// allowed: printable text, and tab and line breaks in a multi-line field.
// Control characters include NUL, which PostgreSQL refuses in text and jsonb.
func allowed(r rune, multiline bool) bool {
	switch {
	case r == '\t' || r == '\n':
		return multiline
	case r == utf8.RuneError:
		return true // a real U+FFFD; broken bytes are caught before
	}
	return !unicode.IsControl(r) && r != '\u2028' && r != '\u2029'
}

// Valid says whether s may be kept as Line keeps it, without a problem:
// readable, one line, at most limit characters.
func Valid(s string, limit int) bool {
	_, problem := Line(s, limit)
	return problem.IsZero()
}
