package shipping

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Handover is how the sender gives the package to the carrier; with the carrier
// group it decides the label mode (the spec's table).
type Handover int

const (
	FromAddress       Handover = iota // ONDEMAND: one-off pickup from an address
	FromPickupAddress                 // REGULAR or OCCASIONAL: a contract pickup address
	AtPoint                           // hand-over at a pickup point
)

// labelModes is the spec's table "Label mode by carrier group"; "" means the
// combination is not offered.
var labelModes = map[string][3]string{
	"G1": {"PRINT", "PRINT", "PRINT"},
	"G2": {"CARRIER", "PRINT", "PRINT"},
	"G3": {"PRINT", "PRINT", ""},
	"G4": {"", "PRINT", "PRINT"},
	"G5": {"", "", "PRINT_OR_CODE"},
	"G6": {"CARRIER", "PRINT", ""},
	"G7": {"CARRIER", "", ""},
}

// LabelMode is who supplies the label for a group and hand-over; "" when the
// carrier does not offer that hand-over.
func LabelMode(group string, h Handover) string { return labelModes[group][h] }

// Carrier is one carrier of the simulated service.
type Carrier struct {
	Code  string `json:"code"`
	Name  string `json:"name"`
	Group string `json:"group"` // G1 … G7
	// COD multi-package rule of the spec's limits: K1 single package only, K2
	// single package when a point is used, K3 single package for CZ→SK.
	CODGroup string `json:"cod_group,omitempty"`
	// Points: the carrier has pickup/delivery points (and assigns package passwords).
	Points    bool     `json:"points"`
	Countries []string `json:"countries"` // destination countries served
	Services  []Svc    `json:"services"`
}

// Svc is one transport service of a carrier.
type Svc struct {
	ID          int     `json:"service_id"`
	Name        string  `json:"name"`
	ToPoint     bool    `json:"delivery_branch_required"` // delivers only to a point
	MaxWeight   float64 `json:"max_weight"`               // kilograms
	MaxCOD      float64 `json:"max_cod_czk"`              // 0: no COD
	MaxInsured  float64 `json:"max_insured_czk"`          // largest insured value
	BasePrice   float64 `json:"base_price"`               // CZK without VAT
	PerKg       float64 `json:"per_kg"`
	TransitDays int     `json:"transit_days"`
	carrier     *Carrier
}

// AnyBranch as pickup_branch means hand-over at any branch of the carrier.
const AnyBranch = "1"

// carrierSeeds are the spec's neutral groups: G2 has five carriers, two of them
// one carrier for two countries; G3 two express carriers. Post and point
// networks serve home and next door, road carriers Europe, express carriers
// the world (one of them no longer to Russia and Belarus).
var carrierSeeds = []struct {
	code, name, group, cod string
	points                 bool
	countries              []string
}{
	{"G1", "G1 Parcel", "G1", "K3", true, []string{"CZ", "SK"}},
	{"G2A", "G2 Alpha", "G2", "K2", true, countriesWithin(europeOut)},
	{"G2B", "G2 Beta", "G2", "", false, []string{"CZ", "SK", "PL", "HU"}},
	{"G2C", "G2 Gamma", "G2", "", true, []string{"CZ"}},
	{"G2DCZ", "G2 Delta CZ", "G2", "", false, []string{"CZ"}},
	{"G2DSK", "G2 Delta SK", "G2", "", false, []string{"SK"}},
	{"G3A", "G3 Express One", "G3", "", false, countriesWithin(overseas)},
	{"G3B", "G3 Express Two", "G3", "", false, countriesExcept(overseas, "RU", "BY")},
	{"G4", "G4 Points", "G4", "", true, []string{"CZ", "SK"}},
	{"G5", "G5 Post", "G5", "K1", true, []string{"CZ"}},
	{"G6", "G6 Freight", "G6", "", false, countriesWithin(europeEU)},
	{"G7", "G7 Same Day", "G7", "", false, []string{"CZ"}},
}

// generateCarriers builds the carriers and their services from the seed, so a
// sandbox with the same seed always offers the same prices and services.
func generateCarriers(seed int64) []*Carrier {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	var out []*Carrier
	for i, s := range carrierSeeds {
		c := &Carrier{Code: s.code, Name: s.name, Group: s.group, CODGroup: s.cod, Points: s.points, Countries: s.countries}
		id := (i + 1) * 100
		add := func(name string, toPoint bool, maxKg, maxCOD, maxInsured, base float64, days int) {
			id++
			c.Services = append(c.Services, Svc{
				ID: id, Name: name, ToPoint: toPoint, MaxWeight: maxKg, MaxCOD: maxCOD, MaxInsured: maxInsured,
				BasePrice: base + float64(rng.IntN(30)), PerKg: 2 + float64(rng.IntN(6)),
				TransitDays: days, carrier: c,
			})
		}
		switch s.group {
		case "G3":
			add(s.name+" Express", false, 50, 100000, 200000, 180, 1)
		case "G6":
			add(s.name+" Pallet", false, 1000, 0, 500000, 900, 2)
		case "G7":
			add(s.name+" Courier", false, 30, 0, 30000, 250, 0)
		case "G5":
			add(s.name+" To Point", true, 20, 20000, 50000, 65, 2)
		default:
			add(s.name+" Home", false, 31.5, 50000, 100000, 95, 1)
			if s.points {
				add(s.name+" To Point", true, 15, 20000, 50000, 60, 2)
			}
		}
		for j := range c.Services {
			c.Services[j].carrier = c
		}
		out = append(out, c)
	}
	return out
}

// Carrier of a service.
func (s *Svc) Carrier() *Carrier { return s.carrier }

func (c *Carrier) String() string { return fmt.Sprintf("%s (%s)", c.Code, c.Group) }

func (c *Carrier) serves(country string) bool { return slices.Contains(c.Countries, country) }

// carrier finds a carrier by code without regard to case: clients send codes
// as they have them.
func (s *Service) carrier(code string) *Carrier { return s.carrierByCode[strings.ToUpper(code)] }
