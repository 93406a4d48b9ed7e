package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// AuditEntry records who did what, when.
type AuditEntry struct {
	ID        int64           `db:"id"`
	At        time.Time       `db:"at"`
	ActorID   *int64          `db:"actor_id"`
	ActorName string          `db:"actor_name"`
	Action    string          `db:"action"`
	Target    string          `db:"target"`
	Detail    json.RawMessage `db:"detail"`
	Address   string          `db:"address"`
}

const insertAudit = `
INSERT INTO audit_log (actor_id, actor_name, action, target, detail, address)
VALUES ($1, $2, $3, $4, $5, $6)`

// Audit appends an entry. detail is marshalled to JSON; it must hold no secrets.
func (db *DB) Audit(ctx context.Context, actorID *int64, actorName, action, target string, detail map[string]any, address string) error {
	if detail == nil {
		detail = map[string]any{}
	}
	raw, err := json.Marshal(detail)
	if err != nil {
		return fmt.Errorf("audit %s: %w", action, err)
	}
	if _, err := db.x.ExecContext(ctx, insertAudit, actorID, actorName, action, target, JSON(raw), address); err != nil {
		return fmt.Errorf("audit %s: %w", action, err)
	}
	return nil
}

const selectAudit = `
SELECT id, at, actor_id, actor_name, action, target, detail, address
FROM audit_log
WHERE ($1::bigint = 0 OR id < $1)
ORDER BY id DESC
LIMIT $2`

// ListAudit returns entries newest first, before the entry with id before (0: from
// the newest), at most limit.
func (db *DB) ListAudit(ctx context.Context, before int64, limit int) ([]AuditEntry, error) {
	var es []AuditEntry
	if err := sqlxSelect(ctx, db, &es, selectAudit, before, limit); err != nil {
		return nil, fmt.Errorf("list audit log: %w", err)
	}
	return es, nil
}

const selectAuditAbout = `
SELECT id, at, actor_id, actor_name, action, target, detail, address
FROM audit_log
WHERE target = $1 OR actor_name = $1
ORDER BY id DESC
LIMIT $2`

// ListAuditAbout returns the newest entries done by or to an account.
func (db *DB) ListAuditAbout(ctx context.Context, username string, limit int) ([]AuditEntry, error) {
	var es []AuditEntry
	if err := sqlxSelect(ctx, db, &es, selectAuditAbout, username, limit); err != nil {
		return nil, fmt.Errorf("list audit log of %s: %w", username, err)
	}
	return es, nil
}
