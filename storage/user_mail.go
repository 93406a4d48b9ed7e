package storage

import (
	"context"
	"fmt"

	"shipdesk/identity"
)

// UserMail is a staff member's e-mail settings.
type UserMail struct {
	ID           int64         `db:"id"`
	Username     string        `db:"username"`
	Role         identity.Role `db:"role"`
	Lang         string        `db:"lang"` // "": the installation's default
	Email        string        `db:"email"`
	DailySummary bool          `db:"daily_summary"`
}

const userMailColumns = `id, username, role, COALESCE(lang, '') AS lang, email, daily_summary`

// UserMailOf reads one account's e-mail settings.
func (db *DB) UserMailOf(ctx context.Context, id int64) (UserMail, error) {
	var u UserMail
	if err := sqlxGet(ctx, db, &u, `SELECT `+userMailColumns+` FROM users WHERE id = $1`, id); err != nil {
		return u, fmt.Errorf("user %d: %w", id, notFound(err, "rec.no_such_user"))
	}
	return u, nil
}

// SetUserMail saves an account's e-mail address and whether it gets the
// daily summary (never without an address: the table refuses it).
func (db *DB) SetUserMail(ctx context.Context, id int64, email string, daily bool) error {
	return db.execOne(ctx, "set e-mail of user", id, `UPDATE users SET email = $2, daily_summary = $3, updated_at = now() WHERE id = $1`, id, email, daily)
}

// SummaryReaders are the managers who can sign in and asked for the daily
// summary by mail.
func (db *DB) SummaryReaders(ctx context.Context) ([]UserMail, error) {
	var out []UserMail
	err := sqlxSelect(ctx, db, &out, `SELECT `+userMailColumns+` FROM users
WHERE daily_summary AND email <> '' AND role = 'manager' AND disabled_at IS NULL ORDER BY id`)
	return out, wrapf(err, "summary readers")
}
