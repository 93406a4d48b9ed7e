package shipping

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
)

// money is an amount with its currency. Real clients send the value as a JSON
// number or as a numeric string ("500", "500.5"); both are accepted.
type money struct {
	Value    float64 `json:"value"`
	Currency string  `json:"currency"`
}

// numericString is a plain decimal: no exponent, hex, NaN or Inf, which
// strconv.ParseFloat would otherwise let through.
var numericString = regexp.MustCompile(`^-?\d+(\.\d+)?$`)

// errMoneyValue is a Money value that is neither a number nor a numeric string.
type errMoneyValue struct{ got string }

func (e *errMoneyValue) Error() string {
	return fmt.Sprintf("the amount must be a number or a numeric string such as \"500\", not %s", e.got)
}

func (m *money) UnmarshalJSON(b []byte) error {
	var raw struct {
		Value    json.RawMessage `json:"value"`
		Currency string          `json:"currency"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	m.Currency = raw.Currency
	v, err := parseAmount(raw.Value)
	if err != nil {
		return err
	}
	m.Value = v
	return nil
}

// parseAmount reads a JSON number or a numeric string; absent or null is 0.
func parseAmount(raw json.RawMessage) (float64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	text := string(raw)
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &text); err != nil || !numericString.MatchString(text) {
			return 0, &errMoneyValue{got: string(raw)}
		}
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, &errMoneyValue{got: string(raw)}
	}
	return v, nil
}
