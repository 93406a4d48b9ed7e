package i18n

import (
	"context"
	"strconv"
	"time"
)

// AppendDateTime appends what DateTime writes to buf: for writing many
// times one after another (an export's rows) without a string for each.
func AppendDateTime(ctx context.Context, buf []byte, t time.Time) []byte {
	if t.IsZero() {
		return buf
	}
	t = t.In(ZoneOf(ctx))
	if LangOf(ctx) != Czech {
		return t.AppendFormat(buf, "2 Jan 2006, 15:04")
	}
	// "2. 1. 2006 15:04", put together without parsing the layout each time.
	y, m, d := t.Date()
	hh, mm, _ := t.Clock()
	buf = strconv.AppendInt(buf, int64(d), 10)
	buf = append(buf, ". "...)
	buf = strconv.AppendInt(buf, int64(m), 10)
	buf = append(buf, ". "...)
	buf = strconv.AppendInt(buf, int64(y), 10)
	return append(buf, ' ', byte('0'+hh/10), byte('0'+hh%10), ':', byte('0'+mm/10), byte('0'+mm%10))
}
