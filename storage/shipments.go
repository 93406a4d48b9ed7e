package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"shipdesk/apperr"
)

// Local states of an order (see the shipments table).
const (
	StateOrdering = "ordering"
	StateCreated  = "created"
	StateUnknown  = "unknown"
	StateMissing  = "missing"
)

// Shipment is an order of one shipment through shipdesk, from intent to reply.
type Shipment struct {
	ID             int64       `db:"id"`
	RequestKey     string      `db:"request_key"`
	Reference      string      `db:"reference"`
	State          string      `db:"state"`
	Request        JSON        `db:"request"` // the order as sent to shipments/create
	Carrier        string      `db:"carrier"`
	ServiceID      int         `db:"service_id"`
	ServiceName    string      `db:"service_name"`
	RecipientName  string      `db:"recipient_name"`
	RecipientCity  string      `db:"recipient_city"`
	LabelLess      bool        `db:"label_less"`
	CODValue       *float64    `db:"cod_value"`
	CODCurrency    *string     `db:"cod_currency"`
	InsuredValue   *float64    `db:"insured_value"` // CZK; nil: not insured
	TrackingNumber *string     `db:"tracking_number"`
	OrderID        *int64      `db:"order_id"`
	OrderNumber    *string     `db:"order_number"`
	OrderToken     *string     `db:"order_token"`
	Status         string      `db:"status"`
	LabelMode      string      `db:"label_mode"`
	LabelStatus    string      `db:"label_status"`
	Packages       Packages    `db:"packages"`
	Returned       bool        `db:"returned"`
	Error          apperr.Text `db:"error"`
	CreatedBy      *int64      `db:"created_by"`
	CreatedAt      time.Time   `db:"created_at"`
	OrderedAt      *time.Time  `db:"ordered_at"`
	LastCheckedAt  *time.Time  `db:"last_checked_at"`
	PrintedAt      *time.Time  `db:"printed_at"`
	CancelledAt    *time.Time  `db:"cancelled_at"`
	Origin         string      `db:"origin"` // shipdesk, or service: found at the service
	DeliveredAt    *time.Time  `db:"delivered_at"`
	PollFailures   int         `db:"poll_failures"`
	// NextLabelCheckAt: when the label poller asks about a pending label
	// next (nil: at once); while checks fail, their backoff.
	NextLabelCheckAt *time.Time `db:"next_label_check_at"`
	// SettlesAt: the deadline of the last create attempt; before it a missing
	// order may still appear at the service.
	SettlesAt *time.Time `db:"settles_at"`
	// Duplicates are extra orders the service holds under our reference.
	Duplicates Strings `db:"duplicates"`
	// PriceVAT and PriceCurrency: the price of the chosen offer with VAT, as
	// it was offered when ordering; nil when not known.
	PriceVAT      *float64 `db:"price_vat"`
	PriceCurrency *string  `db:"price_currency"`
	// NoteCount and LastNote: how many internal notes the shipment has and
	// the latest one's text, for the lists (ShipmentNotes holds them all).
	NoteCount int    `db:"note_count"`
	LastNote  string `db:"last_note"`
	// NoCustomerMail: the recipient gets no mail of the parcel's steps (a
	// business customer, say).
	NoCustomerMail bool `db:"no_customer_mail"`
}

// Tracking is the tracking number, empty until the service confirmed the order.
func (s Shipment) Tracking() string {
	if s.TrackingNumber == nil {
		return ""
	}
	return *s.TrackingNumber
}

const shipmentColumns = `id, request_key, reference, state, request, carrier, service_id, service_name,
recipient_name, recipient_city, label_less, cod_value, cod_currency, insured_value, tracking_number, order_id, order_number, order_token,
status, label_mode, label_status, packages, returned, error, created_by, created_at, ordered_at, last_checked_at,
printed_at, cancelled_at, origin, delivered_at, poll_failures, next_label_check_at, settles_at, duplicates, price_vat, price_currency, note_count, last_note,
no_customer_mail`

