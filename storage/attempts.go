package storage

import (
	"context"
	"database/sql/driver"
	"fmt"
	"time"

	"github.com/lib/pq"

	"shipdesk/apperr"
)

// Strings is a PostgreSQL text[] column.
type Strings []string

// Scan reads a text[].
func (s *Strings) Scan(src any) error {
	var a pq.StringArray
	if err := a.Scan(src); err != nil {
		return err
	}
	*s = Strings(a)
	return nil
}

// Value writes a text[].
func (s Strings) Value() (driver.Value, error) { return pq.StringArray(s).Value() }

// Outcomes of a create attempt.
const (
	AttemptOpen    = "open"    // sent, no answer yet
	AttemptCreated = "created" // the service answered with the order
	AttemptRefused = "refused" // the service refused it: nothing was created
	AttemptUnknown = "unknown" // the answer was lost
	AttemptAdopted = "adopted" // no answer came (the process stopped, or it was lost): the order was found at the service
)

// Attempt is one create call of a shipment or a commission.
type Attempt struct {
	ID       int64     `db:"id"`
	SentAt   time.Time `db:"sent_at"`
	Deadline time.Time `db:"deadline"` // after it, the call's outcome is settled at the service
	Outcome  string    `db:"outcome"`
}

// attemptOwner names the column of create_attempts that points at the record.
type attemptOwner string

const (
	ofShipment   attemptOwner = "shipment_id"
	ofCommission attemptOwner = "commission_id"
	ofPickup     attemptOwner = "pickup_id"
)

// table is the record's table.
func (o attemptOwner) table() string {
	switch o {
	case ofShipment:
		return "shipments"
	case ofPickup:
		return "pickups"
	}
	return "commissions"
}

// beginAttempt records that a create call is about to be sent and moves the
// record's settle time to the attempt's deadline.
func (db *DB) beginAttempt(ctx context.Context, o attemptOwner, id int64, sent, deadline time.Time) (int64, error) {
	var attempt int64
	err := sqlxGet(ctx, db, &attempt, `INSERT INTO create_attempts (`+string(o)+`, sent_at, deadline) VALUES ($1, $2, $3) RETURNING id`,
		id, sent, deadline)
	if err != nil {
		return 0, fmt.Errorf("record attempt of %s %d: %w", o.table(), id, err)
	}
	_, err = db.x.ExecContext(ctx, `UPDATE `+o.table()+` SET settles_at = GREATEST(COALESCE(settles_at, $2), $2) WHERE id = $1`, id, deadline)
	return attempt, wrapf(err, "settle time of %s %d", o.table(), id)
}

// EndAttempt records how a create call ended. A refused call settled nothing
// at the service, so its deadline is now.
func (db *DB) EndAttempt(ctx context.Context, attempt int64, outcome string, at time.Time) error {
	_, err := db.x.ExecContext(ctx, `UPDATE create_attempts SET outcome = $2,
    deadline = CASE WHEN $2 = 'refused' THEN LEAST(deadline, $3) ELSE deadline END WHERE id = $1`, attempt, outcome, at)
	return wrapf(err, "end attempt %d", attempt)
}

// settleAttempts ends the attempts of a record found created: attempt, the
// one whose create answered, as created; with none (0: found at the service
// by our reference), every attempt still open as adopted, so an attempt cut
// off by a crash does not stay open.
func (db *DB) settleAttempts(ctx context.Context, o attemptOwner, id, attempt int64) error {
	_, err := db.x.ExecContext(ctx, `UPDATE create_attempts SET outcome = CASE WHEN id = $2 THEN 'created' ELSE 'adopted' END
WHERE `+string(o)+` = $1 AND (id = $2 OR ($2 = 0 AND outcome = 'open'))`, id, attempt)
	return wrapf(err, "settle the attempts of %s %d", o.table(), id)
}

func (db *DB) attempts(ctx context.Context, o attemptOwner, id int64) ([]Attempt, error) {
	var out []Attempt
	err := sqlxSelect(ctx, db, &out, `SELECT id, sent_at, deadline, outcome FROM create_attempts WHERE `+string(o)+` = $1 ORDER BY id`, id)
	return out, wrapf(err, "attempts of %s %d", o.table(), id)
}

// addDuplicate keeps an extra order the service holds under the record's
// reference; it reports whether it was new.
func (db *DB) addDuplicate(ctx context.Context, o attemptOwner, id int64, number string) (bool, error) {
	res, err := db.x.ExecContext(ctx, `UPDATE `+o.table()+` SET duplicates = array_append(duplicates, $2)
WHERE id = $1 AND NOT ($2 = ANY(duplicates))`, id, number)
	if err != nil {
		return false, fmt.Errorf("record duplicate %s of %s %d: %w", number, o.table(), id, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// dropDuplicate forgets an extra order once it is cancelled.
func (db *DB) dropDuplicate(ctx context.Context, o attemptOwner, id int64, number string) error {
	res, err := db.x.ExecContext(ctx, `UPDATE `+o.table()+` SET duplicates = array_remove(duplicates, $2) WHERE id = $1 AND $2 = ANY(duplicates)`, id, number)
	return wrapf(affectedOne(res, err, "rec.not_duplicate", number, id), "drop duplicate %s of %s %d", number, o.table(), id)
}

// notMissing are the messages of a record that may not be sent again: it
// exists at the service, it is still waiting for an answer, or it is not
// proved missing.
type notMissing struct{ exists, waiting, unsettled string }

var (
	shipmentNotMissing   = notMissing{exists: "rec.shipment.exists", waiting: "rec.shipment.waiting", unsettled: "rec.shipment.unsettled"}
	commissionNotMissing = notMissing{exists: "rec.commission.exists", waiting: "rec.commission.waiting", unsettled: "rec.commission.unsettled"}
)

// errNotMissing: "again" is allowed only for a record proved missing.
func errNotMissing(say notMissing, id int64, state string, settles *time.Time, now time.Time) error {
	switch {
	case state == StateCreated:
		return apperr.New(apperr.Conflict, say.exists, id)
	case settles != nil && now.Before(*settles):
		return apperr.New(apperr.Conflict, say.waiting, id, apperr.Deadline(*settles))
	case state != StateMissing:
		return apperr.New(apperr.Conflict, say.unsettled, id)
	}
	return nil
}
