package storage

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"time"

	"shipdesk/apperr"
)

// ClaimLink is a one-time link a customer asked for: it opens the claim form
// of one purchase until it expires or serves a claim.
type ClaimLink struct {
	ID         int64      `db:"id"`
	ShipmentID int64      `db:"shipment_id"`
	Email      string     `db:"email"`
	Language   string     `db:"language"`
	CreatedAt  time.Time  `db:"created_at"`
	ExpiresAt  time.Time  `db:"expires_at"`
	UsedAt     *time.Time `db:"used_at"`
}

const claimLinkColumns = `id, shipment_id, email, language, created_at, expires_at, used_at`

// Claim transports: a hand-over code at a point, a courier at the customer's
// door (the returns API's transport), or the customer brings it to the shop.
const (
	TransportCode    = "code"
	TransportCourier = "courier"
	TransportShop    = "shop"
)

// ClaimCustomer is the customer as they confirmed themselves on the form.
type ClaimCustomer struct {
	Name    string `json:"name"`
	Street  string `json:"street"`
	City    string `json:"city"`
	Zip     string `json:"zip"`
	Country string `json:"country"`
	Phone   string `json:"phone"`
	Email   string `json:"email"`
}

// Value stores the customer as JSON.
func (c ClaimCustomer) Value() (driver.Value, error) {
	b, err := json.Marshal(c)
	return string(b), err
}

// Scan reads the customer's JSON.
func (c *ClaimCustomer) Scan(src any) error {
	b, ok := src.([]byte)
	if !ok {
		return fmt.Errorf("claim customer: %T", src)
	}
	return json.Unmarshal(b, c)
}

// CustomerClaim is a claim a customer filed on the claim page.
type CustomerClaim struct {
	ID               int64         `db:"id"`
	LinkID           int64         `db:"link_id"`
	ShipmentID       int64         `db:"shipment_id"`
	RequestKey       string        `db:"request_key"`
	Kind             string        `db:"kind"` // withdrawal, defect
	Remedy           string        `db:"remedy"`
	Description      string        `db:"description"`
	TypeID           int64         `db:"type_id"`
	ModelID          int64         `db:"model_id"`
	Product          string        `db:"product"`
	Transport        string        `db:"transport"`
	PointCarrier     string        `db:"point_carrier"`
	PointCode        string        `db:"point_code"`
	PointName        string        `db:"point_name"`
	Customer         ClaimCustomer `db:"customer"`
	Email            string        `db:"email"`
	Language         string        `db:"language"`
	RefundAccount    string        `db:"refund_account"`
	RefundAmount     string        `db:"refund_amount"`
	DeliveredAt      *time.Time    `db:"delivered_at"`
	Late             bool          `db:"late"`
	CreatedAt        time.Time     `db:"created_at"`
	CommissionID     *int64        `db:"commission_id"`
	ReturnKey        *string       `db:"return_key"`
	ReturnShipmentID *int64        `db:"return_shipment_id"`
	HandoverMailed   bool          `db:"handover_mailed"`
	ArrivedAt        *time.Time    `db:"arrived_at"`
	Problem          apperr.Text   `db:"problem"`
	RefusedAt        *time.Time    `db:"refused_at"` // the problem is a refusal a retry alone will not fix (since then)
	NextTryAt        time.Time     `db:"next_try_at"`
	Tries            int           `db:"tries"`
}

const claimColumns = `id, link_id, shipment_id, request_key, kind, remedy, description, type_id, model_id,
product, transport, point_carrier, point_code, point_name, customer, email, language, refund_account, refund_amount,
delivered_at, late, created_at, commission_id, return_key, return_shipment_id, handover_mailed, arrived_at, problem,
refused_at, next_try_at, tries`

// PurchaseByContact finds the shipment a customer names by its reference
// (the shop's order number) or tracking number, and the e-mail or phone it
// went to: the e-mail in any case, the phone by its last nine digits. Not
// found is NotFound, whichever half did not match.
func (db *DB) PurchaseByContact(ctx context.Context, code, email, phoneDigits string) (Shipment, error) {
	var s Shipment
	err := sqlxGet(ctx, db, &s, `
SELECT `+shipmentColumns+` FROM shipments
WHERE (upper(reference) = upper($1) OR tracking_number = upper($1))
  AND tracking_number IS NOT NULL AND status <> 'CANCELLED'
  AND (($2 <> '' AND lower(request->'shipments'->0->'to'->>'email') = lower($2))
    OR ($3 <> '' AND right(regexp_replace(request->'shipments'->0->'to'->>'phone', '\D', '', 'g'), 9) = $3))
ORDER BY id DESC LIMIT 1`, code, email, phoneDigits)
	return s, wrapf(notFound(err, "claim.err.not_found"), "purchase %q", code)
}

