package storage

import (
	"context"
	"database/sql"
	"errors"

	"shipdesk/shiprules"
)

// The managers' rules that choose an offer for a shipment (table ship_rules).
// Positions are unique; a new rule goes last, and moving a rule swaps its
// position with its neighbour's in one statement. Writes that depend on the
// order (adding, moving) lock the table against each other; reads go on.

const shipRuleColumns = `id, name, position, countries, cod, weight_min_kg, weight_max_kg, longest_side_max_cm,
dims_sum_max_cm, delivery, choice, carriers, carrier, service, service_id`

// ShipRules lists every rule in the order they are tried.
func (db *DB) ShipRules(ctx context.Context) ([]shiprules.Rule, error) {
	out := []shiprules.Rule{}
	err := sqlxSelect(ctx, db, &out, `SELECT `+shipRuleColumns+` FROM ship_rules ORDER BY position, id`)
	return out, wrapf(err, "list ship rules")
}

// ShipRule returns one rule; an unknown id is a not-found error.
func (db *DB) ShipRule(ctx context.Context, id int64) (shiprules.Rule, error) {
	var r shiprules.Rule
	err := sqlxGet(ctx, db, &r, `SELECT `+shipRuleColumns+` FROM ship_rules WHERE id = $1`, id)
	return r, wrapf(notFound(err, "shiprules.gone", id), "ship rule %d", id)
}

// lockShipRules keeps other writers of the order out until the transaction ends.
func (db *DB) lockShipRules(ctx context.Context) error {
	_, err := db.x.ExecContext(ctx, `LOCK TABLE ship_rules IN SHARE ROW EXCLUSIVE MODE`)
	return wrapf(err, "lock ship rules")
}

// SaveShipRule stores a rule: a new one (ID 0) after every other, an existing
// one in its place (its Position is kept, whatever r says). It returns the
// rule's id; an unknown id is a not-found error.
func (db *DB) SaveShipRule(ctx context.Context, r shiprules.Rule) (int64, error) {
	const set = `name = $2, countries = $3, cod = $4, weight_min_kg = $5, weight_max_kg = $6, longest_side_max_cm = $7,
dims_sum_max_cm = $8, delivery = $9, choice = $10, carriers = $11, carrier = $12, service = $13, service_id = $14, edited_at = now()`
	args := []any{r.ID, r.Name, r.Countries, r.COD, r.WeightMinKg, r.WeightMaxKg, r.LongestMaxCm, r.DimsSumMaxCm,
		r.Delivery, r.Choice, r.Carriers, r.Carrier, r.Service, r.ServiceID}
	if r.ID != 0 {
		res, err := db.x.ExecContext(ctx, `UPDATE ship_rules SET `+set+` WHERE id = $1`, args...)
		return r.ID, wrapf(affectedOne(res, err, "shiprules.gone", r.ID), "save ship rule %d", r.ID)
	}
	var id int64
	err := db.InTx(ctx, func(tx *DB) error {
		if err := tx.lockShipRules(ctx); err != nil {
			return err
		}
		return sqlxGet(ctx, tx, &id, `INSERT INTO ship_rules (name, countries, cod, weight_min_kg, weight_max_kg, longest_side_max_cm,
    dims_sum_max_cm, delivery, choice, carriers, carrier, service, service_id, position)
SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, COALESCE(MAX(position), 0) + 1 FROM ship_rules
RETURNING id`, args[1:]...)
	})
	return id, wrapf(err, "add ship rule")
}

// DeleteShipRule removes a rule; the others keep their order.
func (db *DB) DeleteShipRule(ctx context.Context, id int64) error {
	res, err := db.x.ExecContext(ctx, `DELETE FROM ship_rules WHERE id = $1`, id)
	return wrapf(affectedOne(res, err, "shiprules.gone", id), "delete ship rule %d", id)
}

// MoveShipRule swaps a rule with the one before it (up) or after it. The
// first rule moved up, or the last moved down, stays where it is.
func (db *DB) MoveShipRule(ctx context.Context, id int64, up bool) error {
	neighbour := `SELECT id, position FROM ship_rules WHERE position > $1 ORDER BY position LIMIT 1`
	if up {
		neighbour = `SELECT id, position FROM ship_rules WHERE position < $1 ORDER BY position DESC LIMIT 1`
	}
	err := db.InTx(ctx, func(tx *DB) error {
		if err := tx.lockShipRules(ctx); err != nil {
			return err
		}
		var position int
		if err := sqlxGet(ctx, tx, &position, `SELECT position FROM ship_rules WHERE id = $1`, id); err != nil {
			return notFound(err, "shiprules.gone", id)
		}
		var other struct {
			ID       int64 `db:"id"`
			Position int   `db:"position"`
		}
		switch err := sqlxGet(ctx, tx, &other, neighbour, position); {
		case errors.Is(err, sql.ErrNoRows):
			return nil // first or last already
		case err != nil:
			return err
		}
		_, err := tx.x.ExecContext(ctx, `UPDATE ship_rules SET position = CASE id WHEN $1 THEN $2::integer ELSE $3::integer END
WHERE id IN ($1, $4)`, id, other.Position, position, other.ID)
		return err
	})
	return wrapf(err, "move ship rule %d", id)
}
