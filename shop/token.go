package shop

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
)

// Token is a shop's private API token as a manager pastes it. It is shown
// once, never again: whatever prints or logs it (fmt, slog, JSON) gets a
// mask, and it is kept sealed (Sealer). Reveal is the one way to the text,
// for the platform's client.
type Token struct{ s string }

// NewToken wraps the pasted text.
func NewToken(s string) Token { return Token{s: s} }

const mask = "••••••"

// Reveal is the token's text, for the request that carries it.
func (t Token) Reveal() string { return t.s }

// IsZero says no token was given.
func (t Token) IsZero() bool { return t.s == "" }

// String, GoString, Format, LogValue, MarshalText and MarshalJSON say the
// mask: no print, log line or JSON carries the token.
func (t Token) String() string               { return mask }
func (t Token) GoString() string             { return mask }
func (t Token) Format(f fmt.State, _ rune)   { _, _ = f.Write([]byte(mask)) }
func (t Token) LogValue() slog.Value         { return slog.StringValue(mask) }
func (t Token) MarshalText() ([]byte, error) { return []byte(mask), nil }
func (t Token) MarshalJSON() ([]byte, error) { return []byte(`"` + mask + `"`), nil }

// Sealer seals tokens at rest with AES-256-GCM under a key derived from the
// dashboard's session key, as the session cookie's keys are: a copy of the
// database alone carries no usable token.
type Sealer struct{ aead cipher.AEAD }

// NewSealer derives the sealing key from secret (the session key).
func NewSealer(secret []byte) (*Sealer, error) {
	if len(secret) < 32 {
		return nil, errors.New("shop: the session key is shorter than 32 bytes")
	}
	key := sha256.Sum256(append([]byte("shipdesk shop token\x00"), secret...))
	block, err := aes.NewCipher(key[:])
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

// Seal is the token sealed: a random nonce, then the sealed text.
func (s *Sealer) Seal(t Token) []byte { return seal(s.aead, t) }

func seal(aead cipher.AEAD, t Token) []byte {
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(t.s)+aead.Overhead())
	_, _ = rand.Read(nonce)
	return aead.Seal(nonce, nonce, []byte(t.s), []byte("shop token"))
}

// Open unseals a token Seal made; a token sealed under another key (the
// session key changed) is an error: the shop is connected anew.
func (s *Sealer) Open(sealed []byte) (Token, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return Token{}, errors.New("shop: sealed token too short")
	}
	plain, err := s.aead.Open(nil, sealed[:n], sealed[n:], []byte("shop token"))
	if err != nil {
		return Token{}, errors.New("shop: the token cannot be unsealed (the session key changed?)")
	}
	return Token{s: string(plain)}, nil
}
