// Package requestkey makes and checks the request keys that make a form's post
// happen once: a random UUID (version 4) in each form, stored with the intent.
package requestkey

import (
	"crypto/rand"
	"encoding/hex"
	"regexp"
)

// New makes a key for a fresh form.
func New() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var k [36]byte
	hex.Encode(k[0:8], b[0:4])
	k[8] = '-'
	hex.Encode(k[9:13], b[4:6])
	k[13] = '-'
	hex.Encode(k[14:18], b[6:8])
	k[18] = '-'
	hex.Encode(k[19:23], b[8:10])
	k[23] = '-'
	hex.Encode(k[24:36], b[10:16])
	return string(k[:])
}

var shape = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// Valid reports whether s has the shape of a key (lower-case hex).
func Valid(s string) bool { return shape.MatchString(s) }
