package textin

import (
	"net/url"

	"shipdesk/apperr"
)

// Fields reads the text fields of a form or a query into values, recording
// each field's first problem in problems (keyed by the field's name).
type Fields struct {
	values   url.Values
	problems apperr.Problems
}

// NewFields reads from v and records problems in problems (which must not be nil).
func NewFields(v url.Values, problems apperr.Problems) Fields {
	return Fields{values: v, problems: problems}
}

// Line reads a one-line field (see Line).
func (f Fields) Line(name string, limit int) string {
	s, problem := Line(f.values.Get(name), limit)
	f.note(name, problem)
	return s
}

// Lines reads a multi-line field (see Lines).
func (f Fields) Lines(name string, limit int) string {
	s, problem := Lines(f.values.Get(name), limit)
	f.note(name, problem)
	return s
}

func (f Fields) note(name string, problem apperr.Text) {
	f.problems.Put(name, problem)
}
