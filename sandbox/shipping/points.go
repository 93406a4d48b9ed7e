package shipping

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Point is a pickup or delivery point of one carrier. Several carriers' points
// can share one location (one address, one location id).
type Point struct {
	ID         int64   `json:"id"`
	Code       string  `json:"code"` // unique within the carrier
	Name       string  `json:"name"`
	Street     string  `json:"street"`
	City       string  `json:"city"`
	Zip        string  `json:"zip"`
	Country    string  `json:"country"`
	Carrier    string  `json:"carrier"`
	IsLocker   bool    `json:"is_locker"`
	LocationID int64   `json:"pickup_branch_location_id"`
	Location   LatLng  `json:"location"`
	MaxLength  float64 `json:"max_length"` // centimetres
	MaxWidth   float64 `json:"max_width"`
	MaxHeight  float64 `json:"max_height"`
	MaxWeight  float64 `json:"max_weight"` // kilograms
}

// LatLng is a position.
type LatLng struct {
	Lat float64 `json:"lat"`
	Lng float64 `json:"lng"`
}

// fits reports whether a package of these sizes fits the point's limits; the
// sides are compared sorted, as a package can be turned.
func (p *Point) fits(length, width, height, weight float64) bool {
	if weight > p.MaxWeight {
		return false
	}
	got := []float64{length, width, height}
	lim := []float64{p.MaxLength, p.MaxWidth, p.MaxHeight}
	sort.Float64s(got)
	sort.Float64s(lim)
	for i := range got {
		if got[i] > lim[i] {
			return false
		}
	}
	return true
}

type town struct {
	name, zip, country string
	lat, lng           float64
	size               int // number of locations
}

// towns is where points are generated: Czech and Slovak towns with real postal
// code prefixes and positions.
var towns = []town{
	{"Praha", "110 00", "CZ", 50.08, 14.43, 60}, {"Brno", "602 00", "CZ", 49.19, 16.61, 36},
	{"Ostrava", "702 00", "CZ", 49.83, 18.28, 28}, {"Plzeň", "301 00", "CZ", 49.74, 13.37, 20},
	{"Liberec", "460 01", "CZ", 50.77, 15.05, 14}, {"Olomouc", "779 00", "CZ", 49.59, 17.25, 14},
	{"České Budějovice", "370 01", "CZ", 48.97, 14.47, 13}, {"Hradec Králové", "500 02", "CZ", 50.21, 15.83, 13},
	{"Ústí nad Labem", "400 01", "CZ", 50.66, 14.03, 12}, {"Pardubice", "530 02", "CZ", 50.04, 15.78, 12},
	{"Zlín", "760 01", "CZ", 49.22, 17.66, 10}, {"Havířov", "736 01", "CZ", 49.78, 18.43, 8},
	{"Kladno", "272 01", "CZ", 50.15, 14.10, 8}, {"Most", "434 01", "CZ", 50.50, 13.64, 7},
	{"Opava", "746 01", "CZ", 49.94, 17.90, 7}, {"Frýdek-Místek", "738 01", "CZ", 49.68, 18.35, 7},
	{"Karviná", "733 01", "CZ", 49.85, 18.54, 7}, {"Jihlava", "586 01", "CZ", 49.40, 15.59, 7},
	{"Teplice", "415 01", "CZ", 50.64, 13.82, 6}, {"Děčín", "405 02", "CZ", 50.77, 14.21, 6},
	{"Karlovy Vary", "360 01", "CZ", 50.23, 12.87, 6}, {"Chomutov", "430 01", "CZ", 50.46, 13.42, 6},
	{"Jablonec nad Nisou", "466 01", "CZ", 50.72, 15.17, 5}, {"Mladá Boleslav", "293 01", "CZ", 50.41, 14.90, 5},
	{"Prostějov", "796 01", "CZ", 49.47, 17.11, 5}, {"Přerov", "750 02", "CZ", 49.46, 17.45, 5},
	{"Česká Lípa", "470 01", "CZ", 50.69, 14.54, 4}, {"Třebíč", "674 01", "CZ", 49.21, 15.88, 4},
	{"Třinec", "739 61", "CZ", 49.68, 18.67, 4}, {"Tábor", "390 01", "CZ", 49.41, 14.68, 4},
	{"Znojmo", "669 02", "CZ", 48.86, 16.05, 4}, {"Příbram", "261 01", "CZ", 49.69, 14.01, 4},
	{"Cheb", "350 02", "CZ", 50.08, 12.37, 4}, {"Kolín", "280 02", "CZ", 50.03, 15.20, 4},
	{"Trutnov", "541 01", "CZ", 50.56, 15.91, 3}, {"Písek", "397 01", "CZ", 49.31, 14.15, 3},
	{"Kroměříž", "767 01", "CZ", 49.30, 17.39, 3}, {"Šumperk", "787 01", "CZ", 49.97, 16.97, 3},
	{"Vsetín", "755 01", "CZ", 49.34, 17.99, 3}, {"Uherské Hradiště", "686 01", "CZ", 49.07, 17.46, 3},
	{"Bratislava", "811 01", "SK", 48.15, 17.11, 36}, {"Košice", "040 01", "SK", 48.72, 21.26, 20},
	{"Prešov", "080 01", "SK", 49.00, 21.24, 10}, {"Žilina", "010 01", "SK", 49.22, 18.74, 10},
	{"Nitra", "949 01", "SK", 48.31, 18.09, 9}, {"Banská Bystrica", "974 01", "SK", 48.74, 19.15, 9},
	{"Trnava", "917 01", "SK", 48.38, 17.59, 8}, {"Trenčín", "911 01", "SK", 48.89, 18.04, 7},
	{"Martin", "036 01", "SK", 49.07, 18.92, 6}, {"Poprad", "058 01", "SK", 49.06, 20.30, 6},
}

