package storage

import (
	"context"
	"database/sql"
	"time"
)

// COD rules on several packages, as the spec's limits name them (K1, K2, K3).
const (
	CODPackagesAny             = ""                  // no limit known
	CODPackagesSingle          = "single"            // one package only
	CODPackagesSingleWithPoint = "single_with_point" // one package when a point is used
	CODPackagesSingleToSK      = "single_to_sk"      // one package from CZ to SK
)

// CODPackageRules are the values of Carrier.CODPackages, in display order.
var CODPackageRules = []string{CODPackagesAny, CODPackagesSingle, CODPackagesSingleWithPoint, CODPackagesSingleToSK}

// Carrier is what the dashboard knows of one carrier beyond its offers.
type Carrier struct {
	Code        string       `db:"code"`
	Name        string       `db:"name"`
	LabelFree   sql.NullBool `db:"label_free"` // not Valid: unknown, ask the service
	CODPackages string       `db:"cod_packages"`
	// StuckDays is how many working days a parcel may go without a tracking
	// event before the attention queue lists it (DefaultStuckDays unless edited).
	StuckDays int        `db:"stuck_days"`
	SeenAt    time.Time  `db:"seen_at"`
	EditedAt  *time.Time `db:"edited_at"`
}

const carrierColumns = `code, name, label_free, cod_packages, stuck_days, seen_at, edited_at`

// Carriers lists every carrier known, by code.
func (db *DB) Carriers(ctx context.Context) ([]Carrier, error) {
	var out []Carrier
	err := sqlxSelect(ctx, db, &out, `SELECT `+carrierColumns+` FROM carriers ORDER BY code`)
	return out, wrapf(err, "list carriers")
}

// CarrierByCode returns one carrier; an unknown code is a not-found error.
func (db *DB) CarrierByCode(ctx context.Context, code string) (Carrier, error) {
	var c Carrier
	err := sqlxGet(ctx, db, &c, `SELECT `+carrierColumns+` FROM carriers WHERE code = $1`, code)
	return c, wrapf(notFound(err, "rec.no_carrier", code), "carrier %s", code)
}

// SeeCarriers records carriers seen in offers; what is known of them stays.
func (db *DB) SeeCarriers(ctx context.Context, codes []string) error {
	if len(codes) == 0 {
		return nil
	}
	_, err := db.x.ExecContext(ctx, `INSERT INTO carriers (code) SELECT DISTINCT unnest($1::text[])
ON CONFLICT (code) DO UPDATE SET seen_at = now()`, pqArray(codes))
	return wrapf(err, "remember %d carriers", len(codes))
}

// SeedCarriers stores carriers known in advance (the sandbox's, in sandbox mode)
// unless a carrier is stored already: a manager's edits win.
func (db *DB) SeedCarriers(ctx context.Context, list []Carrier) error {
	for _, c := range list {
		_, err := db.x.ExecContext(ctx, `INSERT INTO carriers (code, name, label_free, cod_packages) VALUES ($1, $2, $3, $4)
ON CONFLICT (code) DO UPDATE SET name = CASE WHEN carriers.name = '' THEN EXCLUDED.name ELSE carriers.name END,
    label_free = CASE WHEN carriers.edited_at IS NULL THEN COALESCE(carriers.label_free, EXCLUDED.label_free) ELSE carriers.label_free END,
    cod_packages = CASE WHEN carriers.edited_at IS NULL AND carriers.cod_packages = '' THEN EXCLUDED.cod_packages ELSE carriers.cod_packages END`,
			c.Code, c.Name, c.LabelFree, c.CODPackages)
		if err != nil {
			return wrapf(err, "seed carrier %s", c.Code)
		}
	}
	return nil
}

// LearnLabelFree stores what the service said of a label-free request for a
// carrier while the table does not know: a manager's yes or no stays.
func (db *DB) LearnLabelFree(ctx context.Context, code string, possible bool) error {
	_, err := db.x.ExecContext(ctx, `INSERT INTO carriers (code, label_free) VALUES ($1, $2)
ON CONFLICT (code) DO UPDATE SET label_free = EXCLUDED.label_free WHERE carriers.label_free IS NULL`, code, possible)
	return wrapf(err, "learn label-free for %s", code)
}

// EditCarrier saves a manager's facts about a carrier.
func (db *DB) EditCarrier(ctx context.Context, c Carrier, at time.Time) error {
	res, err := db.x.ExecContext(ctx, `UPDATE carriers SET name = $2, label_free = $3, cod_packages = $4, stuck_days = $6, edited_at = $5
WHERE code = $1`, c.Code, c.Name, c.LabelFree, c.CODPackages, at, c.StuckDays)
	return wrapf(affectedOne(res, err, "rec.no_carrier", c.Code), "edit carrier %s", c.Code)
}
