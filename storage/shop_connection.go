package storage

import (
	"context"
	"time"

	"github.com/lib/pq"

	"shipdesk/apperr"
)

// ShopConnection is the connected shop (table shop_connections): its
// platform, address and sealed token, what its orders' statuses mean to the
// desk, and the sync's cursor and lease. The token is sealed by package
// shop; storage never sees it in the clear.
type ShopConnection struct {
	Platform       string        `db:"platform"`
	BaseURL        string        `db:"base_url"`
	TokenSealed    []byte        `db:"token_sealed"`
	ShopID         int64         `db:"shop_id"`
	ShopName       string        `db:"shop_name"`
	ShopURL        string        `db:"shop_url"`
	ShipStatuses   pq.Int64Array `db:"ship_statuses"`
	HandoverStatus *int          `db:"handover_status"`
	HandoverQuiet  bool          `db:"handover_quiet"`
	SyncFrom       time.Time     `db:"sync_from"`
	NextSyncAt     time.Time     `db:"next_sync_at"`
	SyncFailures   int           `db:"sync_failures"`
	SyncedAt       *time.Time    `db:"synced_at"`
	SyncError      apperr.Text   `db:"sync_error"`
	ConnectedAt    time.Time     `db:"connected_at"`
	ConnectedBy    *int64        `db:"connected_by"`
	// HooksURL is where the shop's webhooks are registered ("" none yet);
	// HookKeySealed the key the shop signs them with, sealed like the token.
	HooksURL      string `db:"hooks_url"`
	HookKeySealed []byte `db:"hook_key_sealed"`
}

const shopConnectionColumns = `platform, base_url, token_sealed, shop_id, shop_name, shop_url, ship_statuses, handover_status,
handover_quiet, sync_from, next_sync_at, sync_failures, synced_at, sync_error, connected_at, connected_by, hooks_url, hook_key_sealed`

// ShopStatus is one of the shop's order statuses (table shop_statuses).
type ShopStatus struct {
	ID       int    `db:"id"`
	Name     string `db:"name"`
	Final    bool   `db:"final"`
	Position int    `db:"position"`
}

// Shipping method mappings: what a shop's shipping method means to the desk.
const (
	MapUnmapped = "unmapped" // nobody said yet: its orders wait for a manager
	MapService  = "service"  // a carrier's service of the shipping service
	MapRules    = "rules"    // the offer the managers' rules choose
	MapNotOurs  = "not_ours" // not shipped by us (a personal pickup)
)

// ShopMethod is a shop's shipping or payment method and its mapping (table
// shop_methods).
type ShopMethod struct {
	Kind        string `db:"kind"` // "shipping" or "payment"
	GUID        string `db:"guid"`
	Name        string `db:"name"`
	Position    int    `db:"position"`
	Mapping     string `db:"mapping"`
	Carrier     string `db:"carrier"`
	ServiceID   int    `db:"service_id"`
	ServiceName string `db:"service_name"`
	ToPoint     bool   `db:"to_point"` // the service delivers to a parcel point
	COD         bool   `db:"cod"`      // a payment method the carrier collects
}

// Method kinds.
const (
	ShopShipping = "shipping"
	ShopPayment  = "payment"
)

// ShopConnection reads the connected shop; NotFound when none is.
func (db *DB) ShopConnection(ctx context.Context) (ShopConnection, error) {
	var c ShopConnection
	err := sqlxGet(ctx, db, &c, `SELECT `+shopConnectionColumns+` FROM shop_connections WHERE id = 1`)
	return c, wrapf(notFound(err, "shop.err.not_connected"), "shop connection")
}

