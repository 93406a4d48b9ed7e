package handlers

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"shipdesk/i18n"
)

// csvFile is a CSV download in the person's language: in Czech with a
// byte-order mark (so a spreadsheet reads UTF-8), ";" between cells and
// decimal commas; in English with "," and decimal points. The shipments
// export and the reports' tables write through it.
type csvFile struct {
	*csv.Writer
	czech bool
}

// startCSV sends the headers of a CSV download named filename and returns
// its writer.
func startCSV(ctx context.Context, w http.ResponseWriter, filename string) *csvFile {
	czech := i18n.LangOf(ctx) == i18n.Czech
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, filename))
	w.Header().Set("Cache-Control", "no-store")
	buf := bufio.NewWriterSize(w, 64<<10) // csv.Writer writes through it as it is
	if czech {
		_, _ = buf.WriteString("\ufeff")
	}
	out := csv.NewWriter(buf)
	if czech {
		out.Comma = ';'
	}
	return &csvFile{Writer: out, czech: czech}
}

// decimal writes x with places decimals (-1: as few as it needs), not
// grouped, with a decimal comma in Czech.
func (c *csvFile) decimal(x float64, places int) string {
	s := strconv.FormatFloat(x, 'f', places, 64)
	if c.czech {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}
