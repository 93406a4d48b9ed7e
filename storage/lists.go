package storage

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// ListFilter selects shipments for the list, the CSV export and the reports.
type ListFilter struct {
	Status    string // OPEN, ACTIVE, DELIVERED, STORNO, LABEL_FAILED, UNKNOWN; empty: all
	Carrier   string // carrier code
	From, To  time.Time
	Reference string
	Text      string // part of the recipient's name or town, or of a note
	Sort      string // new (default), old, recipient
	// At most one of After, Before and Last: where the page is.
	After  string // cursor of the last row of the previous page: the page after it
	Before string // cursor of the first row of the next page: the page before it
	Last   bool   // the last page
	Limit  int    // rows per page, 1 to 200 (the list offers PageSizes); otherwise 50
	// Exact counts the filter's total in full, however large: asked for by
	// the manager ("count them all"), and always on the last page, whose
	// place among the rows needs it. Otherwise the count stops at CountCap.
	Exact bool
	// RowsOnly reads the page's rows without counting the filter (Total,
	// Start and More stay zero): the rows' own polling shows nothing else.
	RowsOnly bool
}

// CountCap is how far a page counts its filter: a filter that holds more
// says "more than 2 000", and the manager may ask for the whole count.
// Counting all of a large filter reads every row it holds (a million: a
// hundred milliseconds and more, against a millisecond for the page's rows,
// an index range of fifty); a count that stops at the 2 001st row costs a
// few milliseconds when an index holds the filter (carrier and status
// together: shipments_carrier_status_idx), a few tens when the rows must be
// read to know (a text, one match in eight: sixteen thousand rows).
const CountCap = 2000

// PageSizes are the page sizes the list offers; DefaultPageSize is the one
// it opens with.
var PageSizes = []int{25, 50, 100, 200}

// DefaultPageSize is the list's page size when none is chosen.
const DefaultPageSize = 50

// ListStatuses are the status filters of the list, in display order.
var ListStatuses = []string{"OPEN", "ACTIVE", "DELIVERED", "STORNO", "LABEL_FAILED", "UNKNOWN", "DUPLICATE"}

var statusWhere = map[string]string{
	"OPEN":         `status = 'CREATED' AND cancelled_at IS NULL`,
	"ACTIVE":       `status IN ('EXPORTED', 'ONPICKUP', 'INTRANSIT', 'ONDELIVERY') AND cancelled_at IS NULL`,
	"DELIVERED":    `status = 'DELIVERED'`,
	"STORNO":       `(status = 'CANCELLED' OR cancelled_at IS NOT NULL)`,
	"LABEL_FAILED": `label_status = 'FAILED'`,
	"UNKNOWN":      `state IN ('unknown', 'ordering')`,
	"DUPLICATE":    `cardinality(duplicates) > 0`,
}

// filter builds the filter's conditions, without the page's cursor.
func (f ListFilter) filter() (conditions, error) {
	var c conditions
	if f.Status != "" {
		w, ok := statusWhere[f.Status]
		if !ok {
			return c, fmt.Errorf("unknown status filter %q", f.Status)
		}
		c.add(w)
	}
	c.equal("carrier", f.Carrier)
	c.created(f.From, f.To)
	c.prefix("upper(reference)", strings.ToUpper(strings.TrimSpace(f.Reference)))
	c.contains(listSearch, Fold(f.Text))
	switch f.Sort {
	case "", "new", "old", "recipient":
	default:
		return c, fmt.Errorf("unknown sort %q", f.Sort)
	}
	return c, nil
}

// where builds the filter's conditions and, after a cursor, the keyset
// condition of the page after it, with numbered arguments.
func (f ListFilter) where() (string, []any, error) {
	c, err := f.filter()
	if err != nil {
		return "", nil, err
	}
	if f.After != "" {
		cur, err := decodeCursor(f.Sort, f.After)
		if err != nil {
			return "", nil, err
		}
		c.keyset(f.Sort, cur, true)
	}
	return c.where(), c.args, nil
}

// keyset adds the condition of the rows after (forward) or before the cursor
// in the list's order; the sort key and id together make it exact on ties.
func (c *conditions) keyset(sort string, cur cursor, forward bool) {
	var key string
	op := "<" // newest first: later rows are older
	switch sort {
	case "old":
		key, op = c.arg(cur.at), ">"
	case "recipient":
		key, op = c.arg(cur.text), ">"
	default:
		key = c.arg(cur.at)
	}
	if !forward {
		op = map[string]string{"<": ">", ">": "<"}[op]
	}
	c.add(fmt.Sprintf("(%s, id) %s (%s, %s)", sortColumn(sort), op, key, c.arg(cur.id)))
}

func sortColumn(sort string) string {
	if sort == "recipient" {
		return "recipient_name"
	}
	return "created_at"
}

func (f ListFilter) orderBy() string {
	switch f.Sort {
	case "old":
		return "created_at, id"
	case "recipient":
		return "recipient_name, id"
	}
	return "created_at DESC, id DESC"
}

