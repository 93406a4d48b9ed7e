// Package countries is the dashboard's own list of the countries the shop
// ships to, and which of them lie outside the EU customs territory, so that a
// shipment there carries customs data. The form, the address book, the
// managers' rules and the batch import all read it here; the names people
// read are the catalog's (NameKey).
package countries

import (
	"slices"
	"strings"
)

// Home is where the shop sends from.
const Home = "CZ"

// Senders are where the shop sends from: the service takes senders and
// stored pickup addresses in these two countries only.
var Senders = []string{"CZ", "SK"}

// Served are the destinations the service's carriers deliver to: home and
// Slovakia first, then Europe, then a few countries beyond it. Which carrier
// goes where, its offers say.
var Served = []string{
	"CZ", "SK",
	// The EU customs territory (Monaco belongs to it through France).
	"AT", "BE", "BG", "CY", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT",
	"LT", "LU", "LV", "MC", "MT", "NL", "PL", "PT", "RO", "SE", "SI",
	// Europe outside it.
	"AL", "BA", "BY", "CH", "GB", "IS", "LI", "MD", "ME", "MK", "NO", "RS", "RU", "TR", "UA",
	// Beyond Europe.
	"AE", "AU", "CA", "CN", "HK", "JP", "US",
}

// outsideCustomsUnion are the served countries a shipment reaches only
// through customs.
var outsideCustomsUnion = []string{
	"AL", "BA", "BY", "CH", "GB", "IS", "LI", "MD", "ME", "MK", "NO", "RS", "RU", "TR", "UA",
	"AE", "AU", "CA", "CN", "HK", "JP", "US",
}

// IsServed: the shop ships there.
func IsServed(code string) bool { return slices.Contains(Served, code) }

// NeedsCustoms: a shipment from home to the country leaves the EU customs
// territory, so it carries customs data.
func NeedsCustoms(code string) bool { return slices.Contains(outsideCustomsUnion, code) }

// NameKey is the catalog key of the country's name ("ship.country.ch").
func NameKey(code string) string { return "ship.country." + strings.ToLower(code) }
