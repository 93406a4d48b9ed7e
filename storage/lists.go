package storage

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

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
	After     string // cursor of the last row of the previous page
	Limit     int
}

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

// where builds the filter's conditions with numbered arguments.
func (f ListFilter) where() (string, []any, error) {
	var c conditions
	if f.Status != "" {
		w, ok := statusWhere[f.Status]
		if !ok {
			return "", nil, fmt.Errorf("unknown status filter %q", f.Status)
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
		return "", nil, fmt.Errorf("unknown sort %q", f.Sort)
	}
	if f.After != "" {
		cur, err := decodeCursor(f.After)
		if err != nil {
			return "", nil, err
		}
		switch f.Sort {
		case "old":
			c.add(fmt.Sprintf("(created_at, id) > (%s, %s)", c.arg(cur.at), c.arg(cur.id)))
		case "recipient":
			c.add(fmt.Sprintf("(recipient_name, id) > (%s, %s)", c.arg(cur.text), c.arg(cur.id)))
		default:
			c.add(fmt.Sprintf("(created_at, id) < (%s, %s)", c.arg(cur.at), c.arg(cur.id)))
		}
	}
	return c.where(), c.args, nil
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

// cursor is where a page ended: the sort key and id of its last row.
type cursor struct {
	at   time.Time
	text string
	id   int64
}

func encodeCursor(sort string, s Shipment) string {
	key := strconv.FormatInt(s.CreatedAt.UnixMicro(), 10)
	if sort == "recipient" {
		key = s.RecipientName
	}
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(s.ID, 10) + ":" + key))
}

func decodeCursor(s string) (cursor, error) {
	damaged := apperr.New(apperr.Invalid, "rec.page_link")
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return cursor{}, damaged
	}
	id, key, ok := strings.Cut(string(raw), ":")
	n, err := strconv.ParseInt(id, 10, 64)
	if !ok || err != nil {
		return cursor{}, damaged
	}
	c := cursor{id: n, text: key}
	if us, err := strconv.ParseInt(key, 10, 64); err == nil {
		c.at = time.UnixMicro(us)
	}
	return c, nil
}

// ListPage is one page of the list and the cursor of the next ("" at the end).
type ListPage struct {
	Shipments []Shipment
	Next      string
}

// ListShipments returns one page, keyset-paged: the cost of a page does not grow
// with how far the clerk has paged.
func (db *DB) ListShipments(ctx context.Context, f ListFilter) (ListPage, error) {
	if f.Limit <= 0 || f.Limit > 200 {
		f.Limit = 50
	}
	where, args, err := f.where()
	if err != nil {
		return ListPage{}, err
	}
	q := `SELECT ` + shipmentColumns + ` FROM shipments WHERE ` + where + ` ORDER BY ` + f.orderBy() + fmt.Sprintf(` LIMIT %d`, f.Limit+1)
	var out []Shipment
	if err := sqlxSelect(ctx, db, &out, q, args...); err != nil {
		return ListPage{}, fmt.Errorf("list shipments: %w", err)
	}
	page := ListPage{Shipments: out}
	if len(out) > f.Limit {
		page.Shipments = out[:f.Limit]
		page.Next = encodeCursor(f.Sort, out[f.Limit-1])
	}
	return page, nil
}

// ListSQL is the list's bare query, for the benchmark that compares a page
// with its query.
func (f ListFilter) ListSQL() (string, []any, error) {
	where, args, err := f.where()
	if f.Limit <= 0 || f.Limit > 200 {
		f.Limit = 50
	}
	return `SELECT ` + shipmentColumns + ` FROM shipments WHERE ` + where + ` ORDER BY ` + f.orderBy() + fmt.Sprintf(` LIMIT %d`, f.Limit+1), args, err
}

// EachShipment calls fn for every shipment of the filter, streaming rows from
// the database, so an export of any size holds one row at a time.
func (db *DB) EachShipment(ctx context.Context, f ListFilter, fn func(Shipment) error) error {
	f.After = ""
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