// reverseOrder is the list's order backwards, for the page before a cursor
// and the last page: the same index, read the other way.
func (f ListFilter) reverseOrder() string {
	switch f.Sort {
	case "old":
		return "created_at DESC, id DESC"
	case "recipient":
		return "recipient_name DESC, id DESC"
	}
	return "created_at, id"
}

func (f ListFilter) limit() int {
	if f.Limit <= 0 || f.Limit > 200 {
		return DefaultPageSize
	}
	return f.Limit
}

// ListPage is one page of the list, the cursors of its neighbours ("" when
// there is none), how many shipments the filter holds and where the page is
// among them.
type ListPage struct {
	// Shipments hold the list's columns (listColumns): not the order as it
	// was sent, its packages or its errors, which only a shipment's page shows.
	Shipments []Shipment
	Next      string // the page after this one
	Prev      string // the page before this one
	Total     int    // shipments of the filter, all pages (CountCap when More)
	More      bool   // the filter holds more than Total (CountCap): it was not counted to the end
	Start     int    // place of the first row among all of the filter's, from 0
}

// listColumns are what a row of the list shows and its page links need.
const listColumns = `id, reference, state, carrier, service_name, recipient_name, recipient_city, tracking_number,
status, label_mode, label_status, returned, created_at, last_checked_at, printed_at, origin, note_count, last_note`

// listSearch is what the list's text filter reads: the recipient and every
// note, folded (Fold), kept by PostgreSQL (migration 00053) and held by the
// trigram index shipments_search_text_idx.
const listSearch = "search_text"

// ListShipments returns one page, keyset-paged in both directions: the cost
// of a page does not grow with how far the manager has paged. The total of
// the filter is one count, run beside the page (a text filter's first or
// last page: after it, or in its rows' second statement), that stops at
// CountCap unless the filter asks for an exact count or the page is the last
// one.
func (db *DB) ListShipments(ctx context.Context, f ListFilter) (ListPage, error) {
	c, err := f.filter()
	if err != nil {
		return ListPage{}, err
	}
	var cur cursor
	forward := true
	switch {
	case f.After != "" && f.Before != "", (f.After != "" || f.Before != "") && f.Last:
		return ListPage{}, ErrDamagedCursor
	case f.After != "":
		cur, err = decodeCursor(f.Sort, f.After)
	case f.Before != "":
		cur, err = decodeCursor(f.Sort, f.Before)
		forward = false
	case f.Last:
		forward = false
	}
	if err != nil {
		return ListPage{}, err
	}
	total := uncounted()
	counting := countQuery(c.where(), f.Exact || f.Last)
	countArgs := slices.Clone(c.args)
	// A text filter's first or last page counts after its rows: when its
	// matches are few, the rows' second statement reads them all and counts
	// them in the same pass, and the text's index is read once, not twice
	// (for "nováková 12" on a million shipments, 20 ms a read).
	countAfter := !f.RowsOnly && c.hasText() && f.After == "" && f.Before == ""
	if !f.RowsOnly && !countAfter {
		total = db.countBeside(ctx, counting, countArgs)
	}

	limit := f.limit()
	if f.After != "" || f.Before != "" {
		c.keyset(f.Sort, cur, forward)
	}
	order := f.orderBy()
	if !forward {
		order = f.reverseOrder()
	}
	rows, matches, err := db.listRows(ctx, c, order, limit+1)
	n := <-total
	switch {
	case !countAfter || err != nil:
	case matches >= 0:
		n.n = matches
	default:
		n = db.count(ctx, counting, countArgs)
	}
	if err != nil {
		return ListPage{}, fmt.Errorf("list shipments: %w", err)
	}
	if n.err != nil {
		return ListPage{}, fmt.Errorf("count shipments: %w", n.err)
	}
	more := len(rows) > limit
	if more {
		rows = rows[:limit]
	}
	if !forward {
		slices.Reverse(rows)
		if f.Before != "" && !more && len(rows) < limit {
			// Back at the beginning with a short page (rows went away
			// meanwhile): the first page, full.
			first := f
			first.Before = ""
			return db.ListShipments(ctx, first)
		}
	}
	page := ListPage{Shipments: rows, Total: n.n}
	if !f.Exact && !f.Last && n.n > CountCap {
		page.Total, page.More = CountCap, true
	}
	switch {
	case f.After != "":
		page.Start = cur.pos + 1
	case f.Before != "" && more:
		page.Start = cur.pos - len(rows)
	case f.Last:
		page.Start = n.n - len(rows)
	}
	if !page.More {
		page.Start = min(page.Start, n.n-len(rows))
	}
	page.Start = max(0, page.Start)
	if len(rows) == 0 {
		return page, nil
	}
	// Forward pages have a next one when a row was left over, and a previous
	// one when they came after a cursor; backward pages the other way round.
	if (forward && more) || f.Before != "" {
		page.Next = encodeCursor(f.Sort, rows[len(rows)-1], page.Start+len(rows)-1)
	}
	if (!forward && more) || f.After != "" {
		page.Prev = encodeCursor(f.Sort, rows[0], page.Start)
	}
	return page, nil
}

