package apperr

import "context"

// Problems maps form fields to what is wrong with them; the first problem of
// a field is the one shown.
type Problems map[string]Text

// Add records a problem of a field, the catalog's key and its arguments,
// unless the field has one already.
func (p Problems) Add(field, key string, args ...any) {
	p.Put(field, Msg(key, args...))
}

// Put records a problem said as a Text unless the field has one already or
// the text is empty.
func (p Problems) Put(field string, t Text) {
	if _, seen := p[field]; !seen && !t.IsZero() {
		p[field] = t
	}
}

// Err is nil without problems, else an Invalid error that a form shows field
// by field under the message of key.
func (p Problems) Err(key string) error {
	if len(p) == 0 {
		return nil
	}
	return Fields(key, p)
}

// In says every problem in the language of ctx; nil without problems.
func (p Problems) In(ctx context.Context) map[string]string {
	if len(p) == 0 {
		return nil
	}
	out := make(map[string]string, len(p))
	for field, t := range p {
		out[field] = t.In(ctx)
	}
	return out
}
