package shipping

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"shipdesk/sandbox/apijson"
)

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// cart is a draft shipment of the cart API v2.
type cart struct {
	ID              int64                `json:"id"`
	Account         int                  `json:"account"`
	Source          string               `json:"source"`
	ReferenceNumber string               `json:"referenceNumber"`
	From            address              `json:"from"`
	To              address              `json:"to"`
	Packages        []pkgReq             `json:"packages"`
	ServiceID       int                  `json:"serviceId"`
	PickupBranch    string               `json:"pickupBranch,omitempty"`
	Warnings        []apijson.FieldError `json:"errors"`
	Defaults        []string             `json:"defaults"`
	Modified        time.Time            `json:"modified"`
}

type cartReq struct {
	From            *address     `json:"from"`
	To              *address     `json:"to"`
	Packages        []pkgReq     `json:"packages"`
	ServiceID       int          `json:"serviceId"`
	PickupBranch    *json.Number `json:"pickupBranch"`
	ReferenceNumber string       `json:"referenceNumber"`
}

// defaultPackage is the account's default package (cart defaults).
var defaultPackage = pkgReq{Weight: 1, Width: 20, Height: 10, Length: 30}

func (s *Service) cartCreate(w http.ResponseWriter, r *http.Request) {
	acct := s.accountOf(r)
	if acct == nil {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	var req cartReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	p := &problems{}
	if req.To == nil {
		p.add("to", msgRecipientRequired)
	} else {
		if strings.TrimSpace(req.To.Firstname+req.To.Surname+req.To.Company) == "" {
			p.add("to.surname", msgRecipientName)
		}
		if req.To.Country != "" && !slices.Contains(recipientCountries, req.To.Country) {
			p.add("to.country", msgCountryNotServed, req.To.Country, strings.Join(recipientCountries, ", "))
		}
		if req.To.Zip != "" && !validZip(req.To.Country, req.To.Zip) {
			p.add("to.zip", msgZipInvalid, clip(req.To.Zip), zipExample(req.To.Country))
		}
	}
	if len(req.ReferenceNumber) > 64 {
		p.add("referenceNumber", msgReferenceLong)
	}
	if req.ServiceID != 0 && s.serviceByID[req.ServiceID] == nil {
		p.add("serviceId", msgServiceUnknown, req.ServiceID)
	}
	for i, k := range req.Packages {
		if k.Weight <= 0 || k.Weight > 1000 {
			p.add(fmt.Sprintf("packages[%d].weight", i), msgCartWeight)
		}
	}
	if len(p.list) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(p.list...))
		return
	}
	c := &cart{Account: acct.Index, Source: "API", ReferenceNumber: req.ReferenceNumber, To: *req.To, Packages: req.Packages, ServiceID: req.ServiceID, Defaults: []string{}}
	if req.From == nil {
		s.mu.Lock() // contacts/add changes the address book
		c.From = acct.defaultContact().address
		s.mu.Unlock()
		c.Defaults = append(c.Defaults, "from")
	} else {
		c.From = *req.From
	}
	if len(c.Packages) == 0 {
		c.Packages = []pkgReq{defaultPackage}
		c.Defaults = append(c.Defaults, "packages")
	}
	if c.ServiceID == 0 {
		c.ServiceID = s.cheapest(c)
		c.Defaults = append(c.Defaults, "serviceId")
	}
	if req.PickupBranch != nil {
		c.PickupBranch = req.PickupBranch.String()
		if c.PickupBranch == AnyBranch {
			c.PickupBranch = s.defaultPickupPoint(c.ServiceID)
			c.Defaults = append(c.Defaults, "pickupBranch")
		}
	}
	// Drafts may be incomplete: a person finishes them in the manager.
	if c.To.Country == "" {
		c.Warnings = append(c.Warnings, apijson.Err("to.country", msgWarnCountry))
	}
	if c.To.Street == "" || c.To.City == "" || c.To.Zip == "" {
		c.Warnings = append(c.Warnings, apijson.Err("to.street", msgWarnStreet))
	}
	if c.To.Phone == "" && c.To.Email == "" {
		c.Warnings = append(c.Warnings, apijson.Err("to.phone", msgWarnContact))
	}
	s.mu.Lock()
	s.nextCart++
	c.ID = s.nextCart
	c.Modified = s.clock.Now()
	s.carts[c.ID] = c
	s.mu.Unlock()
	apijson.WriteRaw(w, r, http.StatusCreated, cartView(c, apijson.LangOf(r)))
}

// cartView is the draft as answered: the draft's own fields at the top level
// (its "errors" are warnings, null when the draft is valid) plus status and
// message; rates are null because prices are computed in the background.
func cartView(c *cart, lang apijson.Lang) map[string]any {
	var warnings any
	if len(c.Warnings) > 0 {
		warnings = apijson.ErrorsIn(c.Warnings, lang)
	}
	return map[string]any{
		"status": http.StatusCreated, "message": msgDraftCreated.In(lang),
		"id": c.ID, "source": c.Source, "referenceNumber": c.ReferenceNumber,
		"errors": warnings, "rates": nil, "modified": apijson.Stamp(c.Modified),
		"from": c.From, "to": c.To, "packages": c.Packages, "serviceId": c.ServiceID, "pickupBranch": c.PickupBranch,
		"defaults": c.Defaults,
	}
}

// cheapest is the cheapest home-delivery service that serves the destination.
func (s *Service) cheapest(c *cart) int {
	best, bestPrice := 0, 0.0
	for _, car := range s.carriers {
		country := c.To.Country
		if country == "" {
			country = "CZ"
		}
		if !car.serves(country) || LabelMode(car.Group, FromPickupAddress) == "" {
			continue
		}
		for i := range car.Services {
			sv := &car.Services[i]
			if sv.ToPoint {
				continue
			}
			if p := s.priceCZK(sv, c.Packages, plan{}, country); best == 0 || p < bestPrice {
				best, bestPrice = sv.ID, p
			}
		}
	}
	return best
}

// defaultPickupPoint is the account's default point for the service's carrier.
func (s *Service) defaultPickupPoint(serviceID int) string {
	sv := s.serviceByID[serviceID]
	if sv == nil {
		return ""
	}
	for _, pt := range s.points {
		if pt.Carrier == sv.carrier.Code && pt.City == "Praha" {
			return pt.Code
		}
	}
	return ""
}
