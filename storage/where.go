package storage

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// conditions builds the WHERE clause of a list query with numbered arguments.
type conditions struct {
	parts []string
	args  []any
	text  int // 1 + the place in parts of the condition contains added; 0: none
}

// arg adds an argument and returns its placeholder.
func (c *conditions) arg(v any) string {
	c.args = append(c.args, v)
	return "$" + strconv.Itoa(len(c.args))
}

// add adds a condition.
func (c *conditions) add(cond string) { c.parts = append(c.parts, cond) }

// equal adds column = value when value is set.
func (c *conditions) equal(column, value string) {
	if value != "" {
		c.add(column + " = " + c.arg(value))
	}
}

// prefix adds "column starts with value" when value is set (an index with
// text_pattern_ops on column serves it).
func (c *conditions) prefix(column, value string) {
	if value != "" {
		c.add(column + " LIKE " + c.arg(likeEscape(value)+"%"))
	}
}

// created adds the creation-date range [from, to).
func (c *conditions) created(from, to time.Time) {
	if !from.IsZero() {
		c.add("created_at >= " + c.arg(from))
	}
	if !to.IsZero() {
		c.add("created_at < " + c.arg(to))
	}
}

// contains adds "lowered holds text" (a trigram index serves it): lowered
// is a lowered column or expression, and text is lowered to match.
func (c *conditions) contains(lowered, text string) {
	if t := strings.ToLower(strings.TrimSpace(text)); t != "" {
		c.add(lowered + " LIKE " + c.arg("%"+likeEscape(t)+"%"))
		c.text = len(c.parts)
	}
}

func (c *conditions) where() string {
	if len(c.parts) == 0 {
		return "true"
	}
	return strings.Join(c.parts, " AND ")
}

// hasText says whether contains added a condition.
func (c *conditions) hasText() bool { return c.text != 0 }

// split is the condition contains added ("" when none) and the others.
func (c *conditions) split() (text, others string) {
	if c.text == 0 {
		return "", c.where()
	}
	rest := *c
	rest.parts = append(slices.Clone(c.parts[:c.text-1]), c.parts[c.text:]...)
	return c.parts[c.text-1], rest.where()
}
