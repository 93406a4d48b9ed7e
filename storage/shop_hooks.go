package storage

import "context"

// LockShopConnection reads the connected shop and holds its row until the
// transaction ends, so that of several instances starting at once one
// registers the webhooks and the others find them registered; NotFound when
// no shop is connected.
func (db *DB) LockShopConnection(ctx context.Context) (ShopConnection, error) {
	var c ShopConnection
	err := sqlxGet(ctx, db, &c, `SELECT `+shopConnectionColumns+` FROM shop_connections WHERE id = 1 FOR UPDATE`)
	return c, wrapf(notFound(err, "shop.err.not_connected"), "lock shop connection")
}

// SaveShopHooks keeps the address the webhooks are registered at ("" when
// registering failed, so it is tried again) and the key the shop signs them
// with, sealed.
func (db *DB) SaveShopHooks(ctx context.Context, url string, keySealed []byte) error {
	res, err := db.x.ExecContext(ctx, `UPDATE shop_connections SET hooks_url = $1, hook_key_sealed = $2 WHERE id = 1`, url, keySealed)
	return wrapf(affectedOne(res, err, "shop.err.not_connected"), "save shop hooks")
}

// DeleteShopConnection disconnects the shop: its token and webhook key go;
// its orders, statuses and mappings stay for a connection anew.
func (db *DB) DeleteShopConnection(ctx context.Context) error {
	res, err := db.x.ExecContext(ctx, `DELETE FROM shop_connections WHERE id = 1`)
	return wrapf(affectedOne(res, err, "shop.err.not_connected"), "delete shop connection")
}
