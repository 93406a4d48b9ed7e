package views

// TrackPage is a shipment's public tracking page: what its recipient may
// know of it, and nothing more.
type TrackPage struct {
	Shell          ClaimShell
	TrackingNumber string
	State          string // in the staff page's words (ShipmentState)
	StateCode      string // for the badge's colour only, never shown
	Returned       bool
	Expected       string // the day the service expects it delivered ("": not said)
	Events         []TrackEvent
	PointName      string // the parcel point it is delivered to ("": an address)
	PointAddress   string
	ClaimLink      string // the claim page, its purchase filled in
}

// TrackEvent is one event of the carrier, at the shop's zone's time.
type TrackEvent struct {
	At       string
	Name     string
	Location string
}

// ShopIdentityPage is the manager's settings of the shop as its customers
// know it.
type ShopIdentityPage struct {
	Form    Form
	Logo    bool
	LogoMsg string // a problem of the last logo sent
	MaxLogo int    // MB
}
