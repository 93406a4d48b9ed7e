package storage

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
)

// Commission is a service order of the returns desk, from intent to the
// service's latest answer (Raw).
type Commission struct {
	ID            int64       `db:"id"`
	RequestKey    string      `db:"request_key"`
	Reference     string      `db:"reference"`
	State         string      `db:"state"`
	RemoteID      *int64      `db:"remote_id"`
	Number        string      `db:"number"`
	Type          string      `db:"type"`
	Status        string      `db:"status"`
	CustomerName  string      `db:"customer_name"`
	CustomerEmail string      `db:"customer_email"`
	ProductLabel  string      `db:"product_label"`
	TwoWay        bool        `db:"two_way"`
	UploadID      *int64      `db:"upload_id"`
	Request       JSON        `db:"request"`
	Raw           JSON        `db:"raw"`
	Error         apperr.Text `db:"error"`
	DeadlineAt    *time.Time  `db:"deadline_at"`
	CreatedBy     *int64      `db:"created_by"`
	CreatedAt     time.Time   `db:"created_at"`
	LastSyncedAt  *time.Time  `db:"last_synced_at"`
	SyncFailures  int         `db:"sync_failures"`
	NextSyncAt    *time.Time  `db:"next_sync_at"` // when it is read from the service next (nil: at once); a failure's backoff
	// SettlesAt: the deadline of the last create attempt; before it a missing
	// commission may still appear at the service.
	SettlesAt *time.Time `db:"settles_at"`
	// Duplicates are the numbers of extra commissions the service holds under
	// our reference.
	Duplicates Strings `db:"duplicates"`
	// Resolution is how the claim ended ("" until the agent settles it), with
	// its reason, who chose it and when (on the service's clock).
	Resolution       string     `db:"resolution"`
	ResolutionReason string     `db:"resolution_reason"`
	ResolvedAt       *time.Time `db:"resolved_at"`
	ResolvedBy       *int64     `db:"resolved_by"`
	// SettledDays: calendar days from lodging to the resolution.
	SettledDays *int `db:"settled_days"`
	// Language the customer reads the written confirmations in (cs, en);
	// Remedy is what the customer asks for (repair, replacement, discount,
	// withdrawal; "" when not said).
	Language string `db:"language"`
	Remedy   string `db:"remedy"`
	// ExtendedTo is a deadline agreed with the customer on ExtensionAgreedOn;
	// it outlasts the 30 days each sync sets. Extensions counts them.
	ExtendedTo        *time.Time `db:"extended_to"`
	ExtensionAgreedOn *time.Time `db:"extension_agreed_on"`
	Extensions        int        `db:"extensions"`
}

const commissionColumns = `id, request_key, reference, state, remote_id, number, type, status, customer_name, customer_email,
product_label, two_way, upload_id, request, raw, error, deadline_at, created_by, created_at, last_synced_at, sync_failures,
next_sync_at, settles_at, duplicates, resolution, resolution_reason, resolved_at, resolved_by, settled_days, language, remedy, extended_to,
extension_agreed_on, extensions`

// BeginCommission records the intent, and its first attempt, before
// commissions/create; the same request key again returns the first record
// (fresh false).
func (db *DB) BeginCommission(ctx context.Context, c Commission, sent, deadline time.Time) (out Commission, attempt int64, fresh bool, err error) {
	err = db.InTx(ctx, func(tx *DB) error {
		out, fresh, err = tx.insertCommission(ctx, c)
		if err != nil || !fresh {
			return err
		}
		attempt, err = tx.beginAttempt(ctx, ofCommission, out.ID, sent, deadline)
		out.SettlesAt = &deadline
		return err
	})
	if err != nil {
		// A concurrent post of the same form may have won the race on the reference.
		if same, kerr := db.CommissionByKey(ctx, c.RequestKey); kerr == nil {
			return same, 0, false, nil
		}
	}
	return out, attempt, fresh, err
}

