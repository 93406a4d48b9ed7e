package handlers

import (
	"encoding/csv"
	"slices"
	"strings"
	"testing"
)

// lineCells are every cell of up to three characters of an alphabet of
// separators, quotes, line breaks, spaces, formula starts and Czech letters.
func lineCells() []string {
	alphabet := []string{"a", " ", "\t", ",", ";", `"`, "\n", "\r", "ž", `\`, ".", "\u00a0", "\u2028", "=", "+", "-", "@", "'"}
	cells := []string{"", `\.`, `\.\.`, "Žofie Nováková", "1234,5", "2. 1. 2006 15:04", "2026-01-02T15:04:05+01:00",
		"Jan Novák,=1+1", `Brno; "@SUM(A1)"`}
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		cells = append(cells, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			grow(prefix+c, n-1)
		}
	}
	grow("", 3)
	return cells
}

// A line put together by csvLine reads back with encoding/csv, with the
// export's separator, as its cells neutralised; a cell without a formula's
// start reads back as it is.
func TestCSVLineReadsBack(t *testing.T) {
	cells := lineCells()
	for _, comma := range []byte{',', ';'} {
		line := &csvLine{comma: comma}
		var file []byte
		var want [][]string
		for i := 0; i < len(cells); i += 3 {
			record := cells[i:min(i+3, len(cells))]
			line.start()
			var neutral []string
			for _, c := range record {
				line.text(c)
				neutral = append(neutral, string(appendNeutral(nil, c)))
			}
			file = append(file, line.end()...)
			want = append(want, neutral)
		}
		r := csv.NewReader(strings.NewReader(string(file)))
		r.Comma, r.FieldsPerRecord = rune(comma), -1
		got, err := r.ReadAll()
		if err != nil {
			t.Fatalf("separator %q: %v", comma, err)
		}
		for i := range want {
			// encoding/csv reads "\r\n" inside a quoted cell as "\n".
			w := slices.Clone(want[i])
			for j := range w {
				w[j] = strings.ReplaceAll(w[j], "\r\n", "\n")
			}
			if i >= len(got) || !slices.Equal(got[i], w) {
				t.Fatalf("separator %q, record %d: %q, want %q", comma, i, got[min(i, len(got)-1)], w)
			}
		}
	}
	for _, c := range cells {
		if !strings.ContainsAny(c, formulaStart) && string(appendNeutral(nil, c)) != c {
			t.Errorf("%q is changed: %q", c, appendNeutral(nil, c))
		}
	}
}

// Whatever separator a spreadsheet splits a line at (either language's, a
// tab, a line break inside quotes it does not honour), no piece of a text
// cell starts with a formula: a formula's first character comes after an
// apostrophe. A cell holding either separator or a tab is quoted whichever
// the export's own is.
func TestCSVLineHoldsNoFormulaUnderAnySeparator(t *testing.T) {
	for _, comma := range []byte{',', ';'} {
		line := &csvLine{comma: comma}
		for _, c := range lineCells() {
			line.start()
			line.text(c)
			out := string(line.end())
			for _, piece := range strings.FieldsFunc(out, func(r rune) bool { return strings.ContainsRune(cellStart, r) }) {
				if p := strings.TrimLeft(piece, ` "`); p != "" && strings.ContainsRune("=+-@", rune(p[0])) {
					t.Errorf("separator %q: %q is written %q, whose piece %q starts a formula", comma, c, out, piece)
				}
			}
			if strings.ContainsAny(c, ",;\t") && !strings.HasPrefix(out, `"`) {
				t.Errorf("separator %q: %q is not quoted: %q", comma, c, out)
			}
		}
	}
}
