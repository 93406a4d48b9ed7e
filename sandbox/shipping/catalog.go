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
	numbered  bool     // point codes numbered through the carrier, not by town
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

// carrierSeeds are the carriers of the simulated service, named by the
// carriers' own codes as real clients send them (public-evidence.md). Each
// plays one of the spec's groups, and the group is the rule: label modes,
// label-free hand-over, COD multi-package rules (K1..K3).
//
//	G1 label-free at points           ZASILKOVNA (K3)
//	G2 five carriers, one of them     PPL (K2), DPD, WEDO, and GLS + GLS-SK:
//	   for two countries              one carrier for CZ and for SK
//	G3 two express carriers           UPS, FEDEX
//	G4 a pickup-point carrier         SPS
//	G5 a postal pickup-point carrier  BALIKOVNA (K1)
//	G6 a freight carrier              TOPTRANS
//	G7 a same-day courier             LIFTAGO
//
// numbered: the carrier numbers its points through ("PPL--1"); the others
// name them by town ("ZASILKOVNA-PRAHA-1"). Post and point networks serve
// home and next door, road carriers Europe, express carriers the world (one
// of them no longer to Russia and Belarus).
var carrierSeeds = []struct {
	code, name, group, cod string
	points, numbered       bool
	countries              []string
}{
	{"ZASILKOVNA", "Zásilkovna", "G1", "K3", true, false, []string{"CZ", "SK"}},
	{"PPL", "PPL", "G2", "K2", true, true, countriesWithin(europeOut)},
	{"DPD", "DPD", "G2", "", false, false, []string{"CZ", "SK", "PL", "HU"}},
	{"WEDO", "WE|DO", "G2", "", true, true, []string{"CZ"}},
	{"GLS", "GLS", "G2", "", false, false, []string{"CZ"}},
	{"GLS-SK", "GLS Slovakia", "G2", "", false, false, []string{"SK"}},
	{"UPS", "UPS", "G3", "", false, false, countriesWithin(overseas)},
	{"FEDEX", "FedEx", "G3", "", false, false, countriesExcept(overseas, "RU", "BY")},
	{"SPS", "SPS", "G4", "", true, false, []string{"CZ", "SK"}},
	{"BALIKOVNA", "Balíkovna", "G5", "K1", true, false, []string{"CZ"}},
	{"TOPTRANS", "TOPTRANS", "G6", "", false, false, countriesWithin(europeEU)},
	{"LIFTAGO", "Liftago", "G7", "", false, false, []string{"CZ"}},
}

// formerCodes are the neutral codes the sandbox once gave these carriers; a
// saved state that still names them is read with the real codes.
var formerCodes = map[string]string{
	"G1": "ZASILKOVNA", "G2A": "PPL", "G2B": "DPD", "G2C": "WEDO", "G2DCZ": "GLS", "G2DSK": "GLS-SK",
	"G3A": "UPS", "G3B": "FEDEX", "G4": "SPS", "G5": "BALIKOVNA", "G6": "TOPTRANS", "G7": "LIFTAGO",
}

// currentCode is a carrier code as the catalog has it now: upper case, a
// former neutral code replaced by the real one.
func currentCode(code string) string {
	code = strings.ToUpper(code)
	if now, ok := formerCodes[code]; ok {
		return now
	}
	return code
}

// generateCarriers builds the carriers and their services from the seed, so a
// sandbox with the same seed always offers the same prices and services.
func generateCarriers(seed int64) []*Carrier {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	var out []*Carrier
	for i, s := range carrierSeeds {
		c := &Carrier{Code: s.code, Name: s.name, Group: s.group, CODGroup: s.cod, Points: s.points, Countries: s.countries, numbered: s.numbered}
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

// groupRoles are the spec's carrier groups, as the carriers' description says them.
var groupRoles = map[string]string{
	"G1": "the carrier with label-free hand-over at its points", "G2": "five parcel carriers (GLS and GLS-SK are one carrier for two countries)",
	"G3": "two express carriers", "G4": "a pickup-point carrier", "G5": "a postal pickup-point carrier",
	"G6": "a freight carrier", "G7": "a same-day courier",
}

// CarrierRoles says which carrier plays which of the spec's groups, for the
// OpenAPI document: "G1, the carrier with …: ZASILKOVNA (Zásilkovna) [COD K3]; …".
func CarrierRoles() string {
	var parts []string
	for i := 0; i < len(carrierSeeds); {
		group := carrierSeeds[i].group
		var names []string
		for ; i < len(carrierSeeds) && carrierSeeds[i].group == group; i++ {
			s := carrierSeeds[i]
			name := s.code
			if s.name != s.code {
				name += " (" + s.name + ")"
			}
			if s.cod != "" {
				name += " [COD " + s.cod + "]"
			}
			names = append(names, name)
		}
		parts = append(parts, fmt.Sprintf("%s, %s: %s", group, groupRoles[group], strings.Join(names, ", ")))
	}
	return "Carriers are named by the carriers' own codes, matched without regard to case; each plays one of the spec's groups, whose rules (label modes, label-free, COD with several packages K1..K3) it follows. " +
		strings.Join(parts, "; ") + ". Point codes are in the carriers' style: numbered through the carrier (PPL--1, WEDO--1) or by town (ZASILKOVNA-PRAHA-1, SPS-BRATISLAVA-2, BALIKOVNA-CESKE-BUDEJOVICE-3)."
}

// CarrierCodes are the codes of the catalog's carriers, then the neutral codes
// they once had: what the dashboard must never name in its own code, since its
// carriers come from the service and the carrier table.
func CarrierCodes() []string {
	var out []string
	for _, s := range carrierSeeds {
		out = append(out, s.code)
	}
	for _, s := range carrierSeeds {
		for old, now := range formerCodes {
			if now == s.code {
				out = append(out, old)
			}
		}
	}
	return out
}