// CreateClaimLink keeps a link by the hash of its token.
func (db *DB) CreateClaimLink(ctx context.Context, l ClaimLink, tokenHash []byte) (ClaimLink, error) {
	var out ClaimLink
	err := sqlxGet(ctx, db, &out, `INSERT INTO claim_links (token_hash, shipment_id, email, language, created_at, expires_at)
VALUES ($1, $2, $3, $4, $5, $6) RETURNING `+claimLinkColumns, tokenHash, l.ShipmentID, l.Email, l.Language, l.CreatedAt, l.ExpiresAt)
	return out, wrapf(err, "keep claim link")
}

// ClaimLinkByToken reads a link by its token's hash; lock takes it for the
// transaction, so two posts of one form cannot both use it.
func (db *DB) ClaimLinkByToken(ctx context.Context, tokenHash []byte, lock bool) (ClaimLink, error) {
	var l ClaimLink
	q := `SELECT ` + claimLinkColumns + ` FROM claim_links WHERE token_hash = $1`
	if lock {
		q += ` FOR UPDATE`
	}
	err := sqlxGet(ctx, db, &l, q, tokenHash)
	return l, wrapf(notFound(err, "claim.err.link_unknown"), "claim link")
}

// ClaimOfLink is the claim a used link served.
func (db *DB) ClaimOfLink(ctx context.Context, linkID int64) (CustomerClaim, error) {
	var c CustomerClaim
	err := sqlxGet(ctx, db, &c, `SELECT `+claimColumns+` FROM claims WHERE link_id = $1`, linkID)
	return c, wrapf(notFound(err, "claim.err.link_unknown"), "claim of link %d", linkID)
}

// ClaimFile is a customer's file to keep with a claim. Its bytes are read
// when it is stored, so that a claim's files are in memory one at a time.
type ClaimFile struct {
	Name, ContentType string
	Data              func() ([]byte, error)
	Proof             bool // the proof of purchase (else a photo)
}

// FileClaim keeps a claim and its files and uses its link, on tx (the
// caller's transaction, which holds the link's lock).
func (db *DB) FileClaim(ctx context.Context, c CustomerClaim, files []ClaimFile) (CustomerClaim, error) {
	var out CustomerClaim
	err := sqlxGet(ctx, db, &out, `INSERT INTO claims (link_id, shipment_id, request_key, kind, remedy, description,
type_id, model_id, product, transport, point_carrier, point_code, point_name, customer, email, language, refund_account,
refund_amount, delivered_at, late, created_at, return_key, next_try_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $21)
RETURNING `+claimColumns, c.LinkID, c.ShipmentID, c.RequestKey, c.Kind, c.Remedy, c.Description,
		c.TypeID, c.ModelID, c.Product, c.Transport, c.PointCarrier, c.PointCode, c.PointName, c.Customer, c.Email, c.Language,
		c.RefundAccount, c.RefundAmount, c.DeliveredAt, c.Late, c.CreatedAt, c.ReturnKey)
	if err != nil {
		return out, wrapf(err, "file claim")
	}
	if _, err := db.x.ExecContext(ctx, `UPDATE claim_links SET used_at = $2 WHERE id = $1`, c.LinkID, c.CreatedAt); err != nil {
		return out, wrapf(err, "use claim link %d", c.LinkID)
	}
	for _, f := range files {
		if err := db.addClaimFile(ctx, out.ID, nil, f); err != nil {
			return out, err
		}
	}
	return out, nil
}

func (db *DB) addClaimFile(ctx context.Context, claimID int64, messageID *int64, f ClaimFile) error {
	data, err := f.Data()
	if err != nil {
		return fmt.Errorf("read file %s of claim %d: %w", f.Name, claimID, err)
	}
	up, err := db.SaveUpload(ctx, f.Name, f.ContentType, data, nil)
	if err != nil {
		return err
	}
	// A file sent once the commission exists is the commission's too, so
	// the agent finds it with the others.
	_, err = db.x.ExecContext(ctx, `WITH f AS (INSERT INTO claim_files (claim_id, upload_id, proof, message_id) VALUES ($1, $2, $3, $4))
UPDATE uploads SET commission_id = (SELECT commission_id FROM claims WHERE id = $1) WHERE id = $2`,
		claimID, up.ID, f.Proof, messageID)
	return wrapf(err, "file of claim %d", claimID)
}

