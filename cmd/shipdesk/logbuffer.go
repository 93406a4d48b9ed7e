package main

import (
	"io"
	"sync"
	"time"
)

// logBuffer gathers log lines and writes them every flushEvery, or sooner
// when many have gathered: the request log is a line per request, and a
// write to the terminal or the journal for each costs more than the line.
// Close writes what is left.
type logBuffer struct {
	mu   sync.Mutex
	w    io.Writer
	buf  []byte
	stop chan struct{}
	done chan struct{}
}

const (
	flushEvery = 100 * time.Millisecond
	flushAt    = 64 << 10
)

func newLogBuffer(w io.Writer) *logBuffer {
	b := &logBuffer{w: w, buf: make([]byte, 0, flushAt), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		t := time.NewTicker(flushEvery)
		defer t.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-t.C:
				b.mu.Lock()
				b.flush()
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// Write keeps one log line (slog writes each record whole).
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) >= flushAt {
		b.flush()
	}
	return len(p), nil
}

// flush writes what gathered; the caller holds mu. A failed write drops the
// lines: there is nowhere else to say so.
func (b *logBuffer) flush() {
	if len(b.buf) == 0 {
		return
	}
	_, _ = b.w.Write(b.buf)
	b.buf = b.buf[:0]
}

// Close stops the timer and writes what is left.
func (b *logBuffer) Close() {
	close(b.stop)
	<-b.done
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flush()
}
