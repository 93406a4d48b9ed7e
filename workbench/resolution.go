package workbench

import (
	"context"
	"slices"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/returns"
	"shipdesk/i18n"
	"shipdesk/textin"
)

// Resolutions are the ways a claim ends, in the order the desk offers them.
var Resolutions = []string{"repaired", "replaced", "refunded", "rejected"}

// Settling are the moves that end a claim: each needs its resolution.
var Settling = []string{"outgoing", "closed"}

// MaxReason is the longest reason of a resolution, in characters.
const MaxReason = 1000

// Resolution is how the agent settles a claim: the code, and the reason
// (required when the claim is rejected).
type Resolution struct {
	Code, Reason string
}

// Check says what is wrong with a resolution given with a move to to, as
// problems of the move form's fields (resolution, reason), in the request's
// language. A move that settles nothing takes no resolution.
func (r *Resolution) Check(ctx context.Context, to string) apperr.Problems {
	if !slices.Contains(Settling, to) {
		*r = Resolution{}
		return nil
	}
	p := apperr.Problems{}
	reason, problem := textin.Lines(r.Reason, MaxReason)
	r.Reason = reason
	switch {
	case textin.IsUnreadable(problem):
		p["reason"] = apperr.Msg("ret.res.err.unreadable")
	case !problem.IsZero():
		p["reason"] = apperr.Msg("ret.res.err.long", MaxReason)
	}
	switch {
	case r.Code == "":
		p["resolution"] = apperr.Msg("ret.res.err.required")
	case !slices.Contains(Resolutions, r.Code):
		p["resolution"] = apperr.Msg("ret.res.err.unknown")
	case r.Code == "rejected" && r.Reason == "" && p["reason"].IsZero():
		p["reason"] = apperr.Msg("ret.res.err.reason")
	}
	return p
}

// Settled says whether a commission's status ends its claim: sent back,
// closed or cancelled, its period no longer runs.
func Settled(status string) bool {
	return slices.Contains(Settling, status) || status == "cancelled"
}

// serviceLayout is how the returns service writes a moment, in its own
// (Czech) time.
const serviceLayout = "2006-01-02 15:04:05"

// lodged is when the service took the commission, on its clock (nil when it
// does not say in a form we read).
func lodged(c *returns.Commission) *time.Time {
	t, err := time.ParseInLocation(serviceLayout, c.Created, i18n.Prague)
	if err != nil {
		return nil
	}
	return &t
}
