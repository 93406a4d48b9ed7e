package storage

import (
	"context"
	"crypto/sha256"
	"fmt"
	"time"
)

// Upload is a proof of purchase kept locally.
type Upload struct {
	ID           int64     `db:"id"`
	Token        *string   `db:"token"`
	Filename     string    `db:"filename"`
	ContentType  string    `db:"content_type"`
	Size         int64     `db:"size"`
	SHA256       []byte    `db:"sha256"`
	Data         []byte    `db:"data"`
	CommissionID *int64    `db:"commission_id"`
	CreatedBy    *int64    `db:"created_by"` // the agent whose form kept it
	CreatedAt    time.Time `db:"created_at"`
}

const uploadColumns = `id, token, filename, content_type, size, sha256, data, commission_id, created_by, created_at`

// SaveUpload keeps a checked file before it is sent to the service.
func (db *DB) SaveUpload(ctx context.Context, name, contentType string, data []byte, by *int64) (Upload, error) {
	sum := sha256.Sum256(data)
	var u Upload
	err := sqlxGet(ctx, db, &u, `INSERT INTO uploads (filename, content_type, size, sha256, data, created_by)
VALUES ($1, $2, $3, $4, $5, $6) RETURNING `+uploadColumns,
		name, contentType, len(data), sum[:], data, by)
	return u, wrapf(err, "save upload %s", name)
}

// SetUploadToken stores the token the service gave for a file.
func (db *DB) SetUploadToken(ctx context.Context, id int64, token string) error {
	res, err := db.x.ExecContext(ctx, `UPDATE uploads SET token = $2 WHERE id = $1`, id, token)
	return wrapf(affectedOne(res, err, "rec.no_upload", id), "token of upload %d", id)
}

// AttachUpload links a file to its commission.
func (db *DB) AttachUpload(ctx context.Context, uploadID, commissionID int64) error {
	_, err := db.x.ExecContext(ctx, `UPDATE uploads SET commission_id = $2 WHERE id = $1`, uploadID, commissionID)
	return wrapf(err, "attach upload %d", uploadID)
}

// UploadByID reads a kept file.
func (db *DB) UploadByID(ctx context.Context, id int64) (Upload, error) {
	var u Upload
	err := sqlxGet(ctx, db, &u, `SELECT `+uploadColumns+` FROM uploads WHERE id = $1`, id)
	return u, wrapf(notFound(err, "rec.no_file", id), "upload %d", id)
}

// keptUpload is a file that belongs to no commission yet, not even to one being
// ordered (an intent names its file before the file is attached).
const keptUpload = `commission_id IS NULL AND NOT EXISTS (SELECT 1 FROM commissions c WHERE c.upload_id = uploads.id)`

// KeptUpload reads a file kept from a failed form for the agent who uploaded
// it. Anyone else's, or one already used by a commission, is NotFound: a
// guessed id tells nothing.
func (db *DB) KeptUpload(ctx context.Context, id, by int64) (Upload, error) {
	var u Upload
	err := sqlxGet(ctx, db, &u, `SELECT `+uploadColumns+` FROM uploads WHERE id = $1 AND created_by = $2 AND `+keptUpload, id, by)
	return u, wrapf(notFound(err, "rec.no_file", id), "kept upload %d", id)
}

// PruneKeptUploads deletes kept files that no commission took within maxAge:
// forms abandoned after a failure. It returns how many went.
func (db *DB) PruneKeptUploads(ctx context.Context, maxAge time.Duration) (int64, error) {
	res, err := db.x.ExecContext(ctx, `DELETE FROM uploads WHERE created_at < now() - make_interval(secs => $1) AND `+keptUpload, maxAge.Seconds())
	if err != nil {
		return 0, fmt.Errorf("prune kept uploads: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}
