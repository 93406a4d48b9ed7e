package storage

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

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
	LabelLess                  bool // ordered label-free: its pages speak of a code
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
		State: s.State, Status: s.Status, LabelMode: s.LabelMode, LabelStatus: s.LabelStatus, LabelLess: s.LabelLess, Returned: s.Returned, Origin: s.Origin}
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
carrier, service_name, state, status, label_mode, label_status, label_less, returned,
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
		&r.Carrier, &r.ServiceName, &r.State, &r.Status, &r.LabelMode, &r.LabelStatus, &r.LabelLess, &r.Returned,
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
