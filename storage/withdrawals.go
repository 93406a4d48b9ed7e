package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"shipdesk/apperr"
)

// Withdrawal is a customer's withdrawal from a purchase recorded on a
// commission, and the refund it owes: due 14 days after it was received,
// paid once by a manager.
type Withdrawal struct {
	ID           int64      `db:"id"`
	RequestKey   string     `db:"request_key"`
	CommissionID int64      `db:"commission_id"`
	ShipmentID   *int64     `db:"shipment_id"` // the purchase's shipment, when known
	ReceivedAt   time.Time  `db:"received_at"`
	DeliveredAt  *time.Time `db:"delivered_at"` // when the purchase was delivered, when known
	Late         bool       `db:"late"`         // received more than 14 days after DeliveredAt
	Amount       float64    `db:"amount"`
	Currency     string     `db:"currency"`
	Account      string     `db:"account"` // normalised: "[prefix-]number/bank" or an IBAN
	DueAt        time.Time  `db:"due_at"`
	PaidAt       *time.Time `db:"paid_at"`
	PaidBy       *int64     `db:"paid_by"`
	Note         string     `db:"note"`
	CreatedBy    *int64     `db:"created_by"`
	CreatedAt    time.Time  `db:"created_at"`

	// Read with the withdrawal: its commission and who marked it paid.
	CommissionNumber string  `db:"commission_number"`
	CustomerName     string  `db:"customer_name"`
	PaidByName       *string `db:"paid_by_name"`
}

const withdrawalColumns = `w.id, w.request_key, w.commission_id, w.shipment_id, w.received_at, w.delivered_at, w.late,
w.amount::float8 AS amount, w.currency, w.account, w.due_at, w.paid_at, w.paid_by, w.note, w.created_by, w.created_at,
COALESCE(NULLIF(c.number, ''), c.reference) AS commission_number, c.customer_name, u.username AS paid_by_name`

const withdrawalFrom = ` FROM withdrawals w JOIN commissions c ON c.id = w.commission_id LEFT JOIN users u ON u.id = w.paid_by`

// RecordWithdrawal stores a withdrawal once per form: the same request key
// again returns the first record (fresh false); a second withdrawal on the
// same commission is a conflict.
func (db *DB) RecordWithdrawal(ctx context.Context, w Withdrawal) (out Withdrawal, fresh bool, err error) {
	var id int64
	err = db.x.QueryRowxContext(ctx, `
INSERT INTO withdrawals (request_key, commission_id, shipment_id, received_at, delivered_at, late, amount, currency, account,
    due_at, note, created_by, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
ON CONFLICT (request_key) DO NOTHING RETURNING id`,
		w.RequestKey, w.CommissionID, w.ShipmentID, w.ReceivedAt, w.DeliveredAt, w.Late, w.Amount, w.Currency, w.Account,
		w.DueAt, w.Note, w.CreatedBy, w.CreatedAt).Scan(&id)
	switch {
	case errors.Is(err, errNoRows):
		out, err = db.withdrawalWhere(ctx, "w.request_key = $1", w.RequestKey)
		return out, false, err
	case err != nil:
		return out, false, fmt.Errorf("record withdrawal on commission %d: %w", w.CommissionID,
			conflict(err, "wd.err.recorded"))
	}
	out, err = db.WithdrawalByID(ctx, id)
	return out, true, err
}

// WithdrawalByID finds one withdrawal.
func (db *DB) WithdrawalByID(ctx context.Context, id int64) (Withdrawal, error) {
	return db.withdrawalWhere(ctx, "w.id = $1", id)
}

// WithdrawalOfCommission finds the withdrawal recorded on a commission.
func (db *DB) WithdrawalOfCommission(ctx context.Context, commissionID int64) (Withdrawal, error) {
	return db.withdrawalWhere(ctx, "w.commission_id = $1", commissionID)
}

func (db *DB) withdrawalWhere(ctx context.Context, where string, arg any) (Withdrawal, error) {
	var w Withdrawal
	err := sqlxGet(ctx, db, &w, `SELECT `+withdrawalColumns+withdrawalFrom+` WHERE `+where, arg)
	return w, wrapf(notFound(err, "wd.err.none"), "withdrawal where %s %v", where, arg)
}

// MarkRefundPaid records who paid a refund and when, once: a refund already
// paid keeps its first record and the answer is a conflict naming it.
func (db *DB) MarkRefundPaid(ctx context.Context, id, by int64, at time.Time) (Withdrawal, error) {
	res, err := db.x.ExecContext(ctx, `UPDATE withdrawals SET paid_at = $2, paid_by = $3 WHERE id = $1 AND paid_at IS NULL`,
		id, at, UserRef(by))
	if err != nil {
		return Withdrawal{}, fmt.Errorf("mark refund %d paid: %w", id, err)
	}
	n, _ := res.RowsAffected()
	w, err := db.WithdrawalByID(ctx, id)
	if err == nil && n == 0 {
		err = alreadyPaid(w)
	}
	return w, err
}

// RefundFilter chooses the managers' list: open refunds (overdue first, then
// the nearest due) or paid ones (the latest paid first).
type RefundFilter struct {
	Paid  bool
	Limit int
}

// Refunds lists refunds by f.
func (db *DB) Refunds(ctx context.Context, f RefundFilter) ([]Withdrawal, error) {
	where, order := "w.paid_at IS NULL", "w.due_at, w.id"
	if f.Paid {
		where, order = "w.paid_at IS NOT NULL", "w.paid_at DESC, w.id DESC"
	}
	var out []Withdrawal
	err := sqlxSelect(ctx, db, &out, `SELECT `+withdrawalColumns+withdrawalFrom+` WHERE `+where+` ORDER BY `+order+` LIMIT $1`,
		max(f.Limit, 1))
	return out, wrapf(err, "refunds (paid %v)", f.Paid)
}

// DeliveredAt is when tracking first said a shipment was delivered; nil when
// it has not said so.
func (db *DB) DeliveredAt(ctx context.Context, shipmentID int64) (*time.Time, error) {
	var at *time.Time
	err := db.x.QueryRowxContext(ctx, `SELECT min(occurred) FROM tracking_events WHERE shipment_id = $1 AND status = 'DELIVERED'`,
		shipmentID).Scan(&at)
	return at, wrapf(err, "delivery of shipment %d", shipmentID)
}

// alreadyPaid is the conflict of marking a paid refund paid again: who
// marked it and when.
func alreadyPaid(w Withdrawal) error {
	who := ""
	if w.PaidByName != nil {
		who = *w.PaidByName
	}
	at := time.Time{}
	if w.PaidAt != nil {
		at = *w.PaidAt
	}
	return apperr.New(apperr.Conflict, "wd.err.paid_already", who, apperr.Deadline(at))
}
