package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Resolution is how the agent settled a claim.
type Resolution struct {
	Code   string // repaired, replaced, refunded, rejected
	Reason string // required for rejected
	At     time.Time
	By     int64
	// SettledDays: calendar days from lodging to At.
	SettledDays int
}

// SetResolution records how a claim ended, before the move that settles it
// is sent: a lost answer keeps it, a refused move clears it (ClearResolution).
func (db *DB) SetResolution(ctx context.Context, id int64, r Resolution) error {
	res, err := db.x.ExecContext(ctx, `UPDATE commissions SET resolution = $2, resolution_reason = $3, resolved_at = $4,
    resolved_by = $5, settled_days = $6 WHERE id = $1`, id, r.Code, r.Reason, r.At, UserRef(r.By), r.SettledDays)
	return wrapf(affectedOne(res, err, "rec.no_commission", id), "resolve commission %d", id)
}

// ClearResolution forgets a resolution whose move the service refused.
func (db *DB) ClearResolution(ctx context.Context, id int64) error {
	_, err := db.x.ExecContext(ctx, `UPDATE commissions SET resolution = '', resolution_reason = '', resolved_at = NULL,
    resolved_by = NULL, settled_days = NULL WHERE id = $1`, id)
	return wrapf(err, "clear the resolution of commission %d", id)
}

// ScanCommissions finds the commissions a scanned code names: by their number,
// or by the tracking number of the transport from the customer (the inbound
// parcel), in any letter case. Newest first, at most limit.
func (db *DB) ScanCommissions(ctx context.Context, code string, limit int) ([]Commission, error) {
	inbound := func(tn string) string {
		b, _ := json.Marshal([]map[string]string{{"direction": "from_customer", "tracking_number": tn}})
		return string(b)
	}
	var out []Commission
	err := sqlxSelect(ctx, db, &out, `SELECT `+commissionColumns+` FROM commissions
WHERE upper(number) = upper($1) OR raw -> 'shipments' @> $2::jsonb OR raw -> 'shipments' @> $3::jsonb
ORDER BY created_at DESC, id DESC LIMIT $4`, code, inbound(code), inbound(strings.ToUpper(code)), limit)
	return out, wrapf(err, "scan commissions for %q", code)
}

// ReturnsReport is the returns desk's part of the managers' figures: claims
// settled in a period, by resolution.
type ReturnsReport struct {
	Resolved     int
	PerOutcome   map[string]int // by resolution
	AvgDays      *float64       // warranty claims: average days from lodging to the resolution; nil: none
	WithinPeriod int            // warranty claims settled within their 30 days
	Late         int            // warranty claims settled after their 30 days
}

// ReturnsReport counts the claims resolved in [from, to).
func (db *DB) ReturnsReport(ctx context.Context, from, to time.Time, periodDays int) (ReturnsReport, error) {
	var r ReturnsReport
	var rows []Count
	if err := sqlxSelect(ctx, db, &rows, `SELECT resolution AS key, count(*) AS count FROM commissions
WHERE resolution <> '' AND resolved_at >= $1 AND resolved_at < $2 GROUP BY resolution`, from, to); err != nil {
		return r, fmt.Errorf("returns report: %w", err)
	}
	r.PerOutcome = map[string]int{}
	for _, c := range rows {
		r.PerOutcome[c.Key] = c.Count
		r.Resolved += c.Count
	}
	var w struct {
		Avg    *float64 `db:"avg_days"`
		Within int      `db:"within"`
		Late   int      `db:"late"`
	}
	err := sqlxGet(ctx, db, &w, `SELECT avg(settled_days)::float8 AS avg_days,
    count(*) FILTER (WHERE settled_days <= $3) AS within, count(*) FILTER (WHERE settled_days > $3) AS late
FROM commissions WHERE type = 'warranty' AND resolution <> '' AND settled_days IS NOT NULL AND resolved_at >= $1 AND resolved_at < $2`,
		from, to, periodDays)
	if err != nil {
		return r, fmt.Errorf("returns report, warranty claims: %w", err)
	}
	r.AvgDays, r.WithinPeriod, r.Late = w.Avg, w.Within, w.Late
	return r, nil
}