// SaveShopConnection connects the shop (or connects it anew, with another
// token or address): the statuses' meaning and the cursor stay when the shop
// is the same one, and start over for another shop. The webhooks are
// registered anew (their key belongs to the token).
func (db *DB) SaveShopConnection(ctx context.Context, c ShopConnection) error {
	_, err := db.x.ExecContext(ctx, `
INSERT INTO shop_connections (id, platform, base_url, token_sealed, shop_id, shop_name, shop_url, sync_from, next_sync_at, connected_at, connected_by)
VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $8, $9)
ON CONFLICT (id) DO UPDATE SET platform = EXCLUDED.platform, base_url = EXCLUDED.base_url, token_sealed = EXCLUDED.token_sealed,
    shop_name = EXCLUDED.shop_name, shop_url = EXCLUDED.shop_url, connected_at = EXCLUDED.connected_at, connected_by = EXCLUDED.connected_by,
    next_sync_at = EXCLUDED.next_sync_at, sync_failures = 0, sync_error = '', leased_until = NULL, hooks_url = '', hook_key_sealed = NULL,
    sync_from = CASE WHEN shop_connections.shop_id = EXCLUDED.shop_id THEN shop_connections.sync_from ELSE EXCLUDED.sync_from END,
    ship_statuses = CASE WHEN shop_connections.shop_id = EXCLUDED.shop_id THEN shop_connections.ship_statuses ELSE '{}' END,
    handover_status = CASE WHEN shop_connections.shop_id = EXCLUDED.shop_id THEN shop_connections.handover_status END,
    shop_id = EXCLUDED.shop_id`,
		c.Platform, c.BaseURL, c.TokenSealed, c.ShopID, c.ShopName, c.ShopURL, c.SyncFrom, c.ConnectedAt, c.ConnectedBy)
	return wrapf(err, "save shop connection")
}

// SaveShopStatusRules stores which statuses' orders are shipped and the
// status a handed-over parcel moves its order to (nil: none), quiet or not.
func (db *DB) SaveShopStatusRules(ctx context.Context, ship []int, handover *int, quiet bool) error {
	ids := make([]int64, len(ship))
	for i, s := range ship {
		ids[i] = int64(s)
	}
	res, err := db.x.ExecContext(ctx, `UPDATE shop_connections SET ship_statuses = $1, handover_status = $2, handover_quiet = $3 WHERE id = 1`,
		pq.Array(ids), handover, quiet)
	return wrapf(affectedOne(res, err, "shop.err.not_connected"), "save shop statuses")
}

// ReplaceShopStatuses stores the shop's statuses as it lists them now.
func (db *DB) ReplaceShopStatuses(ctx context.Context, list []ShopStatus) error {
	ids, names, finals, positions := make([]int64, len(list)), make([]string, len(list)), make([]bool, len(list)), make([]int64, len(list))
	for i, s := range list {
		ids[i], names[i], finals[i], positions[i] = int64(s.ID), s.Name, s.Final, int64(i)
	}
	return db.InTx(ctx, func(tx *DB) error {
		if _, err := tx.x.ExecContext(ctx, `DELETE FROM shop_statuses WHERE id <> ALL ($1)`, pq.Array(ids)); err != nil {
			return wrapf(err, "drop shop statuses")
		}
		_, err := tx.x.ExecContext(ctx, `
INSERT INTO shop_statuses (id, name, final, position)
SELECT * FROM unnest($1::int[], $2::text[], $3::boolean[], $4::int[])
ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, final = EXCLUDED.final, position = EXCLUDED.position`,
			pq.Array(ids), pq.Array(names), pq.Array(finals), pq.Array(positions))
		return wrapf(err, "store %d shop statuses", len(list))
	})
}

// ShopStatuses lists the shop's statuses in its order.
func (db *DB) ShopStatuses(ctx context.Context) ([]ShopStatus, error) {
	var out []ShopStatus
	err := sqlxSelect(ctx, db, &out, `SELECT id, name, final, position FROM shop_statuses ORDER BY position, id`)
	return out, wrapf(err, "shop statuses")
}

