package storage

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"
)

// Kinds of a commission's written confirmation.
const (
	DocIntake     = "intake"     // the claim taken (§19(2))
	DocSettlement = "settlement" // the claim settled (§19(5))
)

// Document is a written confirmation kept with its commission: drawn once at
// its event and never changed; a new event makes a new version.
type Document struct {
	ID           int64     `db:"id"`
	CommissionID int64     `db:"commission_id"`
	Kind         string    `db:"kind"`
	Version      int       `db:"version"`
	CreatedAt    time.Time `db:"created_at"`
	CreatedBy    *int64    `db:"created_by"`
	Filename     string    `db:"filename"`
	PDF          []byte    `db:"pdf"`
	SHA256       []byte    `db:"sha256"`
}

const documentInfo = `id, commission_id, kind, version, created_at, created_by, filename, sha256`

// SaveDocument keeps a confirmation; when its commission, kind and version
// are kept already, the kept one is returned (fresh false) and d is dropped,
// so an event issues its confirmation once however often it is asked.
func (db *DB) SaveDocument(ctx context.Context, d Document) (out Document, fresh bool, err error) {
	sum := sha256.Sum256(d.PDF)
	err = sqlxGet(ctx, db, &out, `
INSERT INTO commission_documents (commission_id, kind, version, created_at, created_by, filename, pdf, sha256)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
ON CONFLICT (commission_id, kind, version) DO NOTHING
RETURNING `+documentInfo, d.CommissionID, d.Kind, d.Version, d.CreatedAt, d.CreatedBy, d.Filename, d.PDF, sum[:])
	if errors.Is(err, errNoRows) {
		out, err = db.documentOf(ctx, d.CommissionID, d.Kind, d.Version)
		return out, false, err
	}
	return out, err == nil, wrapf(err, "keep the %s confirmation of commission %d", d.Kind, d.CommissionID)
}

func (db *DB) documentOf(ctx context.Context, commission int64, kind string, version int) (Document, error) {
	var d Document
	err := sqlxGet(ctx, db, &d, `SELECT `+documentInfo+` FROM commission_documents
WHERE commission_id = $1 AND kind = $2 AND version = $3`, commission, kind, version)
	return d, wrapf(notFound(err, "rec.no_document", version), "confirmation %s %d of commission %d", kind, version, commission)
}

// HasDocument says whether a commission has a confirmation of a kind and version.
func (db *DB) HasDocument(ctx context.Context, commission int64, kind string, version int) (bool, error) {
	var n int
	err := sqlxGet(ctx, db, &n, `SELECT count(*) FROM commission_documents WHERE commission_id = $1 AND kind = $2 AND version = $3`,
		commission, kind, version)
	return n > 0, wrapf(err, "has confirmation %s %d of commission %d", kind, version, commission)
}

// DocumentsOf lists a commission's confirmations without their bytes, oldest first.
func (db *DB) DocumentsOf(ctx context.Context, commission int64) ([]Document, error) {
	var out []Document
	err := sqlxSelect(ctx, db, &out, `SELECT `+documentInfo+` FROM commission_documents
WHERE commission_id = $1 ORDER BY created_at, id`, commission)
	return out, wrapf(err, "confirmations of commission %d", commission)
}

// DocumentByID reads a confirmation with its bytes; one of another commission
// is not found.
func (db *DB) DocumentByID(ctx context.Context, commission, id int64) (Document, error) {
	var d Document
	err := sqlxGet(ctx, db, &d, `SELECT `+documentInfo+`, pdf FROM commission_documents WHERE id = $1 AND commission_id = $2`, id, commission)
	return d, wrapf(notFound(err, "rec.no_document", id), "confirmation %d of commission %d", id, commission)
}

// LatestDocument is a commission's newest confirmation of a kind, with its bytes.
func (db *DB) LatestDocument(ctx context.Context, commission int64, kind string) (Document, error) {
	var d Document
	err := sqlxGet(ctx, db, &d, `SELECT `+documentInfo+`, pdf FROM commission_documents
WHERE commission_id = $1 AND kind = $2 ORDER BY version DESC LIMIT 1`, commission, kind)
	return d, wrapf(notFound(err, "rec.no_document", 0), "latest %s confirmation of commission %d", kind, commission)
}

// ExtendDeadline records a deadline agreed with the customer: it becomes the
// claim's deadline (while its period runs) and counts one more extension.
// The caller has checked it against the commission read under lock.
func (db *DB) ExtendDeadline(ctx context.Context, id int64, to, agreedOn time.Time) error {
	res, err := db.x.ExecContext(ctx, `UPDATE commissions SET extended_to = $2::timestamptz, extension_agreed_on = $3::date, extensions = extensions + 1,
    deadline_at = CASE WHEN deadline_at IS NOT NULL THEN $2::timestamptz END WHERE id = $1`, id, to, agreedOn)
	return wrapf(affectedOne(res, err, "rec.no_commission", id), "extend the deadline of commission %d", id)
}

// String names a document for logs.
func (d Document) String() string {
	return fmt.Sprintf("%s v%d of commission %d", d.Kind, d.Version, d.CommissionID)
}
