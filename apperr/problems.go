package apperr

import "fmt"

// Problems maps form fields to what is wrong with them; the first problem of
// a field is the one shown.
type Problems map[string]string

// Add records a problem of a field unless it has one already.
func (p Problems) Add(field, format string, args ...any) {
	if _, seen := p[field]; !seen {
		p[field] = fmt.Sprintf(format, args...)
	}
}

// Err is nil without problems, else an Invalid error that a form shows field
// by field under message.
func (p Problems) Err(message string) error {
	if len(p) == 0 {
		return nil
	}
	return Fields(message, p)
}
