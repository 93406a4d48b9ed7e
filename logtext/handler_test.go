package logtext_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"shipdesk/logtext"
)

// lines logs the same records through slog's TextHandler and through
// logtext, each into its own buffer, and returns the two outputs.
func lines(t testing.TB, opts *slog.HandlerOptions, log func(*slog.Logger)) (slogs, ours string) {
	t.Helper()
	var a, b bytes.Buffer
	log(slog.New(slog.NewTextHandler(&a, opts)))
	log(slog.New(logtext.New(&b, opts)))
	return a.String(), b.String()
}

// record logs one record with the given time, level, message and attributes
// as the request log does (a record made by hand, no caller).
func record(at time.Time, level slog.Level, msg string, attrs ...slog.Attr) func(*slog.Logger) {
	return func(l *slog.Logger) {
		r := slog.NewRecord(at, level, msg, 0)
		r.AddAttrs(attrs...)
		_ = l.Handler().Handle(context.Background(), r)
	}
}

func requestAttrs(path, user string) []slog.Attr {
	return []slog.Attr{
		slog.String("request_id", "a1b2c3d4000001f3"), slog.String("method", "GET"),
		slog.String("path", path), slog.Int("status", 404), slog.Int("bytes", 3217),
		slog.Duration("duration", 23456*time.Nanosecond), slog.String("user", user),
	}
}

type textValue struct{}

func (textValue) MarshalText() ([]byte, error) { return []byte("as text"), nil }

type lazyValue struct{}

func (lazyValue) LogValue() slog.Value { return slog.StringValue("resolved") }

// TestSameLinesAsSlog holds the package's promise: every record gives the
// bytes slog's TextHandler gives, the quick ones and the hostile ones.
func TestSameLinesAsSlog(t *testing.T) {
	prague, err := time.LoadLocation("Europe/Prague")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 29, 1, 59, 59, 999_950_000, time.UTC)
	hostile := []string{
		"", " ", "a b", "a=b", `"quoted"`, `back\slash`, "nul\x00", "bell\a", "tab\t", "line\nbreak",
		"\xff\xfe invalid", "nováková", "Žluťoučký kůň", "<script>alert(1)</script>", "'; DROP TABLE shipments; --",
		"µs", "\u00a0nbsp", "\u200bzero-width", "emoji 📦", "%2F", "a,b", "@~+:/._-", strings.Repeat("x", 5000),
	}
	cases := map[string]func(*slog.Logger){
		"the request log's line":      record(at, slog.LevelInfo, "request", requestAttrs("/no-such-page", "manager")...),
		"a failed request":            record(at, slog.LevelError, "request", requestAttrs("/shipments/7", "clerk")...),
		"an anonymous request":        record(at, slog.LevelInfo, "request", requestAttrs("/claims/x", "")...),
		"no time":                     record(time.Time{}, slog.LevelWarn, "request", slog.Int("n", -3)),
		"a time in Prague's zone":     record(at.In(prague), slog.LevelInfo, "m"),
		"a time on the millisecond":   record(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), slog.LevelInfo, "m"),
		"a time with monotonic clock": record(time.Now(), slog.LevelDebug, "m"),
		"the year 999":                record(time.Date(999, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo, "m"),
		"the year 12026":              record(time.Date(12026, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo, "m"),
		"a level between levels":      record(at, slog.LevelInfo+2, "m"),
		"a level below debug":         record(at, slog.LevelDebug-4, "m"),
		"numbers and flags": record(at, slog.LevelInfo, "m", slog.Int64("min", math.MinInt64),
			slog.Uint64("max", math.MaxUint64), slog.Bool("yes", true), slog.Bool("no", false),
			slog.Duration("long", 49*time.Hour+time.Nanosecond), slog.Duration("negative", -time.Millisecond), slog.Duration("zero", 0)),
		"floats": record(at, slog.LevelInfo, "m", slog.Float64("f", 1.5), slog.Float64("nan", math.NaN()), slog.Float64("inf", math.Inf(-1))),
		"values slog turns to text": record(at, slog.LevelInfo, "m", slog.Any("err", errors.New("upstream said no")),
			slog.Any("text", textValue{}), slog.Any("lazy", lazyValue{}), slog.Time("when", at), slog.Any("nil", nil)),
		"a group":        record(at, slog.LevelInfo, "m", slog.Group("g", slog.String("a", "1"), slog.Int("b", 2))),
		"an empty group": record(at, slog.LevelInfo, "m", slog.Group("g")),
		"an empty key":   record(at, slog.LevelInfo, "m", slog.String("", "v")),
		"an empty attr":  record(at, slog.LevelInfo, "m", slog.Attr{}),
		"with attrs": func(l *slog.Logger) {
			record(at, slog.LevelInfo, "m", slog.Int("n", 1))(slog.New(l.Handler().WithAttrs([]slog.Attr{slog.String("service", "sandbox")})))
		},
		"with a group": func(l *slog.Logger) {
			record(at, slog.LevelInfo, "m", slog.Int("n", 1))(slog.New(l.Handler().WithGroup("upstream")))
		},
		"a record with its caller": func(l *slog.Logger) {
			var pcs [1]uintptr
			runtime.Callers(1, pcs[:])
			_ = l.Handler().Handle(context.Background(), slog.NewRecord(at, slog.LevelInfo, "request", pcs[0]))
		},
	}
	for _, s := range hostile {
		cases["message "+strings.ToValidUTF8(s[:min(len(s), 20)], "?")] = record(at, slog.LevelInfo, s)
		cases["value "+strings.ToValidUTF8(s[:min(len(s), 20)], "?")] = record(at, slog.LevelInfo, "request", requestAttrs(s, s)...)
		cases["key "+strings.ToValidUTF8(s[:min(len(s), 20)], "?")] = record(at, slog.LevelInfo, "m", slog.String(s, "v"))
	}
	for name, log := range cases {
		t.Run(name, func(t *testing.T) {
			want, got := lines(t, nil, log)
			if got != want {
				t.Errorf("line differs from slog's\n got: %q\nwant: %q", got, want)
			}
		})
	}
}