// AddStatusKey keeps a key of a claim's status page by its hash (the key
// itself is never stored): each link mailed or shown has one.
func (db *DB) AddStatusKey(ctx context.Context, claimID int64, keyHash []byte, at time.Time) error {
	_, err := db.x.ExecContext(ctx, `INSERT INTO claim_status_keys (key_hash, claim_id, created_at) VALUES ($1, $2, $3)`, keyHash, claimID, at)
	return wrapf(err, "status key of claim %d", claimID)
}

// ClaimByStatusKey reads the claim a status page's key opens, by the key's hash.
func (db *DB) ClaimByStatusKey(ctx context.Context, keyHash []byte) (CustomerClaim, error) {
	var c CustomerClaim
	err := sqlxGet(ctx, db, &c, `SELECT `+claimColumns+` FROM claims
WHERE id = (SELECT claim_id FROM claim_status_keys WHERE key_hash = $1)`, keyHash)
	return c, wrapf(notFound(err, "claim.err.status_unknown"), "claim by status key")
}

// ClaimByID reads a claim.
func (db *DB) ClaimByID(ctx context.Context, id int64) (CustomerClaim, error) {
	var c CustomerClaim
	err := sqlxGet(ctx, db, &c, `SELECT `+claimColumns+` FROM claims WHERE id = $1`, id)
	return c, wrapf(notFound(err, "claim.err.status_unknown"), "claim %d", id)
}

// ClaimOfCommission is the claim a commission came from (NotFound: it was
// typed in by an agent).
func (db *DB) ClaimOfCommission(ctx context.Context, commissionID int64) (CustomerClaim, error) {
	var c CustomerClaim
	err := sqlxGet(ctx, db, &c, `SELECT `+claimColumns+` FROM claims WHERE commission_id = $1`, commissionID)
	return c, wrapf(notFound(err, "claim.err.status_unknown"), "claim of commission %d", commissionID)
}

// ClaimByRequestKey is the claim whose commission has the request key.
func (db *DB) ClaimByRequestKey(ctx context.Context, key string) (CustomerClaim, error) {
	var c CustomerClaim
	err := sqlxGet(ctx, db, &c, `SELECT `+claimColumns+` FROM claims WHERE request_key = $1`, key)
	return c, wrapf(notFound(err, "claim.err.status_unknown"), "claim of request %s", key)
}

// ClaimsDue are the claims with a step to take, at most limit, oldest first:
// no commission yet, no return parcel yet, the code not yet mailed, the
// parcel not yet arrived.
func (db *DB) ClaimsDue(ctx context.Context, now time.Time, limit int) ([]CustomerClaim, error) {
	var out []CustomerClaim
	err := sqlxSelect(ctx, db, &out, `SELECT `+claimColumns+` FROM claims
WHERE next_try_at <= $1 AND (commission_id IS NULL OR (transport = 'code' AND return_shipment_id IS NULL)
   OR (transport = 'code' AND (NOT handover_mailed OR arrived_at IS NULL)))
ORDER BY next_try_at, id LIMIT $2`, now, limit)
	return out, wrapf(err, "claims due")
}

// ClaimCommission binds a claim to the commission made of it.
func (db *DB) ClaimCommission(ctx context.Context, id, commissionID int64) error {
	_, err := db.x.ExecContext(ctx, `UPDATE claims SET commission_id = $2 WHERE id = $1`, id, commissionID)
	return wrapf(err, "commission of claim %d", id)
}

// ClaimReturnParcel binds a claim to its return parcel.
func (db *DB) ClaimReturnParcel(ctx context.Context, id, shipmentID int64) error {
	_, err := db.x.ExecContext(ctx, `UPDATE claims SET return_shipment_id = $2 WHERE id = $1`, id, shipmentID)
	return wrapf(err, "return parcel of claim %d", id)
}

// ClaimHandoverMailed records that the customer has been sent what to hand
// the parcel over with; false when it was recorded already (the caller's
// mail is then not the first).
func (db *DB) ClaimHandoverMailed(ctx context.Context, id int64) (bool, error) {
	res, err := db.x.ExecContext(ctx, `UPDATE claims SET handover_mailed = true WHERE id = $1 AND NOT handover_mailed`, id)
	return rowChanged(res, err, "hand-over of claim %d", id)
}

