package staff

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"shipdesk/apperr"
)

// Password rules: long enough to resist guessing, short enough for bcrypt, which
// ignores everything after 72 bytes.
const (
	MinPasswordLength = 10
	MaxPasswordBytes  = 72
)

// CheckPasswordRules returns an Invalid error when p is unfit as a password.
func CheckPasswordRules(p string) error {
	switch {
	case utf8.RuneCountInString(p) < MinPasswordLength:
		return apperr.Fields("staff.password_longer", apperr.Problems{"password": apperr.Count("staff.password_min", MinPasswordLength)})
	case len(p) > MaxPasswordBytes:
		return apperr.Fields("staff.password_shorter", apperr.Problems{"password": apperr.Count("staff.password_max", MaxPasswordBytes)})
	}
	return nil
}

// hasher hashes and checks passwords with bcrypt at a configurable cost (tests use
// the minimum so they stay fast).
type hasher struct{ cost int }

func (h hasher) hash(p string) (string, error) {
	b, err := bcrypt.GenerateFromPassword([]byte(p), h.cost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(b), nil
}

// matches reports whether p is the password of hash.
func (h hasher) matches(hash, p string) (bool, error) {
	err := bcrypt.CompareHashAndPassword([]byte(hash), []byte(p))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, bcrypt.ErrMismatchedHashAndPassword):
		return false, nil
	default:
		return false, fmt.Errorf("check password: %w", err)
	}
}
