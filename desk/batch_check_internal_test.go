package desk

import (
	"testing"

	"shipdesk/orderfile"
)

// One table reads a row as the form and the form's problems back onto the
// row: every form field of it names its own column, a package's numbered
// fields and the form's own names land on the row's columns.
func TestRowColumnsMapBothWays(t *testing.T) {
	for _, c := range rowColumns {
		if got := rowField(c.form); got != string(c.column) {
			t.Errorf("form field %s lands on %q, want %q", c.form, got, c.column)
		}
	}
	for field, want := range map[string]orderfile.Field{"pkg_weight_0": orderfile.WeightKg, "pkg_height_2": orderfile.HeightCm,
		"packages": orderfile.WeightKg, "cod": orderfile.CODAmount, "customs_hs_code": orderfile.CustomsHSCode} {
		if got := rowField(field); got != string(want) {
			t.Errorf("form field %s lands on %q, want %q", field, got, want)
		}
	}
	if got := rowField("sender"); got != "" {
		t.Errorf("a field no column fills lands on %q", got)
	}
}
