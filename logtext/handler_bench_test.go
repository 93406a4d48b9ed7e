package logtext_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"shipdesk/benchtab"
	"shipdesk/logtext"
)

// BenchmarkRequestLine writes the request log's line of a signed-in page
// through slog's TextHandler and through logtext, taking turns, and records
// the time a line against slog's.
func BenchmarkRequestLine(b *testing.B) {
	handlers := []struct {
		name string
		h    slog.Handler
		took time.Duration
		n    int
	}{
		{name: "slog's TextHandler", h: slog.NewTextHandler(io.Discard, nil)},
		{name: "logtext", h: logtext.New(io.Discard, nil)},
	}
	attrs := requestAttrs("/shipments/1234", "manager")
	ctx := context.Background()
	const turn = 20_000
	for b.Loop() {
		for i := range handlers {
			h := &handlers[i]
			start := time.Now()
			for range turn {
				r := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
				r.AddAttrs(attrs...)
				if err := h.h.Handle(ctx, r); err != nil {
					b.Fatal(err)
				}
			}
			h.took += time.Since(start)
			h.n += turn
		}
	}
	line := func(i int) benchtab.Figure {
		return benchtab.Figure{What: handlers[i].name, Value: float64(handlers[i].took.Nanoseconds()) / float64(handlers[i].n), Unit: "ns"}
	}
	benchtab.Ratio(b, "the request log's line: logtext / slog's TextHandler, time a line", line(1), line(0), "")
}