func (db *DB) insertCommission(ctx context.Context, c Commission) (Commission, bool, error) {
	var out Commission
	err := sqlxGet(ctx, db, &out, `
INSERT INTO commissions (request_key, reference, state, type, customer_name, customer_email, product_label, two_way, upload_id,
    request, deadline_at, created_by, created_at, language, remedy)
VALUES ($1, $2, 'ordering', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
ON CONFLICT (request_key) DO NOTHING
RETURNING `+commissionColumns, c.RequestKey, c.Reference, c.Type, c.CustomerName, c.CustomerEmail, c.ProductLabel, c.TwoWay,
		c.UploadID, c.Request, c.DeadlineAt, c.CreatedBy, c.CreatedAt, cmp.Or(c.Language, "cs"), c.Remedy)
	switch {
	case err == nil:
		return out, true, nil
	case errors.Is(err, errNoRows):
		out, err = db.CommissionByKey(ctx, c.RequestKey)
		return out, false, err
	}
	return Commission{}, false, fmt.Errorf("record commission %s: %w", c.Reference,
		conflict(err, "rec.commission_reference_taken", c.Reference))
}

// CommissionByKey finds the commission recorded for a form.
func (db *DB) CommissionByKey(ctx context.Context, key string) (Commission, error) {
	var c Commission
	err := sqlxGet(ctx, db, &c, `SELECT `+commissionColumns+` FROM commissions WHERE request_key = $1`, key)
	return c, wrapf(notFound(err, "rec.no_commission_for_form"), "commission by key")
}

// CommissionByID finds one commission.
func (db *DB) CommissionByID(ctx context.Context, id int64) (Commission, error) {
	var c Commission
	err := sqlxGet(ctx, db, &c, `SELECT `+commissionColumns+` FROM commissions WHERE id = $1`, id)
	return c, wrapf(notFound(err, "rec.no_commission", id), "commission %d", id)
}

// CommissionState is what the service said about a commission.
type CommissionState struct {
	RemoteID int64
	Number   string
	Status   string
	Raw      []byte
	// PeriodDays: a warranty claim is open, to be settled within this many days
	// of when it was lodged; 0: no running period.
	PeriodDays int
	// Lodged is when the service took the commission, on its clock (nil:
	// unknown, our created_at counts).
	Lodged *time.Time
}

