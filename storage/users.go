package storage

import (
	"context"
	"fmt"
	"time"

	"shipdesk/identity"
)

// User is a staff account.
type User struct {
	ID           int64         `db:"id"`
	Username     string        `db:"username"`
	Role         identity.Role `db:"role"`
	PasswordHash string        `db:"password_hash"`
	DisabledAt   *time.Time    `db:"disabled_at"`
	CreatedAt    time.Time     `db:"created_at"`
	UpdatedAt    time.Time     `db:"updated_at"`
}

// SetLanguage saves a staff member's language ("" for the installation's default).
func (db *DB) SetLanguage(ctx context.Context, id int64, lang string) error {
	return db.execOne(ctx, "set language of", id, `UPDATE users SET lang = NULLIF($2, ''), updated_at = now() WHERE id = $1`, id, lang)
}

// Disabled reports whether the account may not sign in.
func (u User) Disabled() bool { return u.DisabledAt != nil }

const insertUser = `
INSERT INTO users (username, role, password_hash)
VALUES ($1, $2, $3)
RETURNING id, username, role, password_hash, disabled_at, created_at, updated_at`

// CreateUser adds an account; a taken username is a Conflict.
func (db *DB) CreateUser(ctx context.Context, username string, role identity.Role, passwordHash string) (User, error) {
	var u User
	err := sqlxGet(ctx, db, &u, insertUser, username, role, passwordHash)
	if err != nil {
		return User{}, fmt.Errorf("create user %s: %w", username, conflict(err, "rec.username_taken", username))
	}
	return u, nil
}

const selectUserByName = `
SELECT id, username, role, password_hash, disabled_at, created_at, updated_at
FROM users WHERE username = $1`

// UserByUsername finds an account by its username.
func (db *DB) UserByUsername(ctx context.Context, username string) (User, error) {
	var u User
	if err := sqlxGet(ctx, db, &u, selectUserByName, username); err != nil {
		return User{}, fmt.Errorf("user %s: %w", username, notFound(err, "rec.no_user", username))
	}
	return u, nil
}

const selectUserByID = `
SELECT id, username, role, password_hash, disabled_at, created_at, updated_at
FROM users WHERE id = $1`

// UserByID finds an account by id.
func (db *DB) UserByID(ctx context.Context, id int64) (User, error) {
	var u User
	if err := sqlxGet(ctx, db, &u, selectUserByID, id); err != nil {
		return User{}, fmt.Errorf("user %d: %w", id, notFound(err, "rec.no_such_user"))
	}
	return u, nil
}

const selectUsers = `
SELECT id, username, role, password_hash, disabled_at, created_at, updated_at
FROM users ORDER BY disabled_at IS NOT NULL, username`

// ListUsers lists every account, active ones first. Staff lists are short (one
// warehouse), so this needs no paging.
func (db *DB) ListUsers(ctx context.Context) ([]User, error) {
	var us []User
	if err := sqlxSelect(ctx, db, &us, selectUsers); err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	return us, nil
}

const updatePassword = `UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`

// SetPasswordHash replaces an account's password hash.
func (db *DB) SetPasswordHash(ctx context.Context, id int64, hash string) error {
	return db.execOne(ctx, "set password of user", id, updatePassword, id, hash)
}

const updateDisabled = `
UPDATE users SET disabled_at = CASE WHEN $2 THEN coalesce(disabled_at, now()) ELSE NULL END,
                 updated_at = now()
WHERE id = $1`

// SetDisabled disables or re-enables an account.
func (db *DB) SetDisabled(ctx context.Context, id int64, disabled bool) error {
	return db.execOne(ctx, "disable user", id, updateDisabled, id, disabled)
}

const updateRole = `UPDATE users SET role = $2, updated_at = now() WHERE id = $1`

// SetRole changes an account's role.
func (db *DB) SetRole(ctx context.Context, id int64, role identity.Role) error {
	return db.execOne(ctx, "set role of user", id, updateRole, id, role)
}

const countActiveManagers = `SELECT count(*) FROM users WHERE role = 'manager' AND disabled_at IS NULL`

// ActiveManagers counts managers who can sign in (the last one must stay).
func (db *DB) ActiveManagers(ctx context.Context) (int, error) {
	var n int
	if err := sqlxGet(ctx, db, &n, countActiveManagers); err != nil {
		return 0, fmt.Errorf("count managers: %w", err)
	}
	return n, nil
}

// execOne runs a statement that must change exactly one row of user id.
func (db *DB) execOne(ctx context.Context, what string, id int64, query string, args ...any) error {
	res, err := db.x.ExecContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("%s %d: %w", what, id, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("%s %d: %w", what, id, notFound(errNoRows, "rec.no_such_user"))
	}
	return nil
}
