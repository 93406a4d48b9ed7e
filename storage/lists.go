package storage

import (
	"context"
	"database/sql"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"shipdesk/apperr"
)

// ListFilter selects shipments for the list, the CSV export and the reports.
type ListFilter struct {
	Status    string // OPEN, ACTIVE, DELIVERED, STORNO, LABEL_FAILED, UNKNOWN; empty: all
	Carrier   string // carrier code
	From, To  time.Time
	Reference string
	Text      string // part of the recipient's name or town
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
	c.equal("reference", f.Reference)
	c.contains("recipient_name || ' ' || recipient_city", f.Text)
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

// cursor is a row a page ends or begins at: its sort key and id, and its
// place in the list (from 0) when the link was made, for "51–100 of 1 234".
type cursor struct {
	at   time.Time
	text string
	id   int64
	pos  int
}

// cursorSorts are the letters that say which order a cursor belongs to.
var cursorSorts = map[string]string{"": "n", "new": "n", "old": "o", "recipient": "r"}

// maxCursorText bounds the recipient's name a cursor carries.
const maxCursorText = 1000

func encodeCursor(sort string, s Shipment, pos int) string {
	key := strconv.FormatInt(s.CreatedAt.UnixMicro(), 10)
	if sort == "recipient" {
		key = s.RecipientName
	}
	raw := cursorSorts[sort] + ":" + strconv.FormatInt(s.ID, 10) + ":" + strconv.Itoa(pos) + ":" + key
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// Cursors are checked before they reach the database: a link that was cut,
// edited or made for another order is refused with a message, never an error
// of the database (a name with a NUL, a year 300000).
var (
	cursorMin = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
	cursorMax = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
)

// ErrDamagedCursor is a page link that cannot be read.
var ErrDamagedCursor = apperr.New(apperr.Invalid, "rec.page_link")

func decodeCursor(sort, s string) (cursor, error) {
	if len(s) > 4*maxCursorText {
		return cursor{}, ErrDamagedCursor
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return cursor{}, ErrDamagedCursor
	}
	parts := strings.SplitN(string(raw), ":", 4)
	if len(parts) != 4 || parts[0] != cursorSorts[sort] {
		return cursor{}, ErrDamagedCursor
	}
	id, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || id <= 0 {
		return cursor{}, ErrDamagedCursor
	}
	pos, err := strconv.Atoi(parts[2])
	if err != nil || pos < 0 || pos > 1<<40 {
		return cursor{}, ErrDamagedCursor
	}
	c := cursor{id: id, pos: pos, text: parts[3]}
	if sort == "recipient" {
		if !utf8.ValidString(c.text) || strings.ContainsRune(c.text, 0) || len(c.text) > maxCursorText {
			return cursor{}, ErrDamagedCursor
		}
		return c, nil
	}
	us, err := strconv.ParseInt(c.text, 10, 64)
	if err != nil || us < cursorMin.UnixMicro() || us > cursorMax.UnixMicro() {
		return cursor{}, ErrDamagedCursor
	}
	c.at = time.UnixMicro(us)
	return c, nil
}

// CheckCursor says whether a page link's cursor can be read for the order sort.
func CheckCursor(sort, s string) error {
	_, err := decodeCursor(sort, s)
	return err
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
status, label_mode, label_status, returned, created_at, last_checked_at, printed_at, origin`

// ListShipments returns one page, keyset-paged in both directions: the cost
// of a page does not grow with how far the manager has paged. The total of
// the filter is one count, run beside the page, that stops at CountCap
// unless the filter asks for an exact count or the page is the last one.
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
	total := db.countBeside(ctx, countQuery(c.where(), f.Exact || f.Last), slices.Clone(c.args))

	limit := f.limit()
	if f.After != "" || f.Before != "" {
		c.keyset(f.Sort, cur, forward)
	}
	order := f.orderBy()
	if !forward {
		order = f.reverseOrder()
	}
	rows, err := db.listRows(ctx, c, order, limit+1)
	n := <-total
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
	fallback = `WITH hits AS MATERIALIZED (SELECT ` + listColumns + ` FROM shipments WHERE ` + c.where() + `) SELECT ` +
		listColumns + ` FROM hits ORDER BY ` + order + limit
	return first, fallback
}

// listRows reads n rows of the list in order by rowsQueries.
func (db *DB) listRows(ctx context.Context, c conditions, order string, n int) ([]Shipment, error) {
	first, fallback := c.rowsQueries(order, n)
	var rows []Shipment
	if err := sqlxSelect(ctx, db, &rows, first, c.args...); err != nil || len(rows) == n || fallback == "" {
		return rows, err
	}
	rows = nil
	err := sqlxSelect(ctx, db, &rows, fallback, c.args...)
	return rows, err
}

// ListSQL are the list's bare queries of a first page, for the benchmark that
// compares a page with its queries: the page runs the first, and the
// fallback ("" when none) when the first gave fewer than Limit+1 rows.
func (f ListFilter) ListSQL() (first, fallback string, args []any, err error) {
	c, err := f.filter()
	if err != nil {
		return "", "", nil, err
	}
	first, fallback = c.rowsQueries(f.orderBy(), f.limit()+1)
	return first, fallback, c.args, nil
}

// CountSQL is the list's count of the filter, for the same benchmark: a page
// (not the last) runs it beside ListSQL.
func (f ListFilter) CountSQL() (string, []any, error) {
	c, err := f.filter()
	return countQuery(c.where(), f.Exact), c.args, err
}

// ExportRow is one shipment as the list's CSV export writes it.
type ExportRow struct {
	ID                         int64
	CreatedAt                  time.Time
	Reference, TrackingNumber  string // TrackingNumber: "" until the service confirmed the order
	RecipientName              string
	RecipientCity              string
	Carrier, ServiceName       string
	State, Status              string
	LabelMode, LabelStatus     string
	Returned                   bool
	CODValue                   float64 // with CODCurrency; both zero without cash on delivery
	CODCurrency                string
	DeliveredAt, LastCheckedAt time.Time // zero: not (yet)
	Origin                     string
}

// ExportRowOf is the export's row of a shipment read whole.
func ExportRowOf(s Shipment) ExportRow {
	r := ExportRow{ID: s.ID, CreatedAt: s.CreatedAt, Reference: s.Reference, TrackingNumber: s.Tracking(),
		RecipientName: s.RecipientName, RecipientCity: s.RecipientCity, Carrier: s.Carrier, ServiceName: s.ServiceName,
		State: s.State, Status: s.Status, LabelMode: s.LabelMode, LabelStatus: s.LabelStatus, Returned: s.Returned, Origin: s.Origin}
	if s.CODValue != nil && s.CODCurrency != nil {
		r.CODValue, r.CODCurrency = *s.CODValue, *s.CODCurrency
	}
	if s.DeliveredAt != nil {
		r.DeliveredAt = *s.DeliveredAt
	}
	if s.LastCheckedAt != nil {
		r.LastCheckedAt = *s.LastCheckedAt
	}
	return r
}

// exportColumns are ExportRow's columns, in its order; the comment names the
// query among the server's activity.
const exportColumns = `/* shipments export */ id, created_at, reference, coalesce(tracking_number, ''), recipient_name, recipient_city,
carrier, service_name, state, status, label_mode, label_status, returned,
CASE WHEN cod_value IS NULL OR cod_currency IS NULL THEN 0 ELSE cod_value END::float8,
CASE WHEN cod_value IS NULL OR cod_currency IS NULL THEN '' ELSE cod_currency END,
delivered_at, last_checked_at, origin`

// ExportSQL is the export's query of the filter, for the benchmark that
// compares the export with PostgreSQL's COPY of the same query.
func (f ListFilter) ExportSQL() (string, []any, error) {
	f.After, f.Before, f.Last = "", "", false
	where, args, err := f.where()
	return `SELECT ` + exportColumns + ` FROM shipments WHERE ` + where + ` ORDER BY ` + f.orderBy(), args, err
}

// ExportShipments calls fn for every shipment of the filter in the list's
// order, as the rows arrive from the database: an export of any size holds
// one row, which fn gets each time anew (the same ExportRow, overwritten).
func (db *DB) ExportShipments(ctx context.Context, f ListFilter, fn func(*ExportRow) error) error {
	q, args, err := f.ExportSQL()
	if err != nil {
		return err
	}
	rows, err := db.x.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("export shipments: %w", err)
	}
	defer rows.Close()
	var r ExportRow
	var delivered, checked sql.NullTime
	dest := []any{&r.ID, &r.CreatedAt, &r.Reference, &r.TrackingNumber, &r.RecipientName, &r.RecipientCity,
		&r.Carrier, &r.ServiceName, &r.State, &r.Status, &r.LabelMode, &r.LabelStatus, &r.Returned,
		&r.CODValue, &r.CODCurrency, &delivered, &checked, &r.Origin}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return fmt.Errorf("export shipments: %w", err)
		}
		r.DeliveredAt, r.LastCheckedAt = delivered.Time, checked.Time // zero when NULL
		if err := fn(&r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("export shipments: %w", err)
	}
	return nil
}

// EachShipment calls fn for every shipment of the filter, streaming rows from
// the database, so a selection of any size holds one row at a time.
func (db *DB) EachShipment(ctx context.Context, f ListFilter, fn func(Shipment) error) error {
	f.After, f.Before, f.Last = "", "", false
	where, args, err := f.where()
	if err != nil {
		return err
	}
	rows, err := db.x.QueryxContext(ctx, `SELECT `+shipmentColumns+` FROM shipments WHERE `+where+` ORDER BY `+f.orderBy(), args...)
	if err != nil {
		return fmt.Errorf("export shipments: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var s Shipment
		if err := rows.StructScan(&s); err != nil {
			return fmt.Errorf("export shipments: %w", err)
		}
		if err := fn(s); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Scan finds shipments by what a scanner or a person typed: an exact tracking
// number, package number or reference; otherwise tracking numbers and
// references that start with it. Every branch is an index lookup.
func (db *DB) Scan(ctx context.Context, code string, limit int) ([]Shipment, bool, error) {
	code = strings.TrimSpace(code)
	if code == "" {
		return nil, false, nil
	}
	var exact []Shipment
	err := sqlxSelect(ctx, db, &exact, `
SELECT `+shipmentColumns+` FROM shipments WHERE tracking_number = $1
UNION
SELECT `+shipmentColumns+` FROM shipments WHERE packages @> jsonb_build_array(jsonb_build_object('number', $1::text))
UNION
SELECT `+shipmentColumns+` FROM shipments WHERE reference = $1
ORDER BY id DESC LIMIT $2`, strings.ToUpper(code), limit)
	if err != nil {
		return nil, false, fmt.Errorf("scan %q: %w", code, err)
	}
	if len(exact) == 0 && strings.ToUpper(code) != code {
		if err := sqlxSelect(ctx, db, &exact, `SELECT `+shipmentColumns+` FROM shipments WHERE reference = $1 ORDER BY id DESC LIMIT $2`, code, limit); err != nil {
			return nil, false, fmt.Errorf("scan %q: %w", code, err)
		}
	}
	if len(exact) > 0 {
		return exact, true, nil
	}
	var near []Shipment
	err = sqlxSelect(ctx, db, &near, `
SELECT `+shipmentColumns+` FROM shipments WHERE tracking_number LIKE $1
UNION
SELECT `+shipmentColumns+` FROM shipments WHERE reference LIKE $2
ORDER BY id DESC LIMIT $3`, likeEscape(strings.ToUpper(code))+"%", likeEscape(code)+"%", limit)
	return near, false, wrapf(err, "scan %q", code)
}