// BeginShipment records the intent to order, and its first attempt, before
// shipments/create is called. A second call with the same request key (a double
// click, a repeated post) finds the first record instead: fresh is false and
// nothing new is stored.
func (db *DB) BeginShipment(ctx context.Context, s Shipment, sent, deadline time.Time) (out Shipment, attempt int64, fresh bool, err error) {
	out, attempt, fresh, err = db.insertOrder(ctx, s, sent, deadline)
	if err != nil {
		// A concurrent post of the same form may have won the race on the
		// reference before the request key was seen: it is the same order.
		if same, kerr := db.ShipmentByKey(ctx, s.RequestKey); kerr == nil {
			return same, 0, false, nil
		}
		var existing Shipment
		if !apperr.Is(err, apperr.Conflict) && sqlxGet(ctx, db, &existing, `SELECT `+shipmentColumns+
			` FROM shipments WHERE reference = $1 AND state <> 'missing' AND origin = 'shipdesk'`, s.Reference) == nil {
			e := apperr.New(apperr.Conflict, "rec.reference_taken", s.Reference, existing.ID)
			e.Err = err
			return Shipment{}, 0, false, e
		}
	}
	return out, attempt, fresh, err
}

// insertOrder records the intent, created at now on the dashboard's clock,
// with its first attempt and the attempt's deadline as its settle time: one
// statement, as atomic as a transaction of three and one round trip, not
// five (a batch orders hundreds). An intent recorded already under the
// request key is returned as it stands (fresh false, no attempt).
func (db *DB) insertOrder(ctx context.Context, s Shipment, now, deadline time.Time) (out Shipment, attempt int64, fresh bool, err error) {
	const q = `
WITH s AS (
    INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, service_name,
        recipient_name, recipient_city, label_less, cod_value, cod_currency, insured_value, created_by, price_vat, price_currency,
        created_at, settles_at, no_customer_mail)
    VALUES ($1, $2, 'ordering', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
    ON CONFLICT (request_key) DO NOTHING
    RETURNING ` + shipmentColumns + `),
a AS (INSERT INTO create_attempts (shipment_id, sent_at, deadline) SELECT id, $16, $17 FROM s RETURNING id)
SELECT s.*, a.id AS attempt_id FROM s, a`
	var row struct {
		Shipment
		Attempt int64 `db:"attempt_id"`
	}
	err = sqlxGet(ctx, db, &row, q, s.RequestKey, s.Reference, s.Request, s.Carrier, s.ServiceID, s.ServiceName,
		s.RecipientName, s.RecipientCity, s.LabelLess, s.CODValue, s.CODCurrency, s.InsuredValue, s.CreatedBy, s.PriceVAT, s.PriceCurrency,
		now, deadline, s.NoCustomerMail)
	switch {
	case err == nil:
		row.SettlesAt = &deadline
		return row.Shipment, row.Attempt, true, nil
	case errors.Is(err, errNoRows):
		out, err = db.ShipmentByKey(ctx, s.RequestKey)
		return out, 0, false, err
	}
	// A reference taken is told by BeginShipment.
	return Shipment{}, 0, false, fmt.Errorf("record order %s: %w", s.Reference, err)
}

// ShipmentByKey finds the order recorded for a request key.
func (db *DB) ShipmentByKey(ctx context.Context, key string) (Shipment, error) {
	var s Shipment
	err := sqlxGet(ctx, db, &s, `SELECT `+shipmentColumns+` FROM shipments WHERE request_key = $1`, key)
	return s, wrapf(notFound(err, "rec.no_order_for_form"), "shipment by key")
}

// ShipmentByID finds one shipment.
func (db *DB) ShipmentByID(ctx context.Context, id int64) (Shipment, error) {
	var s Shipment
	err := sqlxGet(ctx, db, &s, `SELECT `+shipmentColumns+` FROM shipments WHERE id = $1`, id)
	return s, wrapf(notFound(err, "rec.no_shipment", id), "shipment %d", id)
}

