package shipping

import (
	"hash/fnv"
	"time"

	"shipdesk/sandbox/apijson"
)

// step is one scheduled tracking event, at an offset after export.
type step struct {
	after    time.Duration
	status   string
	name     apijson.Phrase
	location string // "from", "depot", "to" or ""
}

// journey is the ordinary path of a package after export: an event every few
// minutes of simulated time, delivered within the hour.
var journey = []step{
	{0, "EXPORTED", evDataReceived, ""},
	{5 * time.Minute, "ONPICKUP", evWaitingPickup, ""},
	{pickupAfter, "INTRANSIT", evPickedUp, "from"},
	{25 * time.Minute, "INTRANSIT", evAtDepot, "depot"},
	{35 * time.Minute, "INTRANSIT", evLeftDepot, "depot"},
	{45 * time.Minute, "ONDELIVERY", evOnDelivery, "to"},
	{55 * time.Minute, "DELIVERED", evDelivered, "to"},
}

// pickupAfter is when the courier takes a labelled parcel, after export.
// A parcel whose label nobody has fetched yet waits at ONPICKUP: a courier
// takes no unlabelled parcel (see pickup).
const pickupAfter = 15 * time.Minute

// returnJourney replaces delivery for shipments that go back to the sender.
var returnJourney = append(append([]step{}, journey[:6]...),
	step{55 * time.Minute, "ONDELIVERY", evNotReached, "to"},
	step{65 * time.Minute, "INTRANSIT", evReturning, "depot"},
	step{85 * time.Minute, "DELIVERED", evReturned, "from"},
)

// returnedAfter is when a returning shipment's returned flag turns true.
const returnedAfter = 65 * time.Minute

// exportDelay is how long after payment (or creation, for CREDIT) the carrier
// confirms the data: "export normally happens within minutes of payment".
const exportDelay = time.Minute

// packageLag makes later packages of a shipment move a little after the first,
// so package statuses differ from the shipment's for a while.
const packageLag = 2 * time.Minute

var statusRank = map[string]int{"CREATED": 0, "EXPORTED": 1, "ONPICKUP": 2, "INTRANSIT": 3, "ONDELIVERY": 4, "DELIVERED": 5, "CANCELLED": 6}

// exportAt is when the shipment is exported; zero while its order is unpaid.
func (s *Service) exportAt(sh *shipment) time.Time {
	o := s.orders[sh.OrderID]
	if o.Payment == payOnline {
		if o.PaidAt == nil {
			return time.Time{}
		}
		return o.PaidAt.Add(exportDelay)
	}
	return sh.Created.Add(exportDelay)
}

// exported reports whether the shipment has been exported at now.
func (s *Service) exported(sh *shipment, now time.Time) bool {
	e := s.exportAt(sh)
	if e.IsZero() || now.Before(e) {
		return false
	}
	return sh.Cancelled == nil || sh.Cancelled.After(e)
}

// event is a tracking event as answered: its name and place are said in the
// answer's language (in).
type event struct {
	Date     string `json:"date"`
	Time     string `json:"time"`
	Name     string `json:"name"`
	Status   string `json:"status"`
	Location string `json:"location,omitempty"`

	name  apijson.Phrase
	place apijson.Text
}

// in is the event as answered in lang.
func (e event) in(lang apijson.Lang) event {
	e.Name = e.name.In(lang)
	if !e.place.IsZero() {
		e.Location = e.place.In(lang)
	}
	return e
}

// packageEvents are the events of package i at now, newest first.
func (s *Service) packageEvents(sh *shipment, i int, now time.Time) []event {
	out := []event{}
	e := s.exportAt(sh)
	if e.IsZero() {
		return []event{}
	}
	path := journey
	if sh.Returned {
		path = returnJourney
	}
	stop := now
	if sh.Cancelled != nil && sh.Cancelled.Before(stop) {
		stop = *sh.Cancelled
	}
	late, held := s.pickup(sh, e, now)
	for _, st := range path {
		at := e.Add(st.after)
		if st.after > 0 {
			at = at.Add(time.Duration(i) * packageLag) // export is one event for the whole shipment
		}
		if st.after >= pickupAfter {
			if held {
				break
			}
			at = at.Add(late)
		}
		if at.After(stop) {
			break
		}
		out = append(out, s.makeEvent(sh, at, st))
	}
	if sh.Cancelled != nil && !sh.Cancelled.After(now) {
		c := *sh.Cancelled
		out = append(out, event{Date: apijson.Day(c), Time: apijson.Clock(c), name: evCancelled, Status: "CANCELLED"})
	}
	for l, r := 0, len(out)-1; l < r; l, r = l+1, r-1 {
		out[l], out[r] = out[r], out[l]
	}
	return out
}