var streets = []string{"Hlavní", "Nádražní", "Masarykova", "Školní", "Komenského", "Palackého", "Husova", "Zahradní", "Tyršova", "Sokolská", "Jiráskova", "Nerudova", "Lidická", "Okružní", "Polní"}
var venues = []string{"Trafika", "Potraviny", "Papírnictví", "Lékárna", "Čerpací stanice", "Květinářství", "Drogerie", "Knihkupectví", "Obchodní centrum", "Supermarket"}

// lockerSizes are the limits of a box, by size class (cm, cm, cm, kg).
var lockerSizes = [][4]float64{{61, 41, 8, 15}, {61, 41, 19, 15}, {61, 41, 38, 20}}

// pointCode is the next code of a carrier's point in a town, in the carrier's
// style: numbered through the carrier ("PPL--1") or by town
// ("ZASILKOVNA-PRAHA-1", "BALIKOVNA-CESKE-BUDEJOVICE-3"). counts keeps the
// numbers given so far, so codes are unique within the carrier and, generated
// in one order from the seed, the same for the same seed.
func pointCode(counts map[string]int, c *Carrier, town string) string {
	if c.numbered {
		counts[c.Code]++
		return fmt.Sprintf("%s--%d", c.Code, counts[c.Code])
	}
	place := strings.ToUpper(strings.Join(strings.FieldsFunc(fold(town), func(r rune) bool { return r == ' ' || r == '-' }), "-"))
	key := c.Code + "/" + place
	counts[key]++
	return fmt.Sprintf("%s-%s-%d", c.Code, place, counts[key])
}

// Points are the generated points in id order: the simulated shop's
// checkout offers them, so its orders name points that exist here.
func (s *Service) Points() []Point {
	out := make([]Point, len(s.points))
	for i, p := range s.points {
		out[i] = *p
	}
	return out
}

// generatePoints places locations in every town; each location is served by
// one or more point carriers, each with its own point and code there.
func generatePoints(seed int64, carriers []*Carrier) []*Point {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x901))
	var pointCarriers []*Carrier
	for _, c := range carriers {
		if c.Points {
			pointCarriers = append(pointCarriers, c)
		}
	}
	var out []*Point
	var locationID int64 = 10000
	codes := map[string]int{}
	for _, t := range towns {
		for i := 0; i < t.size*3; i++ {
			locationID++
			street := fmt.Sprintf("%s %d", streets[rng.IntN(len(streets))], 1+rng.IntN(180))
			venue := venues[rng.IntN(len(venues))]
			lat := t.lat + (rng.Float64()-0.5)*0.08
			lng := t.lng + (rng.Float64()-0.5)*0.12
			zip := t.zip[:len(t.zip)-1] + fmt.Sprint(rng.IntN(10))
			locker := rng.IntN(3) == 0
			served := 0
			for _, c := range pointCarriers {
				if !c.serves(t.country) || rng.IntN(3) != 0 && !(served == 0 && c == pointCarriers[len(pointCarriers)-1]) {
					continue
				}
				served++
				p := &Point{
					ID: int64(len(out) + 1), Code: pointCode(codes, c, t.name),
					Street: street, City: t.name, Zip: zip, Country: t.country, Carrier: c.Code,
					IsLocker: locker, LocationID: locationID, Location: LatLng{Lat: lat, Lng: lng},
					MaxLength: 120, MaxWidth: 60, MaxHeight: 60, MaxWeight: 20,
				}
				if locker {
					s := lockerSizes[rng.IntN(len(lockerSizes))]
					p.MaxLength, p.MaxWidth, p.MaxHeight, p.MaxWeight = s[0], s[1], s[2], s[3]
					p.Name = fmt.Sprintf("%s box %s, %s", c.Name, t.name, street)
				} else {
					p.Name = fmt.Sprintf("%s %s, %s", venue, t.name, street)
				}
				out = append(out, p)
			}
		}
	}
	return out
}
