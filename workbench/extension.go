package workbench

import (
	"context"
	"time"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/textin"
)

// Extension is a longer time to settle a claim, agreed with the customer:
// the new last day and the day it was agreed, as typed.
type Extension struct {
	To, AgreedOn string
}

// ExtendDeadline records an extension agreed with the customer and issues the
// intake confirmation again, in a new version that shows it. The new day
// must come after the current deadline, and the agreement cannot be dated
// in the future (on the one clock) or before the claim.
func (w *Workbench) ExtendDeadline(ctx context.Context, id int64, e Extension, by int64) (storage.Document, error) {
	err := w.db.InTx(ctx, func(tx *storage.DB) error {
		c, err := tx.LockCommission(ctx, id)
		if err != nil {
			return err
		}
		if !Claim(c) || c.DeadlineAt == nil {
			return apperr.New(apperr.Conflict, "conf.err.no_deadline")
		}
		to, agreed, p := e.check(ctx, *c.DeadlineAt, lodgedAt(c), w.now())
		if len(p) > 0 {
			return apperr.Fields("conf.ext.err.form", p)
		}
		// The whole last day is the customer's, in the shop's zone.
		end := time.Date(to.Year(), to.Month(), to.Day(), 23, 59, 59, 0, i18n.ZoneOf(ctx))
		return tx.ExtendDeadline(ctx, id, end, agreed)
	})
	if err != nil {
		return storage.Document{}, err
	}
	return w.IssueIntake(ctx, id, by)
}

// check reads the two days and says what is wrong with them, as problems of
// the form's fields (extended_to, agreed_on).
func (e Extension) check(ctx context.Context, deadline, claimed, now time.Time) (to, agreed time.Time, p apperr.Problems) {
	p = apperr.Problems{}
	day := func(field, typed string) time.Time {
		s, problem := textin.Line(typed, 20)
		switch {
		case textin.IsUnreadable(problem):
			p[field] = apperr.Msg("conf.ext.err.unreadable")
		case !problem.IsZero(), s == "":
			p[field] = apperr.Msg("conf.ext.err.date")
		default:
			d, problem := textin.Date(s)
			if problem.IsZero() {
				return d
			}
			p[field] = apperr.Msg("conf.ext.err.date")
		}
		return time.Time{}
	}
	to, agreed = day("extended_to", e.To), day("agreed_on", e.AgreedOn)
	if _, bad := p["extended_to"]; !bad && !to.After(dayOf(ctx, deadline)) {
		p["extended_to"] = apperr.Msg("conf.ext.err.not_later", i18n.Date(ctx, deadline))
	}
	if _, bad := p["agreed_on"]; !bad {
		switch {
		case agreed.After(dayOf(ctx, now)):
			p["agreed_on"] = apperr.Msg("conf.ext.err.future")
		case agreed.Before(dayOf(ctx, claimed)):
			p["agreed_on"] = apperr.Msg("conf.ext.err.before_claim", i18n.Date(ctx, claimed))
		}
	}
	return to, agreed, p
}