type countResult struct {
	n   int
	err error
}

func (db *DB) count(ctx context.Context, q string, args []any) countResult {
	var r countResult
	r.err = sqlxGet(ctx, db, &r.n, q, args...)
	return r
}

// countBeside runs a count on a connection of its own while the caller reads
// its rows (in a transaction, first: a transaction is one connection).
// uncounted is the count of a page read without it.
func uncounted() <-chan countResult {
	total := make(chan countResult, 1)
	total <- countResult{}
	return total
}

func (db *DB) countBeside(ctx context.Context, q string, args []any) <-chan countResult {
	total := make(chan countResult, 1)
	if _, inTx := db.x.(*sqlx.Tx); inTx {
		total <- db.count(ctx, q, args)
	} else {
		go func() { total <- db.count(ctx, q, args) }()
	}
	return total
}

// countQuery counts the shipments where holds: all of them when exact,
// otherwise CountCap and one more at most, which says there are more.
func countQuery(where string, exact bool) string {
	if exact {
		return `SELECT count(*) FROM shipments WHERE ` + where
	}
	return `SELECT count(*) FROM (SELECT FROM shipments WHERE ` + where + ` LIMIT ` + strconv.Itoa(CountCap+1) + `) AS capped`
}

// walkRows is how many rows in the list's order the first query of a text
// filter reads at most (see rowsQueries).
const walkRows = 1000

// rowsQueries are the statements that read n rows of the list in order: one,
// or for a text filter two. No index holds a text filter's matches in the
// list's order, and the planner guesses where they lie: reading the order's
// index until n match costs little when matches are many and spread, and a
// second or more when they gather far down the order ("nováková 12" sorted
// by name: every match among the N's, after a hundred thousand others).
// So the first statement reads at most walkRows rows in order and keeps the
// matches; when they are fewer than n (fewer than one in twenty there), the
// second reads every match first, by the text's own index, and sorts them:
// cheap for the few matches that make a walk fail, and never the walk of a
// hundred thousand rows.
func (c *conditions) rowsQueries(order string, n int) (first, fallback string) {
	limit := ` LIMIT ` + strconv.Itoa(n)
	text, others := c.split()
	if text == "" {
		return `SELECT ` + listColumns + ` FROM shipments WHERE ` + others + ` ORDER BY ` + order + limit, ""
	}
	first = `SELECT ` + listColumns + ` FROM (SELECT ` + listColumns + `, ` + text + ` AS hit FROM shipments WHERE ` + others +
		` ORDER BY ` + order + ` LIMIT ` + strconv.Itoa(walkRows) + `) AS walk WHERE hit ORDER BY ` + order + limit
	// The second statement has every match in hand before it sorts them, so
	// it counts them too (total, the same on each row).
	fallback = `WITH hits AS MATERIALIZED (SELECT ` + listColumns + ` FROM shipments WHERE ` + c.where() + `) SELECT ` +
		listColumns + `, count(*) OVER () AS total FROM hits ORDER BY ` + order + limit
	return first, fallback
}

// listRows reads n rows of the list in order by rowsQueries, and, when the
// second statement ran, how many rows match (matches is -1 when it did not).
func (db *DB) listRows(ctx context.Context, c conditions, order string, n int) (rows []Shipment, matches int, err error) {
	first, fallback := c.rowsQueries(order, n)
	if err := sqlxSelect(ctx, db, &rows, first, c.args...); err != nil || len(rows) == n || fallback == "" {
		return rows, -1, err
	}
	var counted []struct {
		Shipment
		Total int `db:"total"`
	}
	if err := sqlxSelect(ctx, db, &counted, fallback, c.args...); err != nil {
		return nil, -1, err
	}
	rows = make([]Shipment, len(counted))
	for i, r := range counted {
		rows[i] = r.Shipment
	}
	if len(counted) == 0 {
		return rows, 0, nil
	}
	return rows, counted[0].Total, nil
}

// ListSQL are the list's bare queries of a first page, for the benchmark that
// compares a page with its queries: the page runs the first, and the
// fallback ("" when none) when the first gave fewer than Limit+1 rows; the
// fallback counts the filter too, and the page then runs no CountSQL.
func (f ListFilter) ListSQL() (first, fallback string, args []any, err error) {
	c, err := f.filter()
	if err != nil {
		return "", "", nil, err
	}
	first, fallback = c.rowsQueries(f.orderBy(), f.limit()+1)
	return first, fallback, c.args, nil
}

// CountSQL is the list's count of the filter, for the same benchmark: a page
// (not the last) runs it beside ListSQL, or for a text filter after it when
// its fallback did not run.
func (f ListFilter) CountSQL() (string, []any, error) {
	c, err := f.filter()
	return countQuery(c.where(), f.Exact), c.args, err
}
