package storage

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// ParcelPoint is a pickup or delivery point cached from parcelpoints/list.
type ParcelPoint struct {
	ID         int64   `db:"id"`
	Carrier    string  `db:"carrier"`
	Code       string  `db:"code"`
	Name       string  `db:"name"`
	Street     string  `db:"street"`
	City       string  `db:"city"`
	Zip        string  `db:"zip"`
	Country    string  `db:"country"`
	IsLocker   bool    `db:"is_locker"`
	LocationID int64   `db:"location_id"`
	MaxLength  float64 `db:"max_length"`
	MaxWidth   float64 `db:"max_width"`
	MaxHeight  float64 `db:"max_height"`
	MaxWeight  float64 `db:"max_weight"`
}

// searchText is what the trigram index matches: every searchable field, folded.
func (p ParcelPoint) searchText() string {
	return Fold(strings.Join([]string{p.Code, p.Name, p.Street, p.City, p.Zip, strings.ReplaceAll(p.Zip, " ", "")}, " "))
}

// sortedLimits are the size limits from smallest to largest.
func (p ParcelPoint) sortedLimits() [3]float64 {
	l := []float64{p.MaxLength, p.MaxWidth, p.MaxHeight}
	slices.Sort(l)
	return [3]float64{l[0], l[1], l[2]}
}

// Fold lowers text and strips the diacritics of Czech and Slovak, so "Plzen"
// finds "Plzeň" and the other way round.
func Fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToLower(s) {
		if f, ok := folds[r]; ok {
			r = f
		}
		if unicode.IsSpace(r) {
			r = ' '
		}
		b.WriteRune(r)
	}
	return b.String()
}

// foldFrom and foldTo are the letters Fold takes the accents off, and the
// letters it makes of them. Migration 00053 folds the shipments' search text
// with the same two strings (PostgreSQL's translate), so a folded search
// finds a folded row; a test holds the two alike.
const (
	foldFrom = "áäčďéěíĺľňóôöřŕšťúůüýž"
	foldTo   = "aacdeeillnooorrstuuuyz"
)

var folds = func() map[rune]rune {
	from, to := []rune(foldFrom), []rune(foldTo)
	m := make(map[rune]rune, len(from))
	for i, r := range from {
		m[r] = to[i]
	}
	return m
}()

// UpsertPoints stores a page of points in one statement and marks them refreshed at.
func (db *DB) UpsertPoints(ctx context.Context, points []ParcelPoint, at time.Time) error {
	if len(points) == 0 {
		return nil
	}
	rows := make([]map[string]any, 0, len(points))
	for _, p := range points {
		l := p.sortedLimits()
		rows = append(rows, map[string]any{"id": p.ID, "carrier": p.Carrier, "code": p.Code, "name": p.Name, "street": p.Street,
			"city": p.City, "zip": p.Zip, "country": p.Country, "is_locker": p.IsLocker, "location_id": p.LocationID,
			"max_length": p.MaxLength, "max_width": p.MaxWidth, "max_height": p.MaxHeight, "max_weight": p.MaxWeight,
			"lim_small": l[0], "lim_mid": l[1], "lim_large": l[2], "search": p.searchText()})
	}
	doc, err := json.Marshal(rows)
	if err != nil {
		return fmt.Errorf("encode parcel points: %w", err)
	}
	const q = `
INSERT INTO parcel_points (id, carrier, code, name, street, city, zip, country, is_locker, location_id,
    max_length, max_width, max_height, max_weight, lim_small, lim_mid, lim_large, search, refreshed_at)
SELECT id, carrier, code, name, street, city, zip, country, is_locker, location_id,
    max_length, max_width, max_height, max_weight, lim_small, lim_mid, lim_large, search, $2
FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, carrier text, code text, name text, street text, city text,
    zip text, country text, is_locker boolean, location_id bigint, max_length real, max_width real,
    max_height real, max_weight real, lim_small real, lim_mid real, lim_large real, search text)
ON CONFLICT (id) DO UPDATE SET carrier = EXCLUDED.carrier, code = EXCLUDED.code, name = EXCLUDED.name,
    street = EXCLUDED.street, city = EXCLUDED.city, zip = EXCLUDED.zip, country = EXCLUDED.country,
    is_locker = EXCLUDED.is_locker, location_id = EXCLUDED.location_id, max_length = EXCLUDED.max_length,
    max_width = EXCLUDED.max_width, max_height = EXCLUDED.max_height, max_weight = EXCLUDED.max_weight,
    lim_small = EXCLUDED.lim_small, lim_mid = EXCLUDED.lim_mid, lim_large = EXCLUDED.lim_large,
    search = EXCLUDED.search, refreshed_at = EXCLUDED.refreshed_at`
	if _, err := db.x.ExecContext(ctx, q, string(doc), at); err != nil {
		return fmt.Errorf("store %d parcel points: %w", len(points), err)
	}
	return nil
}

