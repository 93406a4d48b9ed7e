package storage

import (
	"context"
	"strconv"
	"time"
)

// AttentionItem is one item of the queue: what the rule found (attentionRules)
// and what people have done with it.
type AttentionItem struct {
	Kind       string     `db:"kind"`
	RecordID   int64      `db:"record_id"`
	Occurrence string     `db:"occurrence"`
	Label      string     `db:"label"` // tracking number, commission number, reference or pickup address
	Carrier    string     `db:"carrier"`
	Since      time.Time  `db:"since"`
	Days       int        `db:"days"`
	DaysLimit  int        `db:"days_limit"`
	Amount     *float64   `db:"amount"`
	Currency   string     `db:"currency"`
	Deadline   *time.Time `db:"deadline"`
	Detail     string     `db:"detail"` // the status, the duplicates, the pickup's day or the customer

	TakenBy       *int64     `db:"taken_by"`
	TakenName     *string    `db:"taken_name"`
	DismissedAt   *time.Time `db:"dismissed_at"`
	DismissedName *string    `db:"dismissed_name"`
	DismissReason string     `db:"dismiss_reason"`
	DismissText   string     `db:"dismiss_text"`
	LastNote      *string    `db:"last_note"`
	LastNoteBy    *string    `db:"last_note_by"`
	LastNoteAt    *time.Time `db:"last_note_at"`
}

// AttentionKey names an item: its kind, its record and the occurrence that
// put it in the queue.
type AttentionKey struct {
	Kind       string
	RecordID   int64
	Occurrence string
}

// Which items of the queue a list shows.
const (
	AttnOpen      = "open"      // not dismissed
	AttnDismissed = "dismissed" // dismissed, newest first
	AttnSummary   = "summary"   // open, and those dismissed since DismissedSince
)

// Whose items a list shows.
const (
	AttnEveryone   = "all"
	AttnMine       = "mine"
	AttnUnassigned = "unassigned"
)

// AttentionQuery chooses the items of a list.
type AttentionQuery struct {
	Now            time.Time // in the shop's zone: its days are the working days
	Kinds          []string  // the kinds the reader may see
	Show           string    // AttnOpen, AttnDismissed or AttnSummary
	Who            string    // AttnEveryone, AttnMine or AttnUnassigned
	UserID         int64     // the reader, for AttnMine
	DismissedSince time.Time // for AttnSummary: the start of the day
}

// AttentionLimit is the most items a list shows: the queue is a to-do list,
// and a longer one is a sign the rules or the limits need a manager.
const AttentionLimit = 500

// AttentionItems lists the queue's items for q, oldest problem first (the
// dismissed ones newest dismissal first).
func (db *DB) AttentionItems(ctx context.Context, q AttentionQuery) ([]AttentionItem, error) {
	args := append(rulesArgs(q.Now), pqArray(q.Kinds))
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	where, order := `a.dismissed_at IS NULL`, `r.since, r.kind, r.record_id`
	switch q.Show {
	case AttnDismissed:
		where, order = `a.dismissed_at IS NOT NULL`, `a.dismissed_at DESC, r.kind, r.record_id`
	case AttnSummary:
		where = `(a.dismissed_at IS NULL OR a.dismissed_at >= ` + arg(q.DismissedSince) + `)`
	}
	switch q.Who {
	case AttnMine:
		where += ` AND a.taken_by = ` + arg(q.UserID)
	case AttnUnassigned:
		where += ` AND a.taken_by IS NULL`
	}
	var out []AttentionItem
	err := sqlxSelect(ctx, db, &out, `WITH rules AS (`+attentionRules+`)
SELECT r.kind, r.record_id, r.occurrence, COALESCE(r.label, '') AS label, COALESCE(r.carrier, '') AS carrier, r.since,
    r.days, r.days_limit, r.amount::float8 AS amount, r.currency, r.deadline, COALESCE(r.detail, '') AS detail,
    a.taken_by, tu.username AS taken_name, a.dismissed_at, du.username AS dismissed_name,
    COALESCE(a.dismiss_reason, '') AS dismiss_reason, COALESCE(a.dismiss_text, '') AS dismiss_text,
    n.text AS last_note, nu.username AS last_note_by, n.written_at AS last_note_at
FROM rules r
LEFT JOIN attention_actions a ON a.kind = r.kind AND a.record_id = r.record_id AND a.occurrence = r.occurrence
LEFT JOIN users tu ON tu.id = a.taken_by
LEFT JOIN users du ON du.id = a.dismissed_by
LEFT JOIN LATERAL (SELECT text, author, written_at FROM attention_notes WHERE action_id = a.id ORDER BY id DESC LIMIT 1) n ON true
LEFT JOIN users nu ON nu.id = n.author
WHERE r.kind = ANY ($4::text[]) AND `+where+`
ORDER BY `+order+`
LIMIT `+strconv.Itoa(AttentionLimit), args...)
	return out, wrapf(err, "attention items")
}

