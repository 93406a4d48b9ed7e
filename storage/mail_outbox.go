package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Mail states in the outbox.
const (
	MailQueued  = "queued"  // waiting for its first or next attempt
	MailSending = "sending" // leased by a worker (its lease may have run out)
	MailSent    = "sent"    // the server said 250 after the message's data
	MailFailed  = "failed"  // refused for good or out of attempts: kept, never sent
)

// OutMail is one mail of the outbox (table mail_outbox).
type OutMail struct {
	ID            int64      `db:"id"`
	EventKey      string     `db:"event_key"`
	To            string     `db:"recipient"`
	ToName        string     `db:"recipient_name"`
	Subject       string     `db:"subject"`
	Text          string     `db:"body"`
	HTML          string     `db:"body_html"`
	Lang          string     `db:"lang"`
	MessageID     string     `db:"message_id"`
	CreatedAt     time.Time  `db:"created_at"`
	State         string     `db:"state"`
	Attempts      int        `db:"attempts"`
	NextAttemptAt time.Time  `db:"next_attempt_at"`
	LastError     string     `db:"last_error"`
	SentAt        *time.Time `db:"sent_at"`
	// KeepUntil is, for a mail that carries a customer's key (a link to a
	// claim's form or page), until when it is kept whole: once sent or failed
	// and past it, its text and attachments go (ForgetMail). nil: kept.
	KeepUntil *time.Time `db:"keep_until"`
	// ReplyTo is where the reader's answer goes ("": to the sender).
	ReplyTo     string `db:"reply_to"`
	Attachments []MailAttachment
}

// MailAttachment is a file sent with a mail.
type MailAttachment struct {
	Name        string `db:"name"`
	ContentType string `db:"content_type"`
	Data        []byte `db:"data"`
}

const mailColumns = `id, event_key, recipient, recipient_name, subject, body, body_html, lang, message_id, created_at,
    state, attempts, next_attempt_at, last_error, sent_at, keep_until, reply_to`

const enqueueMailSQL = `
INSERT INTO mail_outbox (event_key, recipient, recipient_name, subject, body, body_html, lang, message_id, created_at, next_attempt_at,
    keep_until, reply_to)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $11)
ON CONFLICT (event_key) DO NOTHING
RETURNING id`

// EnqueueMail records a mail in the outbox on x, which may be the caller's
// transaction: the mail then exists exactly when the change that causes it
// does. A mail whose event key is queued already adds nothing (queued false).
// The caller checks the mail first (package mail).
func EnqueueMail(ctx context.Context, x sqlx.ExtContext, m OutMail) (queued bool, err error) {
	var ids []int64
	if err := sqlx.SelectContext(ctx, x, &ids, enqueueMailSQL, m.EventKey, m.To, m.ToName, m.Subject, m.Text, m.HTML, m.Lang, m.MessageID, m.CreatedAt,
		m.KeepUntil, m.ReplyTo); err != nil {
		return false, fmt.Errorf("enqueue mail %q: %w", m.EventKey, err)
	}
	if len(ids) == 0 {
		return false, nil
	}
	for i, a := range m.Attachments {
		if _, err := x.ExecContext(ctx, `INSERT INTO mail_attachments (mail_id, position, name, content_type, data) VALUES ($1, $2, $3, $4, $5)`,
			ids[0], i, a.Name, a.ContentType, a.Data); err != nil {
			return false, fmt.Errorf("enqueue attachment %q of mail %q: %w", a.Name, m.EventKey, err)
		}
	}
	return true, nil
}

// EnqueueMail records a mail on this connection or transaction (EnqueueMail).
func (db *DB) EnqueueMail(ctx context.Context, m OutMail) (bool, error) {
	return EnqueueMail(ctx, db.x, m)
}

// mailQueue is the outbox as a queue (queue.go).
var mailQueue = queue{table: "mail_outbox", kind: "mail", columns: mailColumns}

// LeaseMail takes mail that is due (the queues' lease: one after the other,
// rows another writer holds passed over), with its attachments. Every lease
// counts as an attempt.
func (db *DB) LeaseMail(ctx context.Context, c Lease) ([]OutMail, error) {
	var out []OutMail
	err := db.lease(ctx, mailQueue, c, &out, func(tx *DB) error { return tx.attachmentsOf(ctx, out) })
	return out, err
}

