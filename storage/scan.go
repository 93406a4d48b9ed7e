package storage

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Scan finds shipments by what a scanner or a person typed: an exact tracking
// number, package number or reference; otherwise tracking numbers and
// references that start with it (a reference in any case, and with spaces
// or dashes where it has others: "OBJ 1001" finds "OBJ-1001"), and tracking
// numbers that end in the digits typed ("100000004"). Every branch is an
// index lookup.
func (db *DB) Scan(ctx context.Context, code string, limit int) ([]Shipment, bool, error) {
	code = strings.TrimSpace(code)
	if code == "" {
		return nil, false, nil
	}
	var exact []Shipment
	err := sqlxSelect(ctx, db, &exact, `
SELECT `+shipmentColumns+` FROM shipments WHERE tracking_number = $1
UNION
SELECT `+shipmentColumns+` FROM shipments WHERE packages @> jsonb_build_array(jsonb_build_object('number', $1::text))
UNION
SELECT `+shipmentColumns+` FROM shipments WHERE reference = $1
ORDER BY id DESC LIMIT $2`, strings.ToUpper(code), limit)
	if err != nil {
		return nil, false, fmt.Errorf("scan %q: %w", code, err)
	}
	if len(exact) == 0 && strings.ToUpper(code) != code {
		if err := sqlxSelect(ctx, db, &exact, `SELECT `+shipmentColumns+` FROM shipments WHERE reference = $1 ORDER BY id DESC LIMIT $2`, code, limit); err != nil {
			return nil, false, fmt.Errorf("scan %q: %w", code, err)
		}
	}
	if squeezed := numberSpacing.Replace(strings.ToUpper(code)); len(exact) == 0 && squeezed != strings.ToUpper(code) {
		// A number typed in groups ("UPS 100 000 007") or with dashes.
		if err := sqlxSelect(ctx, db, &exact, `
SELECT `+shipmentColumns+` FROM shipments WHERE tracking_number = $1
UNION
SELECT `+shipmentColumns+` FROM shipments WHERE packages @> jsonb_build_array(jsonb_build_object('number', $1::text))
ORDER BY id DESC LIMIT $2`, squeezed, limit); err != nil {
			return nil, false, fmt.Errorf("scan %q: %w", code, err)
		}
	}
	if len(exact) > 0 {
		return exact, true, nil
	}
	var near []Shipment
	upper := strings.ToUpper(code)
	// The digits at a tracking number's end, read backwards: "" (matching
	// nothing) unless at least six digits were typed.
	tail := ""
	if len(code) >= minScanDigits && strings.Trim(code, "0123456789") == "" {
		tail = reverse(code) + "%"
	}
	err = sqlxSelect(ctx, db, &near, `
SELECT `+shipmentColumns+` FROM shipments WHERE tracking_number LIKE $1
UNION
SELECT `+shipmentColumns+` FROM shipments WHERE upper(reference) LIKE $1
UNION
SELECT `+shipmentColumns+` FROM shipments WHERE upper(translate(reference, ' -_/.', '')) LIKE $2
UNION
SELECT `+shipmentColumns+` FROM shipments WHERE $3 <> '' AND reverse(tracking_number) LIKE $3
ORDER BY id DESC LIMIT $4`, likeEscape(upper)+"%", likeEscape(referenceSpacing.Replace(upper))+"%", tail, limit)
	return near, false, wrapf(err, "scan %q", code)
}

// minScanDigits is how many digits the scan box needs to look for a
// tracking number that ends in them: fewer match too many.
const minScanDigits = 6

// referenceSpacing takes out what separates a reference's parts, as the
// index shipments_reference_squeezed_idx does (migration 00053).
var referenceSpacing = strings.NewReplacer(" ", "", "-", "", "_", "", "/", "", ".", "")

// reverse is s backwards (s is ASCII digits).
func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

// numberSpacing is what people put inside a tracking number they type.
var numberSpacing = strings.NewReplacer(" ", "", "-", "", "\u00a0", "")
