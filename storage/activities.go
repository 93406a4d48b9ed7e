package storage

import (
	"context"
	"errors"
	"time"
)

// States of an activity intent.
const (
	ActivitySending = "sending" // recorded, the call is under way
	ActivitySent    = "sent"    // the service has it
	ActivityUnknown = "unknown" // the answer was lost: it may have reached the service
)

// Activity is a note or a message to the customer, recorded before it is
// sent so that a repeated post never sends it twice.
type Activity struct {
	ID           int64     `db:"id"`
	RequestKey   string    `db:"request_key"`
	CommissionID int64     `db:"commission_id"`
	Public       bool      `db:"public"`
	Text         string    `db:"text"`
	State        string    `db:"state"`
	RemoteID     *int64    `db:"remote_id"`
	CreatedAt    time.Time `db:"created_at"`
}

const activityColumns = `id, request_key, commission_id, public, text, state, remote_id, created_at`

// BeginActivity records the intent to send an activity; the same request key
// again returns the first record (fresh false) and nothing is stored.
func (db *DB) BeginActivity(ctx context.Context, a Activity, by int64) (Activity, bool, error) {
	var out Activity
	err := sqlxGet(ctx, db, &out, `INSERT INTO commission_activities (request_key, commission_id, public, text, state, created_by, created_at)
VALUES ($1, $2, $3, $4, 'sending', $5, $6) ON CONFLICT (request_key) DO NOTHING RETURNING `+activityColumns,
		a.RequestKey, a.CommissionID, a.Public, a.Text, UserRef(by), a.CreatedAt)
	if errors.Is(err, errNoRows) {
		err = sqlxGet(ctx, db, &out, `SELECT `+activityColumns+` FROM commission_activities WHERE request_key = $1`, a.RequestKey)
		return out, false, wrapf(err, "activity by key")
	}
	return out, err == nil, wrapf(err, "record activity of commission %d", a.CommissionID)
}

// ActivitySentAs records the service's id of a sent activity.
func (db *DB) ActivitySentAs(ctx context.Context, id, remoteID int64) error {
	_, err := db.x.ExecContext(ctx, `UPDATE commission_activities SET state = 'sent', remote_id = $2, error = '' WHERE id = $1`, id, remoteID)
	return wrapf(err, "activity %d sent", id)
}

// ActivityLost records that an activity's answer was lost.
func (db *DB) ActivityLost(ctx context.Context, id int64, why string) error {
	_, err := db.x.ExecContext(ctx, `UPDATE commission_activities SET state = 'unknown', error = $2 WHERE id = $1 AND state = 'sending'`, id, why)
	return wrapf(err, "activity %d lost", id)
}

// DropActivity deletes an activity the service refused: nothing was sent.
func (db *DB) DropActivity(ctx context.Context, id int64) error {
	_, err := db.x.ExecContext(ctx, `DELETE FROM commission_activities WHERE id = $1 AND state = 'sending'`, id)
	return wrapf(err, "drop activity %d", id)
}

// OpenActivities lists a commission's activities whose outcome is not known.
func (db *DB) OpenActivities(ctx context.Context, commissionID int64) ([]Activity, error) {
	var out []Activity
	err := sqlxSelect(ctx, db, &out, `SELECT `+activityColumns+` FROM commission_activities
WHERE commission_id = $1 AND state IN ('sending', 'unknown') ORDER BY id`, commissionID)
	return out, wrapf(err, "open activities of %d", commissionID)
}