// ClaimArrived records when the return parcel reached the shop.
func (db *DB) ClaimArrived(ctx context.Context, id int64, at time.Time) (bool, error) {
	res, err := db.x.ExecContext(ctx, `UPDATE claims SET arrived_at = $2 WHERE id = $1 AND arrived_at IS NULL`, id, at)
	return rowChanged(res, err, "arrival of claim %d", id)
}

// ClaimWait records what stopped a claim's step and when to try again;
// a zero problem clears it. refused is when the step was refused (nil: it
// was not, or it succeeded); a claim refused again keeps its first moment.
func (db *DB) ClaimWait(ctx context.Context, id int64, problem apperr.Text, refused *time.Time, next time.Time) error {
	_, err := db.x.ExecContext(ctx, `UPDATE claims SET problem = $2, next_try_at = $3,
tries = CASE WHEN $2 = '' THEN 0 ELSE tries + 1 END,
refused_at = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE COALESCE(refused_at, $4) END WHERE id = $1`, id, problem, next, refused)
	return wrapf(err, "wait of claim %d", id)
}

// ClaimMessage is a customer's reply from the status page.
type ClaimMessage struct {
	ID         int64     `db:"id"`
	ClaimID    int64     `db:"claim_id"`
	RequestKey string    `db:"request_key"`
	Body       string    `db:"body"`
	CreatedAt  time.Time `db:"created_at"`
}

// AddClaimMessage keeps a customer's reply with its photos, on tx; the same
// request key again keeps nothing more (fresh false).
func (db *DB) AddClaimMessage(ctx context.Context, m ClaimMessage, files []ClaimFile) (ClaimMessage, bool, error) {
	var out ClaimMessage
	err := sqlxGet(ctx, db, &out, `INSERT INTO claim_messages (claim_id, request_key, body, created_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (request_key) DO NOTHING RETURNING id, claim_id, request_key, body, created_at`, m.ClaimID, m.RequestKey, m.Body, m.CreatedAt)
	if err != nil {
		return out, false, wrapf(notFound(err, "claim.err.status_unknown"), "reply to claim %d", m.ClaimID)
	}
	for _, f := range files {
		if err := db.addClaimFile(ctx, m.ClaimID, &out.ID, f); err != nil {
			return out, false, err
		}
	}
	return out, true, nil
}

// ClaimMessages are a claim's replies, oldest first.
func (db *DB) ClaimMessages(ctx context.Context, claimID int64) ([]ClaimMessage, error) {
	var out []ClaimMessage
	err := sqlxSelect(ctx, db, &out, `SELECT id, claim_id, request_key, body, created_at FROM claim_messages WHERE claim_id = $1 ORDER BY id`, claimID)
	return out, wrapf(err, "replies of claim %d", claimID)
}

// ClaimUpload is a file of a claim (without its bytes).
type ClaimUpload struct {
	Upload
	Proof     bool   `db:"proof"`
	MessageID *int64 `db:"message_id"`
}

// ClaimUploads lists a claim's files, oldest first.
func (db *DB) ClaimUploads(ctx context.Context, claimID int64) ([]ClaimUpload, error) {
	var out []ClaimUpload
	err := sqlxSelect(ctx, db, &out, `SELECT u.id, u.token, u.filename, u.content_type, u.size, u.sha256, ''::bytea AS data,
u.commission_id, u.created_by, u.created_at, f.proof, f.message_id
FROM claim_files f JOIN uploads u ON u.id = f.upload_id WHERE f.claim_id = $1 ORDER BY u.id`, claimID)
	return out, wrapf(err, "files of claim %d", claimID)
}

// ClaimUpload reads one file of a claim with its bytes; a file of another
// claim is not found.
func (db *DB) ClaimUpload(ctx context.Context, claimID, uploadID int64) (Upload, error) {
	var u Upload
	err := sqlxGet(ctx, db, &u, `SELECT u.id, u.token, u.filename, u.content_type, u.size, u.sha256, u.data,
u.commission_id, u.created_by, u.created_at FROM claim_files f JOIN uploads u ON u.id = f.upload_id
WHERE f.claim_id = $1 AND f.upload_id = $2`, claimID, uploadID)
	return u, wrapf(notFound(err, "rec.no_file", uploadID), "file %d of claim %d", uploadID, claimID)
}
