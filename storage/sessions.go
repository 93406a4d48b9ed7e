package storage

import (
	"context"
	"fmt"
	"time"

	"shipdesk/identity"
)

// SessionStaff is who a live session belongs to.
type SessionStaff struct {
	UserID     int64         `db:"user_id"`
	Username   string        `db:"username"`
	Role       identity.Role `db:"role"`
	Lang       string        `db:"lang"` // "": the installation's default
	CreatedAt  time.Time     `db:"created_at"`
	LastSeenAt time.Time     `db:"last_seen_at"`
	ExpiresAt  time.Time     `db:"expires_at"`
}

const insertSession = `
INSERT INTO staff_sessions (token_hash, user_id, expires_at, address, user_agent)
VALUES ($1, $2, $3, $4, $5)`

// CreateSession records a signed-in browser by the hash of its token.
func (db *DB) CreateSession(ctx context.Context, tokenHash []byte, userID int64, expires time.Time, address, userAgent string) error {
	if _, err := db.x.ExecContext(ctx, insertSession, tokenHash, userID, expires, address, truncate(userAgent, 300)); err != nil {
		return fmt.Errorf("create session for user %d: %w", userID, err)
	}
	return nil
}

// A session is live while it is not revoked, not past its absolute expiry, not idle
// for longer than the idle limit, and its user is not disabled; the database's
// now() judges. Reading a live session marks it used (the idle clock restarts),
// at most once a minute so page views do not write on every request, in the
// same statement: a signed-in request costs one round trip. The session is
// found by its token hash, the table's primary key.
const selectLiveSession = `
WITH live AS (
    SELECT s.token_hash, s.user_id, u.username, u.role, COALESCE(u.lang, '') AS lang, s.created_at, s.last_seen_at, s.expires_at
    FROM staff_sessions s JOIN users u ON u.id = s.user_id
    WHERE s.token_hash = $1
      AND s.revoked_at IS NULL
      AND s.expires_at > now()
      AND s.last_seen_at > now() - make_interval(secs => $2)
      AND u.disabled_at IS NULL
), touched AS (
    UPDATE staff_sessions s SET last_seen_at = now()
    FROM live
    WHERE s.token_hash = live.token_hash AND live.last_seen_at <= now() - interval '1 minute'
)
SELECT user_id, username, role, lang, created_at, last_seen_at, expires_at FROM live`

// LiveSession finds the staff member of a live session and marks it used.
// LastSeenAt is the use before this one.
func (db *DB) LiveSession(ctx context.Context, tokenHash []byte, idle time.Duration) (SessionStaff, error) {
	var s SessionStaff
	if err := sqlxGet(ctx, db, &s, selectLiveSession, tokenHash, idle.Seconds()); err != nil {
		return SessionStaff{}, fmt.Errorf("find session: %w", notFound(err, "login.session_ended"))
	}
	return s, nil
}

const revokeSession = `UPDATE staff_sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL`

// RevokeSession ends one session (sign-out).
func (db *DB) RevokeSession(ctx context.Context, tokenHash []byte) error {
	if _, err := db.x.ExecContext(ctx, revokeSession, tokenHash); err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}

const revokeUserSessions = `UPDATE staff_sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`

// RevokeUserSessions ends every session of a user (disable, password reset).
func (db *DB) RevokeUserSessions(ctx context.Context, userID int64) error {
	if _, err := db.x.ExecContext(ctx, revokeUserSessions, userID); err != nil {
		return fmt.Errorf("revoke sessions of user %d: %w", userID, err)
	}
	return nil
}

const deleteOldSessions = `DELETE FROM staff_sessions WHERE expires_at < now() - interval '1 day'`

// PruneSessions deletes sessions that expired more than a day ago.
func (db *DB) PruneSessions(ctx context.Context) (int64, error) {
	res, err := db.x.ExecContext(ctx, deleteOldSessions)
	if err != nil {
		return 0, fmt.Errorf("prune sessions: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