// DeletePointsBefore removes points a refresh no longer saw.
func (db *DB) DeletePointsBefore(ctx context.Context, before time.Time) (int64, error) {
	res, err := db.x.ExecContext(ctx, `DELETE FROM parcel_points WHERE refreshed_at < $1`, before)
	if err != nil {
		return 0, fmt.Errorf("delete old parcel points: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// PointStats is how many points are cached and when they were refreshed.
type PointStats struct {
	Count     int64      `db:"count"`
	Refreshed *time.Time `db:"refreshed"`
}

// PointStats reads the size and age of the cache.
func (db *DB) PointStats(ctx context.Context) (PointStats, error) {
	var s PointStats
	err := sqlxGet(ctx, db, &s, `SELECT count(*) AS count, max(refreshed_at) AS refreshed FROM parcel_points`)
	return s, wrapf(err, "parcel point stats")
}

// Fit is what the packages need from a point: their largest sorted dimensions
// and weight (zero: no condition).
type Fit struct {
	Small, Mid, Large, Weight float64
}

// FitOf is the fit all packages need: per sorted position the largest
// dimension. A point takes every package exactly when it takes this one.
func FitOf(dims [][3]float64, weights []float64) Fit {
	var f Fit
	for _, d := range dims {
		s := []float64{d[0], d[1], d[2]}
		slices.Sort(s)
		f.Small, f.Mid, f.Large = max(f.Small, s[0]), max(f.Mid, s[1]), max(f.Large, s[2])
	}
	for _, w := range weights {
		f.Weight = max(f.Weight, w)
	}
	return f
}

// PointQuery searches points of one carrier.
type PointQuery struct {
	Carrier string
	Country string // empty: any
	Text    string // words that must all appear (town, postal code, street, name, code)
	Fit     Fit
	Limit   int
}

// SearchPoints finds points of a carrier whose text holds every word, hiding
// points the packages do not fit. A point without known limits (the service
// does not publish them) is shown: the service checks the size on create. The
// carrier's trigram index (parcel_points_carrier_search_idx) answers the word match.
func (db *DB) SearchPoints(ctx context.Context, q PointQuery) ([]ParcelPoint, error) {
	found, err := db.FindPoints(ctx, q)
	return found.Points, err
}

// PointsFound is one page of a point search and how many points match in all.
type PointsFound struct {
	Points []ParcelPoint
	Total  int  // points that match (PointsCountCap when More)
	More   bool // more than PointsCountCap match: they were not counted to the end
}

// PointsCountCap is how far a search counts the points that match: past a
// thousand the clerk types more rather than reads the number, and a search
// for one letter would otherwise count every point of the carrier.
const PointsCountCap = 1000

// FindPoints is SearchPoints that also counts the points that match (up to
// PointsCountCap), beside the page, so the picker can say there are more than
// it shows.
func (db *DB) FindPoints(ctx context.Context, q PointQuery) (PointsFound, error) {
	if q.Limit <= 0 || q.Limit > 100 {
		q.Limit = 20
	}
	args := []any{q.Carrier, q.Fit.Small, q.Fit.Mid, q.Fit.Large, q.Fit.Weight}
	var where strings.Builder
	where.WriteString(`carrier = $1 AND (lim_large = 0 OR (lim_small >= $2 AND lim_mid >= $3 AND lim_large >= $4)) AND (max_weight = 0 OR max_weight >= $5)`)
	if q.Country != "" {
		args = append(args, q.Country)
		fmt.Fprintf(&where, ` AND country = $%d`, len(args))
	}
	words := strings.Fields(Fold(q.Text))
	if len(words) > 6 {
		words = words[:6]
	}
	for _, w := range words {
		args = append(args, "%"+likeEscape(w)+"%")
		fmt.Fprintf(&where, ` AND search LIKE $%d`, len(args))
	}
	var out PointsFound
	var err error
	if len(words) > 0 && shortWords(words) {
		// Words too short for the trigram index: the count may read every
		// point of the carrier, so it runs beside the walks, not after them.
		total := db.countBeside(ctx, `SELECT count(*) FROM (SELECT FROM parcel_points WHERE `+where.String()+
			` LIMIT `+strconv.Itoa(PointsCountCap+1)+`) AS capped`, slices.Clone(args))
		out.Points, err = db.pointsInTwoWalks(ctx, where.String(), args, words[0], q.Limit)
		n := <-total
		out.Total, err = n.n, cmp.Or(err, n.err)
	} else if len(words) > 0 {
		// Points whose words start with what was typed come first ("brn"
		// → Brno): no index holds that order, so the page sorts every
		// match, and counts them as it goes.
		args = append(args, "% "+likeEscape(words[0])+"%")
		first := fmt.Sprintf(`(' ' || search) LIKE $%d DESC, `, len(args))
		out.Points, out.Total, err = db.pointsPage(ctx, where.String(), first, countSorted, args, q.Limit)
	} else {
		out.Points, out.Total, err = db.pointsPage(ctx, where.String(), "", countCapped, args, q.Limit)
	}
	if err != nil {
		return PointsFound{}, fmt.Errorf("search parcel points of %s: %w", q.Carrier, err)
	}
	if out.Points == nil {
		out.Points = []ParcelPoint{}
	}
	out.Total = max(out.Total, len(out.Points))
	if out.Total > PointsCountCap {
		out.Total, out.More = PointsCountCap, true
	}
	return out, nil
}

// pointColumns are ParcelPoint's columns.
const pointColumns = `id, carrier, code, name, street, city, zip, country, is_locker, location_id,
    max_length, max_width, max_height, max_weight`

// shortWords says whether every word is shorter than three letters: no
// trigram of the search's index narrows such a search, and most points
// match it.
func shortWords(words []string) bool {
	for _, w := range words {
		if utf8.RuneCountInString(w) >= 3 {
			return false
		}
	}
	return true
}

// pointCount is how a page of points counts the points that match.
type pointCount int

const (
	// noCount: the page alone.
	noCount pointCount = iota
	// countCapped: a count of its own beside the page, up to PointsCountCap
	// and one more; the page walks parcel_points_pick_idx in its order and
	// stops at its end.
	countCapped
	// countSorted: the matches the page sorts (it reads them all) are
	// counted in the same pass: the points are read once, not twice.
	countSorted
)

// pointsPage reads the first limit points where holds in the picker's order
// (first, then city, name, id) and, in the same statement, how many points
// match as count says: one round of the database, not two, which is what a
// picker answering each key press waits for. The page's ids come first (from
// parcel_points_pick_idx alone when it walks in order), then their points;
// total is 0 when the page is empty.
func (db *DB) pointsPage(ctx context.Context, where, first string, count pointCount, args []any, limit int) ([]ParcelPoint, int, error) {
	var rows []struct {
		ParcelPoint
		Total int `db:"total"`
	}
	total := `0`
	switch count {
	case countCapped:
		total = `(SELECT count(*) FROM (SELECT FROM parcel_points WHERE ` + where + ` LIMIT ` + strconv.Itoa(PointsCountCap+1) + `) AS capped)`
	case countSorted:
		total = `count(*) OVER ()`
	}
	order := ` ORDER BY ` + first + `city, name, id`
	err := sqlxSelect(ctx, db, &rows, `SELECT `+pointColumns+`, page.total
FROM parcel_points JOIN (SELECT id, `+total+` AS total FROM parcel_points WHERE `+where+order+` LIMIT `+strconv.Itoa(limit)+`) AS page USING (id)`+order, args...)
	if err != nil || len(rows) == 0 {
		return nil, 0, err
	}
	points := make([]ParcelPoint, len(rows))
	for i, r := range rows {
		points[i] = r.ParcelPoint
	}
	return points, rows[0].Total, nil
}

// pointsInTwoWalks finds the first limit points where holds in the picker's
// order, those with a word that starts with first before the others, without
// sorting every match: the first walk reads parcel_points_pick_idx in order
// for points with such a word and stops at limit; only when it finds fewer,
// a second walk reads on for the others.
func (db *DB) pointsInTwoWalks(ctx context.Context, where string, args []any, first string, limit int) ([]ParcelPoint, error) {
	args = append(slices.Clone(args), likeEscape(first)+"%", "% "+likeEscape(first)+"%")
	starts := fmt.Sprintf(`(search LIKE $%d OR search LIKE $%d)`, len(args)-1, len(args))
	walk := func(cond string, n int) ([]ParcelPoint, error) {
		points, _, err := db.pointsPage(ctx, where+` AND `+cond, "", noCount, args, n)
		return points, err
	}
	points, err := walk(starts, limit)
	if err != nil || len(points) == limit {
		return points, err
	}
	rest, err := walk(`NOT `+starts, limit-len(points))
	return append(points, rest...), err
}

// PointByCode finds a point of a carrier.
func (db *DB) PointByCode(ctx context.Context, carrier, code string) (ParcelPoint, error) {
	var p ParcelPoint
	err := sqlxGet(ctx, db, &p, `SELECT `+pointColumns+` FROM parcel_points WHERE carrier = $1 AND code = $2`, carrier, code)
	if err != nil {
		return p, fmt.Errorf("parcel point %s/%s: %w", carrier, code, notFound(err, "rec.no_point", code, carrier))
	}
	return p, nil
}

// likeEscape makes a user's text literal inside a LIKE pattern.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// PointCarriers lists the carriers that have points in the cache.
func (db *DB) PointCarriers(ctx context.Context) ([]string, error) {
	var out []string
	err := sqlxSelect(ctx, db, &out, `SELECT DISTINCT carrier FROM parcel_points ORDER BY carrier`)
	return out, wrapf(err, "carriers with points")
}

// FoldLetters are the letters Fold takes the accents off and what it makes
// of them, for the test that holds the stored search text alike.
func FoldLetters() (from, to string) { return foldFrom, foldTo }