// ShipmentsByID finds several shipments, in id order.
func (db *DB) ShipmentsByID(ctx context.Context, ids []int64) ([]Shipment, error) {
	var out []Shipment
	err := sqlxSelect(ctx, db, &out, `SELECT `+shipmentColumns+` FROM shipments WHERE id = ANY($1) ORDER BY id`, pqArray(ids))
	return out, wrapf(err, "shipments %v", ids)
}

// Reply is what the service said about a shipment (create, detail, list).
type Reply struct {
	TrackingNumber string
	OrderID        int64
	OrderNumber    string
	OrderToken     string
	Status         string
	LabelMode      string
	LabelStatus    string
	Packages       Packages
	Returned       bool
	// ExpectedDelivery is the day the service expects the parcel delivered
	// (or delivered it), YYYY-MM-DD; "" keeps the day stored.
	ExpectedDelivery string
}

// RecordShipment stores the service's confirmation of an order, whatever the
// shipment's state meanwhile: a late answer is never lost. When the shipment is
// bound to another order already, this one is a duplicate at the service and is
// kept as such (duplicate true).
func (db *DB) RecordShipment(ctx context.Context, id int64, r Reply, at time.Time) (duplicate bool, err error) {
	q := withShopWrites("", `
UPDATE shipments SET state = 'created', tracking_number = $2, order_id = NULLIF($3, 0), order_number = COALESCE(NULLIF($4, ''), order_number),
    order_token = COALESCE(NULLIF($5, ''), order_token), status = $6, label_mode = $7, label_status = $8, packages = $9,
    error = '', ordered_at = COALESCE(ordered_at, $10), last_checked_at = $10,
    expected_delivery = COALESCE(NULLIF($11, '')::date, expected_delivery)
WHERE id = $1 AND (tracking_number IS NULL OR tracking_number = $2)
RETURNING `+shopWriteSource)
	res, err := db.x.ExecContext(ctx, q, id, r.TrackingNumber, r.OrderID, r.OrderNumber, r.OrderToken, r.Status, r.LabelMode, r.LabelStatus, r.Packages, at,
		r.ExpectedDelivery)
	if err != nil {
		return false, fmt.Errorf("record created shipment %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return false, nil
	}
	if _, err := db.ShipmentByID(ctx, id); err != nil {
		return false, err
	}
	_, err = db.addDuplicate(ctx, ofShipment, id, r.TrackingNumber)
	return true, err
}

// RecordCreated records a created order as RecordShipment does, with its
// attempt ended as created, and returns the shipment as it stands: one
// statement where the three would take three (a batch orders hundreds).
func (db *DB) RecordCreated(ctx context.Context, id, attempt int64, r Reply, at time.Time) (s Shipment, duplicate bool, err error) {
	q := withShopWrites(`a AS (UPDATE create_attempts SET outcome = 'created' WHERE id = $11), `, `
UPDATE shipments SET state = 'created', tracking_number = $2, order_id = NULLIF($3, 0), order_number = COALESCE(NULLIF($4, ''), order_number),
    order_token = COALESCE(NULLIF($5, ''), order_token), status = $6, label_mode = $7, label_status = $8, packages = $9,
    error = '', ordered_at = COALESCE(ordered_at, $10), last_checked_at = $10,
    expected_delivery = COALESCE(NULLIF($12, '')::date, expected_delivery)
WHERE id = $1 AND (tracking_number IS NULL OR tracking_number = $2)
RETURNING `+shipmentColumns)
	err = sqlxGet(ctx, db, &s, q, id, r.TrackingNumber, r.OrderID, r.OrderNumber, r.OrderToken, r.Status, r.LabelMode, r.LabelStatus, r.Packages, at, attempt,
		r.ExpectedDelivery)
	if !errors.Is(err, errNoRows) {
		return s, false, wrapf(err, "record created shipment %d", id)
	}
	// Bound to another order already: this one is a duplicate to cancel.
	if _, err := db.ShipmentByID(ctx, id); err != nil {
		return s, false, err
	}
	if _, err := db.addDuplicate(ctx, ofShipment, id, r.TrackingNumber); err != nil {
		return s, true, err
	}
	s, err = db.ShipmentByID(ctx, id)
	return s, true, err
}

// RecordState stores a later state of a created shipment (detail or tracking).
func (db *DB) RecordState(ctx context.Context, id int64, r Reply, at time.Time) error {
	q := withShopWrites("", `
UPDATE shipments SET status = $2, label_mode = $3, label_status = $4, packages = $5, returned = $6, last_checked_at = $7,
    cancelled_at = CASE WHEN $2 = 'CANCELLED' THEN COALESCE(cancelled_at, $7) ELSE cancelled_at END,
    expected_delivery = COALESCE(NULLIF($8, '')::date, expected_delivery)
WHERE id = $1 AND state = 'created'
RETURNING `+shopWriteSource)
	res, err := db.x.ExecContext(ctx, q, id, r.Status, r.LabelMode, r.LabelStatus, r.Packages, r.Returned, at, r.ExpectedDelivery)
	return wrapf(affectedOne(res, err, "rec.no_created_shipment", id), "record state of shipment %d", id)
}

// MarkShipmentOutcome moves an order whose create call failed to unknown, keeping why.
// A shipment whose order arrived meanwhile stays as it is.
func (db *DB) MarkShipmentOutcome(ctx context.Context, id int64, state string, why apperr.Text) error {
	_, err := db.x.ExecContext(ctx, `UPDATE shipments SET state = $2, error = $3 WHERE id = $1 AND state IN ('ordering', 'unknown')`, id, state, why)
	return wrapf(err, "mark shipment %d %s", id, state)
}

// MarkShipmentMissing concludes that an order was not created: only while its outcome
// is open and once every attempt's deadline has passed.
func (db *DB) MarkShipmentMissing(ctx context.Context, id int64, why apperr.Text, now time.Time) error {
	_, err := db.x.ExecContext(ctx, `UPDATE shipments SET state = 'missing', error = $2
WHERE id = $1 AND state IN ('ordering', 'unknown') AND COALESCE(settles_at, created_at) <= $3`, id, why, now)
	return wrapf(err, "mark shipment %d missing", id)
}

// DropShipmentIntent deletes an order the service refused: nothing exists upstream.
func (db *DB) DropShipmentIntent(ctx context.Context, id int64) error {
	_, err := db.x.ExecContext(ctx, `DELETE FROM shipments WHERE id = $1 AND state = 'ordering'`, id)
	return wrapf(err, "drop refused order %d", id)
}

// LockShipment reads a shipment and locks it until the transaction ends (use
// inside InTx), so that "again", "check" and the reconciler take turns.
func (db *DB) LockShipment(ctx context.Context, id int64) (Shipment, error) {
	var s Shipment
	err := sqlxGet(ctx, db, &s, `SELECT `+shipmentColumns+` FROM shipments WHERE id = $1 FOR UPDATE`, id)
	return s, wrapf(notFound(err, "rec.no_shipment", id), "lock shipment %d", id)
}

// ReopenShipment sends a missing order again: the caller holds the shipment's
// lock (LockShipment) and has asked the service by our reference just now.
// Allowed only when the shipment is missing and every earlier attempt has
// settled; the new attempt is recorded before the call.
func (db *DB) ReopenShipment(ctx context.Context, s Shipment, sent, deadline time.Time) (Shipment, int64, error) {
	if err := errNotMissing(shipmentNotMissing, s.ID, s.State, s.SettlesAt, sent); err != nil {
		return s, 0, err
	}
	res, err := db.x.ExecContext(ctx, `UPDATE shipments SET state = 'ordering', error = '' WHERE id = $1 AND state = 'missing'`, s.ID)
	if err := affectedOne(res, conflict(err, "rec.shipment_reference_now"), "rec.shipment_changed", s.ID); err != nil {
		return s, 0, wrapf(err, "reopen order %d", s.ID)
	}
	attempt, err := db.beginAttempt(ctx, ofShipment, s.ID, sent, deadline)
	if err != nil {
		return s, 0, err
	}
	s.State, s.Error, s.SettlesAt = StateOrdering, apperr.Text{}, &deadline
	return s, attempt, nil
}

// ShipmentAttempts lists the create calls of a shipment, oldest first.
func (db *DB) ShipmentAttempts(ctx context.Context, id int64) ([]Attempt, error) {
	return db.attempts(ctx, ofShipment, id)
}

// AddShipmentDuplicate keeps an extra order of the service under a shipment's
// reference; new reports whether it was not known yet.
func (db *DB) AddShipmentDuplicate(ctx context.Context, id int64, trackingNumber string) (new bool, err error) {
	return db.addDuplicate(ctx, ofShipment, id, trackingNumber)
}

// DropShipmentDuplicate forgets an extra order once it is cancelled.
func (db *DB) DropShipmentDuplicate(ctx context.Context, id int64, trackingNumber string) error {
	return db.dropDuplicate(ctx, ofShipment, id, trackingNumber)
}

// ShipmentByReference finds the shipdesk order that carries a reference (the
// live one before one proved missing).
func (db *DB) ShipmentByReference(ctx context.Context, reference string) (Shipment, error) {
	var s Shipment
	err := sqlxGet(ctx, db, &s, `SELECT `+shipmentColumns+` FROM shipments
WHERE reference = $1 AND origin = 'shipdesk' ORDER BY state = 'missing', id DESC LIMIT 1`, reference)
	return s, wrapf(notFound(err, "rec.no_reference", reference), "shipment by reference")
}

// Unsettled lists orders whose outcome is not known: unknown ones (the service
// may show them any time), and ones still ordering after every attempt's
// deadline (the process stopped during the call).
func (db *DB) Unsettled(ctx context.Context, now time.Time) ([]Shipment, error) {
	var out []Shipment
	err := sqlxSelect(ctx, db, &out, `SELECT `+shipmentColumns+` FROM shipments
WHERE state = 'unknown' OR (state = 'ordering' AND COALESCE(settles_at, created_at) < $1) ORDER BY id LIMIT 200`, now)
	return out, wrapf(err, "unsettled orders")
}

// RecentShipments lists the newest shipments.
func (db *DB) RecentShipments(ctx context.Context, limit int) ([]Shipment, error) {
	var out []Shipment
	err := sqlxSelect(ctx, db, &out, `SELECT `+shipmentColumns+` FROM shipments ORDER BY created_at DESC, id DESC LIMIT $1`, limit)
	return out, wrapf(err, "recent shipments")
}

// toPrint is a shipment whose label is ready and not printed, and which is
// neither delivered, returned nor cancelled (the print queue, and the home
// page's count): one the carrier reports on its way without a printed label
// stays, so nothing is lost between the label's arrival and the pickup
// (desk.NextStep offers it the same way). Label-free shipments have a code,
// not a label: their page shows it.
const toPrint = `label_status = 'READY' AND printed_at IS NULL AND cancelled_at IS NULL
  AND status NOT IN ('DELIVERED', 'CANCELLED') AND NOT returned
  AND label_mode NOT IN ('CODE', 'CARRIER')`

// PrintQueue lists shipments whose labels are ready and not yet printed, until
// they are delivered, returned or cancelled.
func (db *DB) PrintQueue(ctx context.Context) ([]Shipment, error) {
	var out []Shipment
	err := sqlxSelect(ctx, db, &out, `SELECT `+shipmentColumns+` FROM shipments WHERE `+toPrint+` ORDER BY id LIMIT 500`)
	return out, wrapf(err, "print queue")
}

// MarkPrinted records that the labels of shipments were printed.
func (db *DB) MarkPrinted(ctx context.Context, ids []int64, at time.Time) error {
	_, err := db.x.ExecContext(ctx, `UPDATE shipments SET printed_at = COALESCE(printed_at, $2) WHERE id = ANY($1)`, pqArray(ids), at)
	return wrapf(err, "mark printed %v", ids)
}

// HandoverShipments lists the created, not cancelled shipments a carrier
// picks up on a day: those with that pickup date, and those without one that
// were ordered that day (between start and end, the day in the shop's zone).
func (db *DB) HandoverShipments(ctx context.Context, day string, start, end time.Time) ([]Shipment, error) {
	var out []Shipment
	err := sqlxSelect(ctx, db, &out, `SELECT `+shipmentColumns+` FROM shipments
WHERE state = 'created' AND cancelled_at IS NULL AND status <> 'CANCELLED'
  AND (request->'shipments'->0->>'pickup_date' = $1
    OR (COALESCE(request->'shipments'->0->>'pickup_date', '') = '' AND created_at >= $2 AND created_at < $3))
ORDER BY carrier, id`, day, start, end)
	return out, wrapf(err, "shipments handed over on %s", day)
}

// MarkCancelled records a storno.
func (db *DB) MarkCancelled(ctx context.Context, id int64, at time.Time) error {
	res, err := db.x.ExecContext(ctx, withShopWrites("", `UPDATE shipments SET status = 'CANCELLED', cancelled_at = $2, last_checked_at = $2
WHERE id = $1 AND state = 'created' RETURNING `+shopWriteSource), id, at)
	return wrapf(affectedOne(res, err, "rec.no_created_shipment", id), "mark shipment %d cancelled", id)
}

// Draft is a cart draft created for review in the provider's manager.
type Draft struct {
	ID        int64     `db:"id"`
	DraftID   int64     `db:"draft_id"`
	Reference string    `db:"reference"`
	Recipient string    `db:"recipient"`
	Warnings  JSON      `db:"warnings"` // [{field, message}]
	Defaults  JSON      `db:"defaults"` // ["from", …]
	Filled    JSON      `db:"filled"`   // what the service filled in, as answered: [{field, …}]
	Modified  string    `db:"modified"`
	CreatedBy *int64    `db:"created_by"`
	CreatedAt time.Time `db:"created_at"`
	// SentBy is the username of CreatedBy (lists only; "" when the account is gone).
	SentBy string `db:"sent_by"`
	// WarningCount is how many warnings the service gave (lists only).
	WarningCount int `db:"warning_count"`
}

const draftColumns = `id, draft_id, reference, recipient, warnings, defaults, filled, modified, created_by, created_at`

// SaveDraft records a created draft.
func (db *DB) SaveDraft(ctx context.Context, d Draft) (Draft, error) {
	var out Draft
	if d.Filled == nil {
		d.Filled = JSON("[]")
	}
	err := sqlxGet(ctx, db, &out, `INSERT INTO cart_drafts (draft_id, reference, recipient, warnings, defaults, filled, modified, created_by)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING `+draftColumns,
		d.DraftID, d.Reference, d.Recipient, d.Warnings, d.Defaults, d.Filled, d.Modified, d.CreatedBy)
	return out, wrapf(err, "save draft %d", d.DraftID)
}

// DraftByID finds a recorded draft.
func (db *DB) DraftByID(ctx context.Context, id int64) (Draft, error) {
	var d Draft
	err := sqlxGet(ctx, db, &d, `SELECT `+draftColumns+` FROM cart_drafts WHERE id = $1`, id)
	return d, wrapf(notFound(err, "rec.no_draft", id), "draft %d", id)
}

// Drafts lists the drafts sent, newest first, with who sent each; before
// (a draft's id) pages back through older ones.
func (db *DB) Drafts(ctx context.Context, before int64, limit int) ([]Draft, error) {
	var out []Draft
	err := sqlxSelect(ctx, db, &out, `SELECT d.id, d.draft_id, d.reference, d.recipient, d.warnings, d.defaults, d.filled, d.modified,
    d.created_by, d.created_at, COALESCE(u.username, '') AS sent_by,
    CASE WHEN jsonb_typeof(d.warnings) = 'array' THEN jsonb_array_length(d.warnings) ELSE 0 END AS warning_count
FROM cart_drafts d LEFT JOIN users u ON u.id = d.created_by
WHERE $1 = 0 OR d.id < $1
ORDER BY d.id DESC LIMIT $2`, before, limit)
	return out, wrapf(err, "list drafts")
}