// ReplaceShopMethods stores the shop's methods of a kind as it lists them
// now: a method kept keeps its mapping, one the shop no longer has goes.
// isCOD says, for a payment method seen for the first time, whether the
// platform calls it cash on delivery.
func (db *DB) ReplaceShopMethods(ctx context.Context, kind string, list []ShopMethod) error {
	guids, names, positions, cods := make([]string, len(list)), make([]string, len(list)), make([]int64, len(list)), make([]bool, len(list))
	for i, m := range list {
		guids[i], names[i], positions[i], cods[i] = m.GUID, m.Name, int64(i), m.COD
	}
	return db.InTx(ctx, func(tx *DB) error {
		if _, err := tx.x.ExecContext(ctx, `DELETE FROM shop_methods WHERE kind = $1 AND guid <> ALL ($2)`, kind, pq.Array(guids)); err != nil {
			return wrapf(err, "drop shop methods")
		}
		_, err := tx.x.ExecContext(ctx, `
INSERT INTO shop_methods (kind, guid, name, position, cod)
SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[], $5::boolean[])
ON CONFLICT (kind, guid) DO UPDATE SET name = EXCLUDED.name, position = EXCLUDED.position`,
			kind, pq.Array(guids), pq.Array(names), pq.Array(positions), pq.Array(cods))
		return wrapf(err, "store %d shop %s methods", len(list), kind)
	})
}

// ShopMethods lists the shop's methods of both kinds, each kind in the
// shop's order.
func (db *DB) ShopMethods(ctx context.Context) ([]ShopMethod, error) {
	var out []ShopMethod
	err := sqlxSelect(ctx, db, &out, `SELECT kind, guid, name, position, mapping, carrier, service_id, service_name, to_point, cod
FROM shop_methods ORDER BY kind DESC, position, guid`)
	return out, wrapf(err, "shop methods")
}

// SaveShopMethod stores one method's mapping (shipping) or its cash on
// delivery (payment); an unknown method is NotFound.
func (db *DB) SaveShopMethod(ctx context.Context, m ShopMethod) error {
	res, err := db.x.ExecContext(ctx, `UPDATE shop_methods SET mapping = $3, carrier = $4, service_id = $5, service_name = $6, to_point = $7, cod = $8
WHERE kind = $1 AND guid = $2`, m.Kind, m.GUID, m.Mapping, m.Carrier, m.ServiceID, m.ServiceName, m.ToPoint, m.COD)
	return wrapf(affectedOne(res, err, "shop.err.method_unknown", m.GUID), "save shop method %s", m.GUID)
}

// LeaseShopSync takes the shop's sync when it is due and nobody holds it:
// ok false when another instance syncs now or it is not due yet.
func (db *DB) LeaseShopSync(ctx context.Context, c Lease) (ShopConnection, bool, error) {
	var out []ShopConnection
	err := sqlxSelect(ctx, db, &out, `
UPDATE shop_connections SET leased_until = $1::timestamptz + $2 * interval '1 microsecond', leased_by = $3
WHERE id = 1 AND next_sync_at <= $1 AND (leased_until IS NULL OR leased_until < $1)
RETURNING `+shopConnectionColumns, c.Now, c.For.Microseconds(), c.Who)
	if err != nil || len(out) == 0 {
		return ShopConnection{}, false, wrapf(err, "lease shop sync")
	}
	return out[0], true, nil
}

// ShopSynced is how a sync ended: the cursor it reached, when the next one
// is due, and its failure (zero: none).
type ShopSynced struct {
	Who      string
	From     time.Time // the last change stored
	Next     time.Time
	At       time.Time
	Failed   bool
	Error    apperr.Text
	Failures int // failures in a row, this one counted
}

// EndShopSync records a sync's end and releases its lease, when this
// instance still holds it (a lease run out and taken over records nothing).
func (db *DB) EndShopSync(ctx context.Context, s ShopSynced) (bool, error) {
	res, err := db.x.ExecContext(ctx, `
UPDATE shop_connections SET sync_from = greatest(sync_from, $2), next_sync_at = $3, leased_until = NULL,
    synced_at = CASE WHEN $5 THEN synced_at ELSE $4 END, sync_error = $6, sync_failures = $7
WHERE id = 1 AND leased_by = $1`, s.Who, s.From, s.Next, s.At, s.Failed, s.Error, s.Failures)
	return rowChanged(res, err, "end shop sync")
}
