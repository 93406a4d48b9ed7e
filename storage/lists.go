package storage

import (
	"context"
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
}

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
	Shipments []Shipment
	Next      string // the page after this one
	Prev      string // the page before this one
	Total     int    // shipments of the filter, all pages
	Start     int    // place of the first row among Total, from 0
}

// ListShipments returns one page, keyset-paged in both directions: the cost
// of a page does not grow with how far the manager has paged. The total of
// the filter is one count over the filter's indexes, run beside the page.
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
	countSQL, countArgs := `SELECT count(*) FROM shipments WHERE `+c.where(), slices.Clone(c.args)
	total := make(chan countResult, 1)
	if _, inTx := db.x.(*sqlx.Tx); inTx {
		total <- db.count(ctx, countSQL, countArgs)
	} else {
		go func() { total <- db.count(ctx, countSQL, countArgs) }()
	}

	limit := f.limit()
	if f.After != "" || f.Before != "" {
		c.keyset(f.Sort, cur, forward)
	}
	order := f.orderBy()
	if !forward {
		order = f.reverseOrder()
	}
	var rows []Shipment
	err = sqlxSelect(ctx, db, &rows, `SELECT `+shipmentColumns+` FROM shipments WHERE `+c.where()+` ORDER BY `+order+fmt.Sprintf(` LIMIT %d`, limit+1), c.args...)
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
	switch {
	case f.After != "":
		page.Start = cur.pos + 1
	case f.Before != "" && more:
		page.Start = cur.pos - len(rows)
	case f.Last:
		page.Start = n.n - len(rows)
	}
	page.Start = max(0, min(page.Start, n.n-len(rows)))
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

// ListSQL is the list's bare query, for the benchmark that compares a page
// with its query.
func (f ListFilter) ListSQL() (string, []any, error) {
	where, args, err := f.where()
	return `SELECT ` + shipmentColumns + ` FROM shipments WHERE ` + where + ` ORDER BY ` + f.orderBy() + fmt.Sprintf(` LIMIT %d`, f.limit()+1), args, err
}

// CountSQL is the list's count of the filter, for the same benchmark: a page
// runs it beside ListSQL.
func (f ListFilter) CountSQL() (string, []any, error) {
	c, err := f.filter()
	return `SELECT count(*) FROM shipments WHERE ` + c.where(), c.args, err
}

// EachShipment calls fn for every shipment of the filter, streaming rows from
// the database, so an export of any size holds one row at a time.
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
