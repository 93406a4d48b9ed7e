package storage

import (
	"context"
	"time"
)

// ParcelMailSetting is the managers' choice for one step of a parcel that
// may mail its customer (table parcel_mail_settings, migration 00060): on or
// off, and their own wording per language (empty: the catalog's default).
type ParcelMailSetting struct {
	Event     string `db:"event"`
	Enabled   bool   `db:"enabled"`
	SubjectCS string `db:"subject_cs"`
	BodyCS    string `db:"body_cs"`
	SubjectEN string `db:"subject_en"`
	BodyEN    string `db:"body_en"`
}

// ParcelMailSettings reads the stored settings by event; a step without a
// row mails with the default wording.
func (db *DB) ParcelMailSettings(ctx context.Context) (map[string]ParcelMailSetting, error) {
	var rows []ParcelMailSetting
	err := sqlxSelect(ctx, db, &rows, `SELECT event, enabled, subject_cs, body_cs, subject_en, body_en FROM parcel_mail_settings`)
	out := make(map[string]ParcelMailSetting, len(rows))
	for _, r := range rows {
		out[r.Event] = r
	}
	return out, wrapf(err, "read the parcel mail settings")
}

// SaveParcelMailSetting stores one step's setting.
func (db *DB) SaveParcelMailSetting(ctx context.Context, s ParcelMailSetting, now time.Time) error {
	_, err := db.x.ExecContext(ctx, `
INSERT INTO parcel_mail_settings (event, enabled, subject_cs, body_cs, subject_en, body_en, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (event) DO UPDATE SET enabled = $2, subject_cs = $3, body_cs = $4, subject_en = $5, body_en = $6, updated_at = $7`,
		s.Event, s.Enabled, s.SubjectCS, s.BodyCS, s.SubjectEN, s.BodyEN, now)
	return wrapf(err, "save the parcel mail setting %s", s.Event)
}

// PointWaitDays is how many days the shop tells its customers a parcel
// waits at a point.
func (db *DB) PointWaitDays(ctx context.Context) (int, error) {
	var n int
	err := sqlxGet(ctx, db, &n, `SELECT point_wait_days FROM parcel_mail_options WHERE id = 1`)
	return n, wrapf(err, "read the days a parcel waits at a point")
}

// SavePointWaitDays stores them (1 to 30; the table refuses others).
func (db *DB) SavePointWaitDays(ctx context.Context, n int) error {
	_, err := db.x.ExecContext(ctx, `UPDATE parcel_mail_options SET point_wait_days = $1 WHERE id = 1`, n)
	return wrapf(err, "save the days a parcel waits at a point")
}

// ParcelNews is what the customer's mail of a parcel needs to know of one
// shipment, read in the transaction that stored its tracking: its state now,
// whether this answer brought new events (Moved), whether a delivery failed
// (the attention queue's rule) and whether it is stuck (the queue's rule
// too), and whom and what to write.
type ParcelNews struct {
	ID             int64      `db:"id"`
	Status         string     `db:"status"`
	Returned       bool       `db:"returned"`
	Moved          bool       `db:"moved"`
	DeliveryFailed bool       `db:"delivery_failed"`
	Stuck          bool       `db:"stuck"`
	LastEvent      time.Time  `db:"last_event"`
	TrackingNumber string     `db:"tracking_number"`
	TrackToken     string     `db:"track_token"`
	RecipientName  string     `db:"recipient_name"`
	Email          string     `db:"email"`
	Country        string     `db:"country"`
	PointCode      string     `db:"point_code"`
	PointName      string     `db:"point_name"`
	PointStreet    string     `db:"point_street"`
	PointCity      string     `db:"point_city"`
	PointZip       string     `db:"point_zip"`
	DeliveredAt    *time.Time `db:"delivered_at"`
}

// parcelNewsSQL reads the batch's shipments that may mail their customer:
// ordered by us with an e-mail, not marked "no customer mail", and either
// moved by this answer or stuck. $1 now, $2 the zone, $3 the holidays (the
// stuck rule's), $4 the batch, $5 those with new events.
const parcelNewsSQL = `
SELECT s.id, s.status, s.returned, COALESCE(s.id = ANY($5), false) AS moved, f.at IS NOT NULL AS delivery_failed,
    (` + stuckWhere + `) AS stuck, l.at AS last_event,
    COALESCE(s.tracking_number, '') AS tracking_number, s.track_token, s.recipient_name,
    COALESCE(btrim(s.request->'shipments'->0->'to'->>'email'), '') AS email,
    COALESCE(s.request->'shipments'->0->'to'->>'country', '') AS country,
    COALESCE(s.request->'shipments'->0->>'delivery_branch', '') AS point_code,
    COALESCE(p.name, '') AS point_name, COALESCE(p.street, '') AS point_street,
    COALESCE(p.city, '') AS point_city, COALESCE(p.zip, '') AS point_zip, s.delivered_at
FROM shipments s
` + stuckJoins + `
` + failedDeliveryJoin + `
LEFT JOIN LATERAL (SELECT name, street, city, zip FROM parcel_points pp
    WHERE upper(pp.carrier) = upper(s.carrier) AND pp.code = s.request->'shipments'->0->>'delivery_branch' LIMIT 1) p ON true
WHERE s.id = ANY($4) AND s.origin = 'shipdesk' AND NOT s.no_customer_mail AND s.cancelled_at IS NULL
    AND COALESCE(btrim(s.request->'shipments'->0->'to'->>'email'), '') <> ''
    AND (s.id = ANY($5) OR (` + stuckWhere + `))
ORDER BY s.id`

// ParcelNews reads the news of ids (moved: those whose answer brought new
// events) at now, in the shop's zone (its working days count), for the mail
// of each (see ParcelNews).
func (db *DB) ParcelNews(ctx context.Context, ids, moved []int64, now time.Time) ([]ParcelNews, error) {
	var out []ParcelNews
	if moved == nil {
		moved = []int64{}
	}
	err := sqlxSelect(ctx, db, &out, parcelNewsSQL, append(rulesArgs(now), pqArray(ids), pqArray(moved))...)
	return out, wrapf(err, "read the news of %d parcels", len(ids))
}
