// Package logtext is slog's text handler with a quick way for plain records:
// the request log writes a record per request, and slog's TextHandler spends
// more on the line (a state, a pass over every attribute's kind, a quoting
// check of each value) than the rest of a small page's request log costs.
// A record of plain values (a time, a standard level, numbers, durations,
// strings that need no quoting) is written here; every other record, and
// every handler derived with WithAttrs or WithGroup, is slog's own. The
// lines are the same bytes either way (the package's tests compare them).
package logtext

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Handler writes records in slog's text format.
type Handler struct {
	text   *slog.TextHandler
	out    *lockedWriter
	bufs   sync.Pool
	second atomic.Pointer[second] // the last line's second, formatted
}

// New returns a text handler writing to w. With options the quick way
// cannot honour (ReplaceAttr, AddSource), it is slog's TextHandler itself.
func New(w io.Writer, opts *slog.HandlerOptions) slog.Handler {
	if opts != nil && (opts.ReplaceAttr != nil || opts.AddSource) {
		return slog.NewTextHandler(w, opts)
	}
	out := &lockedWriter{w: w}
	h := &Handler{text: slog.NewTextHandler(out, opts), out: out}
	h.bufs.New = func() any { b := make([]byte, 0, 512); return &b }
	return h
}

// lockedWriter makes the two ways' writes one after another, as slog's own
// lock does for its handler: a line is never cut by another.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Enabled reports whether the level is logged (the handler's options say).
func (h *Handler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.text.Enabled(ctx, level)
}

// WithAttrs is slog's: a handler with attributes of its own is never quick.
func (h *Handler) WithAttrs(attrs []slog.Attr) slog.Handler { return h.text.WithAttrs(attrs) }

// WithGroup is slog's, as WithAttrs.
func (h *Handler) WithGroup(name string) slog.Handler { return h.text.WithGroup(name) }

// maxKept is the largest line buffer kept for the next record.
const maxKept = 16 << 10

// Handle writes the record as one line in one Write.
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	bp := h.bufs.Get().(*[]byte)
	line, ok := h.appendPlain((*bp)[:0], r)
	if cap(line) <= maxKept {
		*bp = line
		defer h.bufs.Put(bp)
	}
	if !ok {
		return h.text.Handle(ctx, r)
	}
	_, err := h.out.Write(line)
	return err
}

// appendPlain appends the record's line as slog's TextHandler writes it,
// or says the record is not plain.
func (h *Handler) appendPlain(b []byte, r slog.Record) ([]byte, bool) {
	if !r.Time.IsZero() {
		st := h.secondOf(r.Time)
		if !st.plain {
			return b, false // slog's format of such years is its own
		}
		b = append(b, "time="...)
		b = st.appendMillis(b, r.Time)
		b = append(b, ' ')
	}
	level, ok := plainLevel(r.Level)
	if !ok || !plain(r.Message) {
		return b, false
	}
	b = append(b, "level="...)
	b = append(b, level...)
	b = append(b, " msg="...)
	b = append(b, r.Message...)
	r.Attrs(func(a slog.Attr) bool {
		b, ok = appendAttr(b, a)
		return ok
	})
	if !ok {
		return b, false
	}
	return append(b, '\n'), true
}

// appendAttr appends " key=value" for a plain attribute.
func appendAttr(b []byte, a slog.Attr) ([]byte, bool) {
	if !plain(a.Key) {
		return b, false
	}
	b = append(b, ' ')
	b = append(b, a.Key...)
	b = append(b, '=')
	switch v := a.Value; v.Kind() {
	case slog.KindString:
		switch s := v.String(); {
		case s == "":
			b = append(b, `""`...) // an anonymous request's user
		case plain(s):
			b = append(b, s...)
		default:
			return b, false
		}
	case slog.KindInt64:
		b = strconv.AppendInt(b, v.Int64(), 10)
	case slog.KindUint64:
		b = strconv.AppendUint(b, v.Uint64(), 10)
	case slog.KindBool:
		b = strconv.AppendBool(b, v.Bool())
	case slog.KindDuration:
		b = append(b, v.Duration().String()...)
	default:
		return b, false
	}
	return b, true
}

// secondOf is t's second as text in t's zone, formatted once per second
// and zone: a busy server logs many lines a second.
func (h *Handler) secondOf(t time.Time) *second {
	st := h.second.Load()
	if st == nil || st.unix != t.Unix() || st.loc != t.Location() {
		st = newSecond(t)
		h.second.Store(st)
	}
	return st
}

// second is one second's text in one zone: what comes before the fraction
// ("2026-11-30T00:25:50.") and the zone after it ("Z", "+01:00"); plain is
// false for a year slog writes in a form of its own (before 1000, after 9999).
type second struct {
	unix       int64
	loc        *time.Location
	head, zone string
	plain      bool
}

func newSecond(t time.Time) *second {
	const head = len("2006-01-02T15:04:05.")
	st := &second{unix: t.Unix(), loc: t.Location()}
	if y := t.Year(); y < 1000 || y > 9999 {
		return st
	}
	// RFC3339Nano drops trailing zeros: a tenth of a millisecond past the
	// second keeps four digits, the zone follows them.
	text := time.Unix(t.Unix(), int64(time.Millisecond/10)).In(t.Location()).Format(time.RFC3339Nano)
	st.head, st.zone, st.plain = text[:head], text[head+4:], true
	return st
}

// appendMillis is slog's time of t, a time within st: RFC 3339 with exactly
// three digits of the second's fraction.
func (st *second) appendMillis(b []byte, t time.Time) []byte {
	ms := t.Nanosecond() / int(time.Millisecond)
	b = append(b, st.head...)
	b = append(b, byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	return append(b, st.zone...)
}

// plainLevel is the name slog gives a standard level.
func plainLevel(l slog.Level) (string, bool) {
	switch l {
	case slog.LevelDebug:
		return "DEBUG", true
	case slog.LevelInfo:
		return "INFO", true
	case slog.LevelWarn:
		return "WARN", true
	case slog.LevelError:
		return "ERROR", true
	}
	return "", false
}

// plain says s goes out unquoted in slog's text: not empty, and only letters,
// digits and a few marks every text format leaves alone. Anything else
// (space, '=', quotes, controls, any byte past ASCII) goes the slow way,
// where slog decides.
func plain(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._/:+@,~", c) >= 0) {
			return false
		}
	}
	return true
}
