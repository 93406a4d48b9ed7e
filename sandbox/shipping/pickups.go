package shipping

import (
	"fmt"
	"math"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"shipdesk/sandbox/apijson"
)

// Courier pickups (pickups/add, pickups/list): a courier comes to one of the
// account's stored addresses on a working day within a time window.

// Rules of a pickup request.
const (
	pickupEarliest  = 7 * 60  // 07:00, minutes after midnight
	pickupLatest    = 18 * 60 // 18:00
	pickupMinWindow = 120     // minutes
	pickupMaxAhead  = 30      // days
	pickupMaxPkgs   = 100
	pickupMaxWeight = 3000.0 // kilograms in total
	pickupMaxNote   = 255
)

var clockPattern = regexp.MustCompile(`^([01]\d|2[0-3]):[0-5]\d$`)

type pickupReq struct {
	AddressID int64   `json:"address_id"`
	Date      string  `json:"date"`
	TimeFrom  string  `json:"time_from"`
	TimeTo    string  `json:"time_to"`
	Packages  int     `json:"packages"`
	Weight    float64 `json:"weight"`
	Carrier   string  `json:"carrier,omitempty"`
	Note      string  `json:"note,omitempty"`
	// weightOptional: the list form may leave the total weight unstated (0).
	weightOptional bool
}

// pickup is a stored courier pickup; its JSON is also the answer's shape.
type pickup struct {
	ID        int64   `json:"id"`
	Number    string  `json:"number"`
	Account   int     `json:"-"`
	AddressID int64   `json:"address_id"`
	Address   contact `json:"address"`
	Date      string  `json:"date"`
	TimeFrom  string  `json:"time_from"`
	TimeTo    string  `json:"time_to"`
	TimeRange string  `json:"time_range"` // the window as the list form writes it
	Packages  int     `json:"packages"`
	Weight    float64 `json:"weight"`
	Carrier   string  `json:"carrier"`
	Note      string  `json:"note"`
	Status    string  `json:"status"`
	Created   string  `json:"created"`
}

// pickupStored is a pickup with its account, for the snapshot.
type pickupStored struct {
	pickup
	Account int `json:"account"`
}

// minutesOf reads "HH:MM" as minutes after midnight.
func minutesOf(hhmm string) (int, bool) {
	if !clockPattern.MatchString(hhmm) {
		return 0, false
	}
	h, _ := strconv.Atoi(hhmm[:2])
	m, _ := strconv.Atoi(hhmm[3:])
	return h*60 + m, true
}

// checkPickupWhen checks the date and the window against the simulated clock.
func checkPickupWhen(p *problems, req pickupReq, now time.Time) {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	d, err := time.ParseInLocation("2006-01-02", req.Date, now.Location())
	switch {
	case req.Date == "":
		p.add("date", msgPickupDateRequired)
	case !datePattern.MatchString(req.Date) || err != nil:
		p.add("date", msgPickupDateShape)
	case d.Before(today):
		p.add("date", msgPickupDatePast)
	case d.Weekday() == time.Saturday || d.Weekday() == time.Sunday:
		p.add("date", msgWeekend)
	case d.After(today.AddDate(0, 0, pickupMaxAhead)):
		p.add("date", msgPickupAheadDays, pickupMaxAhead)
	}
	from, okFrom := minutesOf(req.TimeFrom)
	to, okTo := minutesOf(req.TimeTo)
	if !okFrom {
		p.add("time_from", msgFromShape)
	}
	if !okTo {
		p.add("time_to", msgToShape)
	}
	if !okFrom || !okTo {
		return
	}
	switch {
	case from < pickupEarliest || from > pickupLatest:
		p.add("time_from", msgHours)
	case to > pickupLatest || to < pickupEarliest:
		p.add("time_to", msgHours)
	case from >= to:
		p.add("time_to", msgWindowOrder)
	case to-from < pickupMinWindow:
		p.add("time_to", msgWindowShort)
	case err == nil && d.Equal(today) && to-pickupMinWindow < now.Hour()*60+now.Minute():
		p.add("time_to", msgTooLate)
	}
}

