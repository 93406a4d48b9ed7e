package returns

import (
	"net/http"
	"strings"

	"shipdesk/sandbox/apijson"
)

type activityReq struct {
	CommissionID int64  `json:"commission_id"`
	Type         string `json:"type"`
	Text         string `json:"text"`
}

func (s *Service) addActivity(w http.ResponseWriter, r *http.Request) {
	acct := s.account(r)
	if acct < 0 {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	var req activityReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	p := &problems{}
	if req.Type != "message" && req.Type != "note" {
		p.add("type", msgActivityType)
	}
	if strings.TrimSpace(req.Text) == "" || len(req.Text) > 5000 {
		p.add("text", msgTextRequired)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.commissions[req.CommissionID]
	if c == nil || c.Account != acct {
		p.add("commission_id", msgNotFound, req.CommissionID)
	}
	if len(p.list) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(p.list...))
		return
	}
	now := s.clock.Now()
	s.nextAct++
	a := activity{ID: s.nextAct, Type: req.Type, Public: req.Type == "message", Text: req.Text, Created: stamp(now)}
	c.Activities = append(c.Activities, a)
	c.Updated = stamp(now)
	apijson.Write(w, r, http.StatusCreated, msgActivityAdded.With(), a)
}
