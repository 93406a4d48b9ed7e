package storage

import (
	"context"
	"database/sql"
	"strings"
	"sync/atomic"

	"github.com/jmoiron/sqlx"

	"shipdesk/clock"
)

// writeMark is when this process last wrote to the database, on the change
// feed's own measure (time since the mark was made, on the machine's
// monotonic clock). A feed whose last returned ping was sent after the mark
// has heard every change this process made (Feed.Current): a page kept from
// before one of our own writes is never served after it, however late its
// notification.
type writeMark struct {
	start clock.Stopwatch
	last  atomic.Int64 // since start; 0 before any write
}

func newWriteMark() *writeMark { return &writeMark{start: clock.Start()} }

// wrote moves the mark to now (never back: writes end in any order).
func (m *writeMark) wrote() {
	now := int64(m.start.Elapsed())
	for {
		last := m.last.Load()
		if now <= last || m.last.CompareAndSwap(last, now) {
			return
		}
	}
}

// markingPool is the pool with the mark moved by every statement that may
// write: after an Exec returns (committed), and when a query that is not a
// plain SELECT (INSERT … RETURNING, WITH … UPDATE) is sent and again once
// Get or Select have read it to its end. Statements in a transaction are
// marked by InTx after the commit.
type markingPool struct {
	*sqlx.DB
	mark *writeMark
}

func (p markingPool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := p.DB.ExecContext(ctx, query, args...)
	p.mark.wrote()
	return res, err
}

func (p markingPool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	p.markWrite(query)
	return p.DB.QueryContext(ctx, query, args...)
}

func (p markingPool) QueryxContext(ctx context.Context, query string, args ...any) (*sqlx.Rows, error) {
	p.markWrite(query)
	return p.DB.QueryxContext(ctx, query, args...)
}

func (p markingPool) QueryRowxContext(ctx context.Context, query string, args ...any) *sqlx.Row {
	p.markWrite(query)
	return p.DB.QueryRowxContext(ctx, query, args...)
}

func (p markingPool) markWrite(query string) {
	if mayWrite(query) {
		p.mark.wrote()
	}
}

// mayWrite says whether a query may change rows: anything but a statement
// that begins with SELECT (a read written as WITH counts as a write, which
// costs only a moment without kept pages).
func mayWrite(query string) bool {
	q := strings.TrimLeft(query, " \t\r\n(")
	return len(q) < 6 || !strings.EqualFold(q[:6], "select")
}
