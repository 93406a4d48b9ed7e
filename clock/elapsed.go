package clock

import "time"

// What our own work takes is measured on the machine's monotonic clock, never
// on the dashboard's clock (which a simulator may move by days): these are the
// only ways the rest of shipdesk reads it.

// Stopwatch measures how long our own work took.
type Stopwatch struct{ start time.Time }

// Start starts a stopwatch.
func Start() Stopwatch { return Stopwatch{start: time.Now()} }

// Elapsed is how long ago the stopwatch was started.
func (s Stopwatch) Elapsed() time.Duration { return time.Since(s.start) }

// Deadline is the machine's time d from now, for I/O deadlines of sockets and
// connections, which the operating system judges on its own clock.
func Deadline(d time.Duration) time.Time { return time.Now().Add(d) }

// Stop is the machine's time now, for the time of a log line, and how long
// the stopwatch ran: one reading of the clock for both.
func (s Stopwatch) Stop() (at time.Time, took time.Duration) {
	at = time.Now()
	return at, at.Sub(s.start)
}