// attachmentsOf reads the attachments of the mails.
func (db *DB) attachmentsOf(ctx context.Context, mails []OutMail) error {
	if len(mails) == 0 {
		return nil
	}
	ids := make([]int64, len(mails))
	at := make(map[int64]int, len(mails))
	for i, m := range mails {
		ids[i], at[m.ID] = m.ID, i
	}
	var rows []struct {
		MailID int64 `db:"mail_id"`
		MailAttachment
	}
	if err := sqlxSelect(ctx, db, &rows, `SELECT mail_id, name, content_type, data FROM mail_attachments WHERE mail_id = ANY($1) ORDER BY mail_id, position`, pq.Array(ids)); err != nil {
		return fmt.Errorf("attachments of %d mails: %w", len(mails), err)
	}
	for _, r := range rows {
		m := &mails[at[r.MailID]]
		m.Attachments = append(m.Attachments, r.MailAttachment)
	}
	return nil
}

// MailDelivered records that the server took the mail. Only the worker
// holding the lease records it; a worker whose lease was taken over records
// nothing (its copy is the duplicate the stable Message-ID makes recognisable).
func (db *DB) MailDelivered(ctx context.Context, id int64, who string, now time.Time) (bool, error) {
	return db.sent(ctx, mailQueue.table, id, who, now)
}

// MailRetry puts the mail back to wait for its next attempt, with the reason
// (already cleaned of anything secret).
func (db *DB) MailRetry(ctx context.Context, id int64, who string, next time.Time, reason string) (bool, error) {
	return db.retry(ctx, mailQueue.table, id, who, next, reason)
}

// MailGaveUp keeps the mail as failed for good, with the reason.
func (db *DB) MailGaveUp(ctx context.Context, id int64, who string, reason string) (bool, error) {
	return db.gaveUp(ctx, mailQueue.table, id, who, reason)
}

// RecentMail lists the newest mails of the outbox, newest first, without
// their attachments' data.
func (db *DB) RecentMail(ctx context.Context, limit int) ([]OutMail, error) {
	var out []OutMail
	err := sqlxSelect(ctx, db, &out, `SELECT `+mailColumns+` FROM mail_outbox ORDER BY id DESC LIMIT $1`, limit)
	return out, wrapf(err, "recent mail")
}

// MailByID reads one mail of the outbox with its attachments.
func (db *DB) MailByID(ctx context.Context, id int64) (OutMail, error) {
	var m OutMail
	if err := sqlxGet(ctx, db, &m, `SELECT `+mailColumns+` FROM mail_outbox WHERE id = $1`, id); err != nil {
		return m, wrapf(notFound(err, "mail.err.no_mail"), "mail %d", id)
	}
	one := []OutMail{m}
	err := db.attachmentsOf(ctx, one)
	return one[0], err
}

const forgetMailSQL = `
WITH gone AS (
    UPDATE mail_outbox SET body = '', body_html = ''
    WHERE keep_until <= $1 AND keep_until IS NOT NULL AND body <> '' AND state IN ('sent', 'failed')
    RETURNING id),
files AS (DELETE FROM mail_attachments WHERE mail_id IN (SELECT id FROM gone))
SELECT count(*) FROM gone`

// ForgetMail drops the text and attachments of each mail that carried a
// customer's key, once it is sent (or failed for good) and past its
// KeepUntil at now: the outbox is no copy of the keys the claims keep only
// as hashes. Its record stays (to whom, what, when, how it went, its event
// key, so the event still mails once). It returns how many it emptied.
func (db *DB) ForgetMail(ctx context.Context, now time.Time) (int64, error) {
	var n int64
	err := sqlxGet(ctx, db, &n, forgetMailSQL, now)
	return n, wrapf(err, "forget mail")
}

// MailRecorded says whether the outbox has a mail of this event already.
func (db *DB) MailRecorded(ctx context.Context, eventKey string) (bool, error) {
	var ok bool
	err := sqlxGet(ctx, db, &ok, `SELECT EXISTS (SELECT 1 FROM mail_outbox WHERE event_key = $1)`, eventKey)
	return ok, wrapf(err, "mail %q recorded", eventKey)
}