// attentionAction finds or makes the action row of an item and returns its id.
const attentionAction = `
INSERT INTO attention_actions (kind, record_id, occurrence) VALUES ($1, $2, $3)
ON CONFLICT (kind, record_id, occurrence) DO UPDATE SET kind = EXCLUDED.kind
RETURNING id`

// TakeAttention gives an item to a staff member (who takes it, or to whom a
// manager hands it).
func (db *DB) TakeAttention(ctx context.Context, k AttentionKey, to int64, at time.Time) error {
	_, err := db.x.ExecContext(ctx, `INSERT INTO attention_actions (kind, record_id, occurrence, taken_by, taken_at)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (kind, record_id, occurrence) DO UPDATE SET taken_by = EXCLUDED.taken_by, taken_at = EXCLUDED.taken_at`,
		k.Kind, k.RecordID, k.Occurrence, to, at)
	return wrapf(err, "take attention item %s %d", k.Kind, k.RecordID)
}

// NoteAttention adds a note to an item.
func (db *DB) NoteAttention(ctx context.Context, k AttentionKey, author int64, text string, at time.Time) error {
	return db.InTx(ctx, func(tx *DB) error {
		var id int64
		if err := sqlxGet(ctx, tx, &id, attentionAction, k.Kind, k.RecordID, k.Occurrence); err != nil {
			return wrapf(err, "attention item %s %d", k.Kind, k.RecordID)
		}
		_, err := tx.x.ExecContext(ctx, `INSERT INTO attention_notes (action_id, author, written_at, text) VALUES ($1, $2, $3, $4)`,
			id, UserRef(author), at, text)
		return wrapf(err, "note attention item %s %d", k.Kind, k.RecordID)
	})
}

// DismissAttention hides an item from the open queue with a reason, until
// its problem occurs anew (a new occurrence is a new item).
func (db *DB) DismissAttention(ctx context.Context, k AttentionKey, by int64, reason, text string, at time.Time) error {
	_, err := db.x.ExecContext(ctx, `INSERT INTO attention_actions (kind, record_id, occurrence, dismissed_by, dismissed_at, dismiss_reason, dismiss_text)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (kind, record_id, occurrence) DO UPDATE SET dismissed_by = EXCLUDED.dismissed_by,
    dismissed_at = EXCLUDED.dismissed_at, dismiss_reason = EXCLUDED.dismiss_reason, dismiss_text = EXCLUDED.dismiss_text`,
		k.Kind, k.RecordID, k.Occurrence, UserRef(by), at, reason, text)
	return wrapf(err, "dismiss attention item %s %d", k.Kind, k.RecordID)
}

// RestoreAttention brings a dismissed item back into the open queue.
func (db *DB) RestoreAttention(ctx context.Context, k AttentionKey) error {
	_, err := db.x.ExecContext(ctx, `UPDATE attention_actions SET dismissed_by = NULL, dismissed_at = NULL, dismiss_reason = '', dismiss_text = ''
WHERE kind = $1 AND record_id = $2 AND occurrence = $3`, k.Kind, k.RecordID, k.Occurrence)
	return wrapf(err, "restore attention item %s %d", k.Kind, k.RecordID)
}

// AttentionItemAt finds one current item of the queue by its key (for a
// post about it): an item that is no longer in the queue is not found.
func (db *DB) AttentionItemAt(ctx context.Context, now time.Time, k AttentionKey) (bool, error) {
	var n int
	err := sqlxGet(ctx, db, &n, `WITH rules AS (`+attentionRules+`)
SELECT count(*) FROM rules r WHERE r.kind = $4 AND r.record_id = $5 AND r.occurrence = $6`,
		append(rulesArgs(now), k.Kind, k.RecordID, k.Occurrence)...)
	return n > 0, wrapf(err, "find attention item %s %d", k.Kind, k.RecordID)
}