// RecordCommission stores the service's answer and settles the order,
// whatever the commission's state meanwhile: a late answer is never lost. When
// the commission is bound to another remote one already, this one is a
// duplicate at the service and is kept as such (duplicate true).
func (db *DB) RecordCommission(ctx context.Context, id int64, s CommissionState, now time.Time, next *time.Time) (duplicate bool, err error) {
	res, err := db.x.ExecContext(ctx, `
UPDATE commissions SET state = 'created', remote_id = $2, number = $3, status = $4, raw = $5, error = '',
    deadline_at = CASE WHEN $6 > 0 THEN COALESCE(extended_to, COALESCE($9, created_at) + $6 * interval '1 day') END,
    last_synced_at = $7, next_sync_at = $8, leased_until = NULL, sync_failures = 0
WHERE id = $1 AND (remote_id IS NULL OR remote_id = $2)`, id, s.RemoteID, s.Number, s.Status, JSON(s.Raw), s.PeriodDays, now, next, s.Lodged)
	if err != nil {
		return false, fmt.Errorf("record commission %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return false, nil
	}
	if _, err := db.CommissionByID(ctx, id); err != nil {
		return false, err
	}
	_, err = db.addDuplicate(ctx, ofCommission, id, s.Number)
	return true, err
}

// RecordCreatedCommission is RecordCommission for a commission found created,
// by its create's answer (attempt) or at the service (attempt 0), ending its
// attempts as settleAttempts says. The caller's transaction keeps what the
// creation sets off (the intake confirmation and its mail) with it.
func (db *DB) RecordCreatedCommission(ctx context.Context, id, attempt int64, s CommissionState, now time.Time, next *time.Time) (duplicate bool, err error) {
	if err := db.settleAttempts(ctx, ofCommission, id, attempt); err != nil {
		return false, err
	}
	return db.RecordCommission(ctx, id, s, now, next)
}

// MarkCommissionOutcome moves an order whose create call failed to unknown;
// a commission whose answer arrived meanwhile stays as it is.
func (db *DB) MarkCommissionOutcome(ctx context.Context, id int64, state string, why apperr.Text) error {
	_, err := db.x.ExecContext(ctx, `UPDATE commissions SET state = $2, error = $3 WHERE id = $1 AND state IN ('ordering', 'unknown')`, id, state, why)
	return wrapf(err, "mark commission %d", id)
}

// MarkCommissionMissing concludes that a commission was not created: only
// while its outcome is open and once every attempt's deadline has passed.
func (db *DB) MarkCommissionMissing(ctx context.Context, id int64, why apperr.Text, now time.Time) error {
	_, err := db.x.ExecContext(ctx, `UPDATE commissions SET state = 'missing', error = $2
WHERE id = $1 AND state IN ('ordering', 'unknown') AND COALESCE(settles_at, created_at) <= $3`, id, why, now)
	return wrapf(err, "mark commission %d missing", id)
}

// LockCommission reads a commission and locks it until the transaction ends.
func (db *DB) LockCommission(ctx context.Context, id int64) (Commission, error) {
	var c Commission
	err := sqlxGet(ctx, db, &c, `SELECT `+commissionColumns+` FROM commissions WHERE id = $1 FOR UPDATE`, id)
	return c, wrapf(notFound(err, "rec.no_commission", id), "lock commission %d", id)
}

// CommissionAttempts lists the create calls of a commission, oldest first.
func (db *DB) CommissionAttempts(ctx context.Context, id int64) ([]Attempt, error) {
	return db.attempts(ctx, ofCommission, id)
}

// AddCommissionDuplicate keeps an extra commission of the service under our reference.
func (db *DB) AddCommissionDuplicate(ctx context.Context, id int64, number string) (bool, error) {
	return db.addDuplicate(ctx, ofCommission, id, number)
}

// DropCommissionDuplicate forgets an extra commission once it is cancelled.
func (db *DB) DropCommissionDuplicate(ctx context.Context, id int64, number string) error {
	return db.dropDuplicate(ctx, ofCommission, id, number)
}

// DropCommissionIntent deletes an order the service refused.
func (db *DB) DropCommissionIntent(ctx context.Context, id int64) error {
	_, err := db.x.ExecContext(ctx, `DELETE FROM commissions WHERE id = $1 AND state = 'ordering'`, id)
	return wrapf(err, "drop refused commission %d", id)
}

// ReopenCommission sends a missing commission again: the caller holds its
// lock (LockCommission) and has asked the service by our reference just now.
// Allowed only when it is missing and every earlier attempt has settled.
func (db *DB) ReopenCommission(ctx context.Context, c Commission, sent, deadline time.Time) (Commission, int64, error) {
	if err := errNotMissing(commissionNotMissing, c.ID, c.State, c.SettlesAt, sent); err != nil {
		return c, 0, err
	}
	res, err := db.x.ExecContext(ctx, `UPDATE commissions SET state = 'ordering', error = '' WHERE id = $1 AND state = 'missing'`, c.ID)
	if err := affectedOne(res, conflict(err, "rec.commission_reference_now"), "rec.commission_changed", c.ID); err != nil {
		return c, 0, wrapf(err, "reopen commission %d", c.ID)
	}
	attempt, err := db.beginAttempt(ctx, ofCommission, c.ID, sent, deadline)
	if err != nil {
		return c, 0, err
	}
	c.State, c.Error, c.SettlesAt = StateOrdering, apperr.Text{}, &deadline
	return c, attempt, nil
}

// UnsettledCommissions lists orders whose outcome is open: unknown ones, and
// ones still ordering after every attempt's deadline.
func (db *DB) UnsettledCommissions(ctx context.Context, now time.Time) ([]Commission, error) {
	var out []Commission
	err := sqlxSelect(ctx, db, &out, `SELECT `+commissionColumns+` FROM commissions
WHERE state = 'unknown' OR (state = 'ordering' AND COALESCE(settles_at, created_at) < $1) ORDER BY id LIMIT 100`, now)
	return out, wrapf(err, "unsettled commissions")
}

// LeaseCommissionSync takes open commissions due a refresh.
func (db *DB) LeaseCommissionSync(ctx context.Context, c Lease) ([]Commission, error) {
	var out []Commission
	err := sqlxSelect(ctx, db, &out, `
UPDATE commissions SET leased_until = $1::timestamptz + $2 * interval '1 microsecond', leased_by = $3
WHERE id IN (
    SELECT id FROM commissions
    WHERE state = 'created' AND status NOT IN ('closed', 'cancelled') AND COALESCE(next_sync_at, '-infinity') <= $1
        AND (leased_until IS NULL OR leased_until < $1)
    ORDER BY next_sync_at NULLS FIRST, id LIMIT $4
    FOR UPDATE SKIP LOCKED)
RETURNING `+commissionColumns, c.Now, c.For.Microseconds(), c.Who, c.Limit)
	return out, wrapf(err, "lease commissions")
}

// CommissionSyncFailed releases leases and backs off.
func (db *DB) CommissionSyncFailed(ctx context.Context, ids []int64, now time.Time, base, limit time.Duration) error {
	_, err := db.x.ExecContext(ctx, `
UPDATE commissions SET sync_failures = sync_failures + 1, leased_until = NULL,
    next_sync_at = $2::timestamptz + least($3 * power(2, sync_failures), $4) * interval '1 microsecond'
WHERE id = ANY($1)`, pqArray(ids), now, base.Microseconds(), limit.Microseconds())
	return wrapf(err, "back off %d commissions", len(ids))
}

// CommissionFilter selects commissions for the list.
type CommissionFilter struct {
	Status, Type string
	From, To     time.Time
	Customer     string // part of the name or e-mail
	Product      string // part of the brand or model
	Duplicates   bool   // only those the service holds twice
	After        string
	Limit        int
}

// ListCommissions returns one page: running warranty periods first, the
// shortest (overdue) on top, then the newest. Keyset-paged.
func (db *DB) ListCommissions(ctx context.Context, f CommissionFilter) ([]Commission, string, error) {
	if f.Limit <= 0 || f.Limit > 200 {
		f.Limit = 50
	}
	var c conditions
	c.equal("status", f.Status)
	c.equal("type", f.Type)
	c.created(f.From, f.To)
	c.contains("lower(customer_name || ' ' || customer_email)", f.Customer)
	c.contains("lower(product_label)", f.Product)
	if f.Duplicates {
		c.add("cardinality(duplicates) > 0")
	}
	if f.After != "" {
		raw, err := base64.RawURLEncoding.DecodeString(f.After)
		parts := strings.Split(string(raw), ":")
		if err != nil || len(parts) != 3 {
			return nil, "", apperr.New(apperr.Invalid, "rec.page_link")
		}
		id, e1 := strconv.ParseInt(parts[0], 10, 64)
		created, e2 := strconv.ParseInt(parts[1], 10, 64)
		if e1 != nil || e2 != nil {
			return nil, "", apperr.New(apperr.Invalid, "rec.page_link")
		}
		after := fmt.Sprintf("(created_at, id) < (%s, %s)", c.arg(time.UnixMicro(created)), c.arg(id))
		if parts[2] == "" {
			c.add("deadline_at IS NULL AND " + after)
		} else {
			d, err := strconv.ParseInt(parts[2], 10, 64)
			if err != nil {
				return nil, "", apperr.New(apperr.Invalid, "rec.page_link")
			}
			da := c.arg(time.UnixMicro(d))
			c.add(fmt.Sprintf("(deadline_at > %s OR deadline_at IS NULL OR (deadline_at = %s AND %s))", da, da, after))
		}
	}
	where, args := c.where(), c.args
	var out []Commission
	err := sqlxSelect(ctx, db, &out, `SELECT `+commissionColumns+` FROM commissions WHERE `+where+
		` ORDER BY deadline_at ASC NULLS LAST, created_at DESC, id DESC LIMIT `+strconv.Itoa(f.Limit+1), args...)
	if err != nil {
		return nil, "", fmt.Errorf("list commissions: %w", err)
	}
	next := ""
	if len(out) > f.Limit {
		last := out[f.Limit-1]
		d := ""
		if last.DeadlineAt != nil {
			d = strconv.FormatInt(last.DeadlineAt.UnixMicro(), 10)
		}
		next = base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("%d:%d:%s", last.ID, last.CreatedAt.UnixMicro(), d)))
		out = out[:f.Limit]
	}
	return out, next, nil
}