// checkPickup collects what is wrong with a request and resolves its stored
// address and carrier. The caller holds s.mu.
func (s *Service) checkPickup(acct *account, req pickupReq, now time.Time) (*contact, *Carrier, []apijson.FieldError) {
	p := &problems{}
	var c *contact
	if req.AddressID <= 0 {
		p.add("address_id", msgAddressRequired)
	} else if c = acct.contact(req.AddressID); c == nil {
		p.add("address_id", msgAddressUnknown, req.AddressID)
	}
	checkPickupWhen(p, req, now)
	switch {
	case req.Packages < 1:
		p.add("packages", msgPackagesRequired)
	case req.Packages > pickupMaxPkgs:
		p.add("packages", msgPickupPackagesMax, pickupMaxPkgs)
	}
	switch {
	case req.weightOptional && req.Weight == 0:
	case math.IsNaN(req.Weight) || req.Weight <= 0:
		p.add("weight", msgTotalWeight)
	case req.Weight > pickupMaxWeight:
		p.add("weight", msgTotalWeightMax, pickupMaxWeight)
	}
	carrier := s.pickupCarrier(p, req.Carrier)
	if !utf8.ValidString(req.Note) || strings.ContainsRune(req.Note, 0) {
		p.add("note", msgNoteChars)
	} else if utf8.RuneCountInString(req.Note) > pickupMaxNote {
		p.add("note", msgNoteLong, pickupMaxNote)
	}
	return c, carrier, p.list
}

// pickupCarrier finds the optional carrier, matched without regard to case; it
// must be one that collects from a pickup address.
func (s *Service) pickupCarrier(p *problems, code string) *Carrier {
	if code == "" {
		return nil
	}
	if len(code) > 20 {
		p.add("carrier", msgCarrierLong)
		return nil
	}
	for _, c := range s.carriers {
		if !strings.EqualFold(c.Code, code) {
			continue
		}
		if LabelMode(c.Group, FromPickupAddress) == "" {
			p.add("carrier", msgNoAddressCollect, c.Code)
			return nil
		}
		return c
	}
	p.add("carrier", msgCarrierUnknown, clipText(code))
	return nil
}

func (s *Service) pickupsAdd(w http.ResponseWriter, r *http.Request) {
	acct := s.accountOf(r)
	if acct == nil {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	var body pickupsAddReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &body); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	if body.Pickups != nil {
		s.addListedPickups(w, r, acct, body.Pickups)
		return
	}
	req, field := body.one, func(f string) string { return f }
	if body.from != nil {
		req, field = body.from.request(), fromFormField
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	c, carrier, errs := s.checkPickup(acct, req, now)
	if len(errs) > 0 {
		for i := range errs {
			errs[i].Field = field(errs[i].Field)
		}
		apijson.WriteProblem(w, r, apijson.Invalid(errs...))
		return
	}
	pu := s.storePickup(acct, req, c, carrier, now)
	apijson.Write(w, r, http.StatusOK, msgPickupOrdered.With(pu.Number), pu)
}

// storePickup orders a checked pickup. The caller holds s.mu.
func (s *Service) storePickup(acct *account, req pickupReq, c *contact, carrier *Carrier, now time.Time) *pickup {
	s.book.nextPickup++
	pu := &pickup{ID: s.book.nextPickup, Number: fmt.Sprintf("PU%08d", s.book.nextPickup), Account: acct.Index,
		AddressID: c.ID, Address: *c, Date: req.Date, TimeFrom: req.TimeFrom, TimeTo: req.TimeTo, TimeRange: req.TimeFrom + "-" + req.TimeTo,
		Packages: req.Packages, Weight: req.Weight, Note: req.Note, Status: "ORDERED", Created: apijson.Stamp(now)}
	if carrier != nil {
		pu.Carrier = carrier.Code
	}
	s.book.pickups[pu.ID] = pu
	return pu
}

func (s *Service) pickupsList(w http.ResponseWriter, r *http.Request) {
	acct := s.accountOf(r)
	if acct == nil {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	q := r.URL.Query()
	from, to := q.Get("date_from"), q.Get("date_to")
	p := &problems{}
	for name, v := range map[string]string{"date_from": from, "date_to": to} {
		if _, err := time.Parse("2006-01-02", v); v != "" && (err != nil || !datePattern.MatchString(v)) {
			p.add(name, msgDateShape)
		}
	}
	if len(p.list) > 0 {
		sort.Slice(p.list, func(i, j int) bool { return p.list[i].Field < p.list[j].Field })
		apijson.WriteProblem(w, r, apijson.Invalid(p.list...))
		return
	}
	s.mu.Lock()
	byID := map[string]pickup{}
	for _, pu := range s.book.pickups {
		// ISO dates compare as strings.
		if pu.Account == acct.Index && (from == "" || pu.Date >= from) && (to == "" || pu.Date <= to) {
			byID[strconv.FormatInt(pu.ID, 10)] = *pu
		}
	}
	s.mu.Unlock()
	apijson.Write(w, r, http.StatusOK, msgFoundPickups.With(len(byID)), byID)
}
