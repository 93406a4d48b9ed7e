package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Count is a number of shipments for a key (a day, a status, a group).
type Count struct {
	Key   string `db:"key"`
	Count int    `db:"count"`
}

// Report is the managers' figures over a period of creation dates.
type Report struct {
	Total             int
	Delivered         int
	Returned          int
	LabelsFailed      int
	Cancelled         int
	AvgDaysToDelivery *float64 // nil when nothing was delivered
	PerDay            []Count  // every day of the period, zeros included
	PerStatus         []Count
	PerCarrier        []Count
}

// Report computes the figures of shipments created in [from, to).
func (db *DB) Report(ctx context.Context, from, to time.Time) (Report, error) {
	var r Report
	const base = `FROM shipments WHERE state = 'created' AND created_at >= $1 AND created_at < $2`
	var totals struct {
		Total        int      `db:"total"`
		Delivered    int      `db:"delivered"`
		Returned     int      `db:"returned"`
		LabelsFailed int      `db:"labels_failed"`
		Cancelled    int      `db:"cancelled"`
		AvgDays      *float64 `db:"avg_days"`
	}
	err := sqlxGet(ctx, db, &totals, `SELECT count(*) AS total,
    count(*) FILTER (WHERE status = 'DELIVERED') AS delivered,
    count(*) FILTER (WHERE returned) AS returned,
    count(*) FILTER (WHERE label_status = 'FAILED') AS labels_failed,
    count(*) FILTER (WHERE status = 'CANCELLED' OR cancelled_at IS NOT NULL) AS cancelled,
    avg(extract(epoch FROM delivered_at - created_at) / 86400) FILTER (WHERE delivered_at IS NOT NULL) AS avg_days
`+base, from, to)
	if err != nil {
		return r, fmt.Errorf("report totals: %w", err)
	}
	r.Total, r.Delivered, r.Returned, r.LabelsFailed, r.Cancelled, r.AvgDaysToDelivery =
		totals.Total, totals.Delivered, totals.Returned, totals.LabelsFailed, totals.Cancelled, totals.AvgDays
	// Days are the calendar days of the period's time zone (from's), each
	// from its local midnight, whatever zone the database session is in.
	if err := sqlxSelect(ctx, db, &r.PerDay, `
SELECT to_char(d, 'YYYY-MM-DD') AS key, count(s.id) AS count
FROM generate_series(($1::timestamptz AT TIME ZONE $3)::date::timestamp,
    (($2::timestamptz - interval '1 microsecond') AT TIME ZONE $3)::date::timestamp, interval '1 day') AS d
LEFT JOIN shipments s ON s.state = 'created' AND s.created_at >= (d AT TIME ZONE $3) AND s.created_at < ((d + interval '1 day') AT TIME ZONE $3)
    AND s.created_at >= $1 AND s.created_at < $2
GROUP BY d ORDER BY d`, from, to, zoneName(from)); err != nil {
		return r, fmt.Errorf("report per day: %w", err)
	}
	if err := sqlxSelect(ctx, db, &r.PerStatus, `SELECT CASE WHEN cancelled_at IS NOT NULL THEN 'CANCELLED' ELSE status END AS key, count(*) AS count `+
		base+` GROUP BY 1 ORDER BY 2 DESC, 1`, from, to); err != nil {
		return r, fmt.Errorf("report per status: %w", err)
	}
	if err := sqlxSelect(ctx, db, &r.PerCarrier, `SELECT COALESCE(NULLIF(carrier, ''), '?') AS key, count(*) AS count `+
		base+` GROUP BY 1 ORDER BY 1`, from, to); err != nil {
		return r, fmt.Errorf("report per carrier: %w", err)
	}
	return r, nil
}

// Attention counts what someone should look at today: the labels to print
// (the day's work) and the open items of the "needs attention" queue per kind.
type Attention struct {
	ToPrint int // labels ready and not printed
	// Checked is when the service was last asked about a shipment: how old
	// the counts' picture of the parcels is.
	Checked *time.Time
	Queue   []KindCount // open items per kind (kinds without any are left out)
}

// Attention reads the home page's counts at now (in the shop's zone, whose
// days are the queue's working days).
func (db *DB) Attention(ctx context.Context, now time.Time) (Attention, error) {
	// One statement: the home page asks for it on every refresh.
	var row struct {
		ToPrint int        `db:"to_print"`
		Checked *time.Time `db:"checked"`
		Queue   []byte     `db:"queue"`
	}
	err := sqlxGet(ctx, db, &row, `WITH rules AS (`+attentionRules+`) SELECT
    (SELECT count(*) FROM shipments WHERE `+toPrint+`) AS to_print,
    (SELECT max(last_checked_at) FROM shipments) AS checked,
    COALESCE((SELECT json_agg(json_build_object('kind', c.kind, 'count', c.count)) FROM (`+openPerKind+`) c), '[]') AS queue`,
		rulesArgs(now)...)
	if err != nil {
		return Attention{}, wrapf(err, "attention counts")
	}
	a := Attention{ToPrint: row.ToPrint, Checked: row.Checked}
	if err := json.Unmarshal(row.Queue, &a.Queue); err != nil {
		return Attention{}, wrapf(err, "attention counts: queue")
	}
	return a, nil
}

// zoneName is the IANA name of t's time zone, as PostgreSQL knows it; a
// zone without one (the process's "Local") counts as UTC.
func zoneName(t time.Time) string {
	if name := t.Location().String(); name != "" && name != "Local" {
		return name
	}
	return "UTC"
}