// ProductType and ProductModel are the cached pickers' entries.
type ProductType struct {
	ID   int64  `db:"id"`
	Name string `db:"name"`
}

// ProductModel is a model of a type.
type ProductModel struct {
	ID     int64  `db:"id"`
	TypeID int64  `db:"type_id"`
	Brand  string `db:"brand"`
	Name   string `db:"name"`
}

// ReplaceProducts stores the service's product lists, dropping what it no
// longer lists.
func (db *DB) ReplaceProducts(ctx context.Context, types []ProductType, models []ProductModel, at time.Time) error {
	return db.InTx(ctx, func(tx *DB) error {
		for _, t := range types {
			if _, err := tx.x.ExecContext(ctx, `INSERT INTO product_types (id, name, refreshed_at) VALUES ($1, $2, $3)
ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, refreshed_at = EXCLUDED.refreshed_at`, t.ID, t.Name, at); err != nil {
				return fmt.Errorf("store product type %d: %w", t.ID, err)
			}
		}
		for _, m := range models {
			if _, err := tx.x.ExecContext(ctx, `INSERT INTO product_models (id, type_id, brand, name, refreshed_at) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (id) DO UPDATE SET type_id = EXCLUDED.type_id, brand = EXCLUDED.brand, name = EXCLUDED.name, refreshed_at = EXCLUDED.refreshed_at`,
				m.ID, m.TypeID, m.Brand, m.Name, at); err != nil {
				return fmt.Errorf("store product model %d: %w", m.ID, err)
			}
		}
		if _, err := tx.x.ExecContext(ctx, `DELETE FROM product_models WHERE refreshed_at < $1`, at); err != nil {
			return err
		}
		_, err := tx.x.ExecContext(ctx, `DELETE FROM product_types WHERE refreshed_at < $1`, at)
		return err
	})
}