// TestTimesInTurnSameAsSlog logs a run of times through one handler, which
// keeps the last second's text: within a second, across seconds, the same
// instant in another zone, Prague's clocks put forward and back, and time
// going backwards.
func TestTimesInTurnSameAsSlog(t *testing.T) {
	prague, err := time.LoadLocation("Europe/Prague")
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 3, 29, 0, 59, 59, 0, time.UTC) // 02:00 in Prague becomes 03:00 a second later
	var times []time.Time
	for _, d := range []time.Duration{0, 1, 999_999, time.Millisecond, 999 * time.Millisecond, time.Second, time.Second + 500*time.Millisecond, -time.Hour, 0} {
		times = append(times, base.Add(d), base.Add(d).In(prague))
	}
	back := time.Date(2026, 10, 25, 0, 59, 59, 999_000_000, time.UTC) // 03:00 in Prague becomes 02:00
	times = append(times, back.In(prague), back.Add(time.Millisecond).In(prague), back, time.Date(1969, 12, 31, 23, 59, 59, 500_000_000, time.UTC))
	want, got := lines(t, nil, func(l *slog.Logger) {
		for _, at := range times {
			record(at, slog.LevelInfo, "request")(l)
		}
	})
	if got != want {
		t.Errorf("lines differ from slog's\n got: %s\nwant: %s", got, want)
	}
}

// FuzzSameLinesAsSlog looks for a record whose line differs from slog's.
func FuzzSameLinesAsSlog(f *testing.F) {
	f.Add("request", "path", "/no-such-page", int64(404), int64(23456), int64(1_795_996_800_123_456_789))
	f.Add("a b", "k=v", "\x00\xff", int64(-1), int64(-1), int64(0))
	f.Add("msg", "user", "nováková", int64(0), int64(math.MaxInt64), int64(math.MinInt64))
	f.Fuzz(func(t *testing.T, msg, key, value string, n, d, unixNano int64) {
		at := time.Unix(0, unixNano).UTC()
		want, got := lines(t, nil, record(at, slog.LevelInfo, msg,
			slog.String(key, value), slog.Int64("n", n), slog.Duration("d", time.Duration(d))))
		if got != want {
			t.Errorf("line differs from slog's\n got: %q\nwant: %q", got, want)
		}
	})
}

// TestOptionsAreSlogs: the level is honoured, and options the quick way
// cannot keep give slog's own handler with the same lines.
func TestOptionsAreSlogs(t *testing.T) {
	warn := &slog.HandlerOptions{Level: slog.LevelWarn}
	at := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	want, got := lines(t, warn, func(l *slog.Logger) {
		if l.Enabled(context.Background(), slog.LevelInfo) {
			record(at, slog.LevelInfo, "dropped")(l)
		}
		record(at, slog.LevelWarn, "kept", slog.Int("n", 1))(l)
	})
	if got != want || strings.Contains(got, "dropped") || !strings.Contains(got, "kept") {
		t.Errorf("with level warn: got %q, slog %q", got, want)
	}
	redact := &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == "user" {
			a.Value = slog.StringValue("redacted")
		}
		return a
	}}
	if _, ok := logtext.New(&bytes.Buffer{}, redact).(*slog.TextHandler); !ok {
		t.Error("with ReplaceAttr the handler is not slog's TextHandler")
	}
	if _, ok := logtext.New(&bytes.Buffer{}, &slog.HandlerOptions{AddSource: true}).(*slog.TextHandler); !ok {
		t.Error("with AddSource the handler is not slog's TextHandler")
	}
}

// writes keeps each Write it is given, as a separate line would reach a
// terminal or a journal.
// It notes when a Write begins while another is under way: a writer such as
// a file or a bytes.Buffer may mix the two.
type writes struct {
	mu       sync.Mutex
	calls    []string
	inFlight atomic.Int32
	overlaps atomic.Int32
}

func (w *writes) Write(p []byte) (int, error) {
	if w.inFlight.Add(1) > 1 {
		w.overlaps.Add(1)
	}
	defer w.inFlight.Add(-1)
	runtime.Gosched() // a wider window for another Write to begin in
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls = append(w.calls, string(p))
	return len(p), nil
}

// TestOneWholeLinePerWrite: records logged at once from many goroutines,
// quick and slow ones mixed, each reach the writer as one whole line, one
// Write after another.
func TestOneWholeLinePerWrite(t *testing.T) {
	w := &writes{}
	log := slog.New(logtext.New(w, nil))
	const goroutines, each = 8, 200
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				if i%2 == 0 {
					log.Info("request", "path", "/quick", "g", g)
				} else {
					log.Info("request", "path", "/slow way", "g", g)
				}
			}
		})
	}
	wg.Wait()
	if n := w.overlaps.Load(); n > 0 {
		t.Errorf("%d writes began while another was under way", n)
	}
	if len(w.calls) != goroutines*each {
		t.Fatalf("%d writes for %d records", len(w.calls), goroutines*each)
	}
	quick := 0
	for _, c := range w.calls {
		if strings.Count(c, "\n") != 1 || !strings.HasSuffix(c, "\n") || !strings.HasPrefix(c, "time=") {
			t.Fatalf("a write is not one whole line: %q", c)
		}
		if strings.Contains(c, "path=/quick ") {
			quick++
		}
	}
	if quick != goroutines*each/2 {
		t.Errorf("%d quick lines, want %d", quick, goroutines*each/2)
	}
}
