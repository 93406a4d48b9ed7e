// Package requestkey makes and checks the request keys that make a form's post
// happen once: a random UUID (version 4) in each form, stored with the intent.
package requestkey

import (
	"crypto/rand"
	"fmt"
	"regexp"
)

// New makes a key for a fresh form.
func New() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

var shape = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// Valid reports whether s has the shape of a key (lower-case hex).
func Valid(s string) bool { return shape.MatchString(s) }
