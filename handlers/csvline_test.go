package handlers

import (
	"bytes"
	"encoding/csv"
	"testing"
)

// A line put together by csvLine is what encoding/csv writes for the same
// cells, with either separator: every cell of up to three characters of an
// alphabet of separators, quotes, line breaks, spaces and Czech letters.
func TestCSVLineQuotesAsEncodingCSV(t *testing.T) {
	alphabet := []string{"a", " ", "\t", ",", ";", `"`, "\n", "\r", "ž", `\`, ".", "\u00a0", "\u2028", "="}
	cells := []string{"", `\.`, `\.\.`, "Žofie Nováková", "1234,5", "2. 1. 2006 15:04", "2026-01-02T15:04:05+01:00"}
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
	for _, comma := range []byte{',', ';'} {
		var want bytes.Buffer
		w := csv.NewWriter(&want)
		w.Comma = rune(comma)
		line := &csvLine{comma: comma}
		var got []byte
		for i := 0; i < len(cells); i += 3 {
			record := cells[i:min(i+3, len(cells))]
			if err := w.Write(record); err != nil {
				t.Fatal(err)
			}
			line.start()
			for _, c := range record {
				line.text(c)
			}
			got = append(got, line.end()...)
		}
		w.Flush()
		if !bytes.Equal(got, want.Bytes()) {
			g, wb := got, want.Bytes()
			i := 0
			for i < len(g) && i < len(wb) && g[i] == wb[i] {
				i++
			}
			t.Fatalf("separator %q: lines differ at byte %d: %q, want %q", comma, i, g[i:min(i+40, len(g))], wb[i:min(i+40, len(wb))])
		}
	}
}