// Products reads the cached lists.
func (db *DB) Products(ctx context.Context) ([]ProductType, []ProductModel, error) {
	var types []ProductType
	var models []ProductModel
	if err := sqlxSelect(ctx, db, &types, `SELECT id, name FROM product_types ORDER BY name`); err != nil {
		return nil, nil, fmt.Errorf("product types: %w", err)
	}
	if err := sqlxSelect(ctx, db, &models, `SELECT id, type_id, brand, name FROM product_models ORDER BY brand, name`); err != nil {
		return nil, nil, fmt.Errorf("product models: %w", err)
	}
	return types, models, nil
}

// ProductsRefreshed is when the product lists were last loaded (nil: never).
func (db *DB) ProductsRefreshed(ctx context.Context) (*time.Time, error) {
	var at *time.Time
	err := sqlxGet(ctx, db, &at, `SELECT min(refreshed_at) FROM product_types`)
	return at, wrapf(err, "product lists' age")
}

// ProductOf finds a cached model with its type; a model of another type is
// not found.
func (db *DB) ProductOf(ctx context.Context, typeID, modelID int64) (ProductType, ProductModel, error) {
	var row struct {
		ProductModel
		TypeName string `db:"type_name"`
	}
	err := sqlxGet(ctx, db, &row, `SELECT m.id, m.type_id, m.brand, m.name, t.name AS type_name
FROM product_models m JOIN product_types t ON t.id = m.type_id WHERE m.id = $1 AND m.type_id = $2`, modelID, typeID)
	if err != nil {
		return ProductType{}, ProductModel{}, wrapf(notFound(err, "rec.no_model", modelID, typeID), "product %d", modelID)
	}
	return ProductType{ID: row.TypeID, Name: row.TypeName}, row.ProductModel, nil
}
