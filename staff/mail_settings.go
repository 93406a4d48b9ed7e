package staff

import (
	"context"
	netmail "net/mail"
	"strings"

	"shipdesk/apperr"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/textin"
)

// maxEmail is the longest e-mail address kept.
const maxEmail = 200

// SetMail saves an account's e-mail address and whether it gets the daily
// attention summary by mail, which only a manager's account with an address
// may ask for. An address goes into mail headers, so it must be exactly one
// address: no name, no second address, no line break.
func (s *Service) SetMail(ctx context.Context, by Actor, userID int64, email string, daily bool) error {
	email, problem := textin.Line(email, maxEmail)
	p := apperr.Problems{}
	if !problem.IsZero() {
		p.Put("email", problem)
	} else if email != "" {
		if a, err := netmail.ParseAddress(email); err != nil || a.Address != email || !strings.Contains(email, ".") {
			p.Add("email", "users.mail.bad_address")
		}
	}
	if daily && email == "" && len(p) == 0 {
		p.Add("email", "users.mail.summary_needs_address")
	}
	if len(p) > 0 {
		return p.Err("users.fix")
	}
	return s.db.InTx(ctx, func(tx *storage.DB) error {
		u, err := tx.UserByID(ctx, userID)
		if err != nil {
			return err
		}
		if daily && u.Role != identity.Manager {
			return apperr.Fields("users.mail.summary_managers", apperr.Problems{"daily_summary": apperr.Msg("users.mail.summary_managers")})
		}
		if err := tx.SetUserMail(ctx, userID, email, daily); err != nil {
			return err
		}
		return tx.Audit(ctx, by.ID, by.Name, "mail settings changed", u.Username, nil, by.Address)
	})
}
