package shipping

import (
	"net/http"
	"strconv"

	"shipdesk/sandbox/apijson"
)

// Register adds the shipping API v1 and cart API v2 routes.
func (s *Service) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/v1/rates/get", s.rates)
	mux.HandleFunc("POST /api/v1/shipments/create", s.create)
	mux.HandleFunc("POST /api/v1/shipments/validate", s.validate)
	mux.HandleFunc("POST /api/v1/shipments/detail", s.detail)
	mux.HandleFunc("GET /api/v1/shipments/list", s.list)
	mux.HandleFunc("POST /api/v1/shipments/tracking", s.tracking)
	mux.HandleFunc("POST /api/v1/shipments/label", s.label)
	mux.HandleFunc("POST /api/v1/shipments/storno", s.storno)
	mux.HandleFunc("POST /api/v1/shipments/manifest", s.manifest)
	mux.HandleFunc("GET /api/v1/parcelpoints/list", s.parcelPoints)
	mux.HandleFunc("GET /api/v1/contacts/list", s.contactsList)
	mux.HandleFunc("POST /api/v1/contacts/add", s.contactsAdd)
	mux.HandleFunc("GET /api/v1/pickups/list", s.pickupsList)
	mux.HandleFunc("POST /api/v1/pickups/add", s.pickupsAdd)
	mux.HandleFunc("POST /api/v2/public/cart/create", s.cartCreate)
}

var errUnauthorized = apijson.Fail(http.StatusUnauthorized, msgUnauthorized)

// numbers decodes {shipments: [...]} with its limits.
func (s *Service) numbers(w http.ResponseWriter, r *http.Request, max int) (numbersReq, bool) {
	var req numbersReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, r, p)
		return req, false
	}
	switch {
	case len(req.Shipments) == 0:
		apijson.WriteProblem(w, r, apijson.Invalid(apijson.Err("shipments", msgNumbersRequired)))
		return req, false
	case len(req.Shipments) > max:
		apijson.WriteProblem(w, r, apijson.Invalid(apijson.Err("shipments", msgNumbersMax, max)))
		return req, false
	}
	return req, true
}

// MaxBatch is the most tracking numbers one detail, tracking, label, storno or
// manifest request may name.
const MaxBatch = 100

func (s *Service) detail(w http.ResponseWriter, r *http.Request) {
	req, ok := s.numbers(w, r, MaxBatch)
	if !ok {
		return
	}
	acct := s.accountOf(r)
	withTracking := flag(r.URL.Query(), "tracking")
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	out := map[string]any{}
	for _, tn := range req.Shipments {
		if sh := s.shipments[tn]; sh != nil {
			out[tn] = s.view(sh, acct, req.Tokens, now, withTracking, apijson.DataLangOf(r))
		}
	}
	if len(out) == 0 {
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusNotFound, msgNoShipment))
		return
	}
	apijson.Write(w, r, http.StatusOK, msgFoundShipments.With(len(out)), out)
}

func flag(q map[string][]string, name string) bool {
	v, ok := q[name]
	if !ok {
		return false
	}
	return len(v) == 0 || (v[0] != "0" && v[0] != "false")
}

func (s *Service) tracking(w http.ResponseWriter, r *http.Request) {
	req, ok := s.numbers(w, r, MaxBatch)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	out := map[string]any{}
	for _, tn := range req.Shipments {
		if sh := s.shipments[tn]; sh != nil {
			out[tn] = s.trackingOf(sh, now, apijson.DataLangOf(r))
		}
	}
	apijson.Write(w, r, http.StatusOK, msgFoundOf.With(len(out), len(req.Shipments)), out)
}

func intParam(p *problems, v, name string, def, lo, hi int) int {
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		p.add(name, msgWholeNumber, lo, hi)
		return def
	}
	return n
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