func (s *Service) makeEvent(sh *shipment, at time.Time, st step) event {
	ev := event{Date: apijson.Day(at), Time: apijson.Clock(at), name: st.name, Status: st.status}
	switch st.location {
	case "from":
		ev.Location = sh.From.City
	case "to":
		ev.Location = sh.Req.To.City
		if p := s.pointByID[sh.DeliveryPoint]; p != nil {
			ev.Location = p.City
		}
	case "depot":
		ev.place = evDepot.With(depots[hash(sh.TrackingNumber)%uint32(len(depots))])
	}
	return ev
}

var depots = []string{"Praha-Chrášťany", "Brno-Modřice", "Ostrava-Hrabová", "Plzeň-Bory", "Bratislava-Senec"}

// packageStatus is the status of package i at now.
func (s *Service) packageStatus(sh *shipment, i int, now time.Time) string {
	if sh.Cancelled != nil && !sh.Cancelled.After(now) {
		return "CANCELLED"
	}
	evs := s.packageEvents(sh, i, now)
	if len(evs) == 0 {
		return "CREATED"
	}
	return evs[0].Status
}

// status is the shipment's status: that of its least advanced package.
func (s *Service) status(sh *shipment, now time.Time) string {
	least := ""
	for i := range sh.Packages {
		st := s.packageStatus(sh, i, now)
		if least == "" || statusRank[st] < statusRank[least] {
			least = st
		}
	}
	return least
}

// pickup says how much later than scheduled the courier takes the parcel
// (exported at e), or that it still waits for its label (held) at now. The
// first fetch of the label (labels endpoint) releases it: a label fetched
// after the scheduled pickup moves the pickup, and everything after it, to
// that moment. A label-free parcel goes with its hand-over code and a
// courier who brings the label needs none: those are never held.
func (s *Service) pickup(sh *shipment, e, now time.Time) (late time.Duration, held bool) {
	if mode := s.labelMode(sh, now); mode == "CODE" || mode == "CARRIER" {
		return 0, false
	}
	if sh.LabelFetched == nil || sh.LabelFetched.After(now) {
		return 0, true
	}
	if due := e.Add(pickupAfter); sh.LabelFetched.After(due) {
		return sh.LabelFetched.Sub(due), false
	}
	return 0, false
}

// returnedAt reports the tracking flag returned.
func (s *Service) returnedAt(sh *shipment, now time.Time) bool {
	e := s.exportAt(sh)
	if !sh.Returned || e.IsZero() || sh.Cancelled != nil {
		return false
	}
	late, held := s.pickup(sh, e, now)
	return !held && !now.Before(e.Add(returnedAfter+late))
}

// labelMode is the current label mode: a refused label-free export becomes an
// ordinary printed label at export (the spec's fallback).
func (s *Service) labelMode(sh *shipment, now time.Time) string {
	if sh.LabelMode == "CODE" && sh.RefuseCode && s.exported(sh, now) {
		return "PRINT"
	}
	return sh.LabelMode
}

// labelLess is the owner-only label_less indicator.
func (s *Service) labelLess(sh *shipment, now time.Time) bool {
	return s.labelMode(sh, now) == "CODE"
}

// labelStatus follows the spec: NOT_APPLICABLE for CARRIER, PENDING until
// export, then READY, or FAILED when the carrier gave no label.
func (s *Service) labelStatus(sh *shipment, now time.Time) string {
	switch {
	case sh.LabelMode == "CARRIER":
		return "NOT_APPLICABLE"
	case !s.exported(sh, now):
		return "PENDING"
	case sh.FailLabel:
		return "FAILED"
	}
	return "READY"
}

// password is the package's hand-over code: assigned at export for label-free
// shipments and by the pickup-point carriers; empty otherwise.
func (s *Service) password(sh *shipment, i int, now time.Time) string {
	if !s.exported(sh, now) || sh.FailLabel {
		return ""
	}
	mode := s.labelMode(sh, now)
	group := s.carrier(sh.Carrier).Group
	if mode == "CODE" || (sh.Handover == AtPoint && (group == "G4" || group == "G5")) {
		return code6(sh.Packages[i].Number)
	}
	return ""
}

// code6 derives a six-character code without look-alike characters.
func code6(seed string) string {
	const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	h := hash(seed + "#password")
	b := make([]byte, 6)
	for i := range b {
		b[i] = alphabet[h%uint32(len(alphabet))]
		h = h*2654435761 + uint32(i) + 7
	}
	return string(b)
}

func hash(s string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(s))
	return h.Sum32()
}
