package claims

import (
	"context"
	"strings"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/workbench"
)

// File keeps the claim a one-time link opened, with its files, and uses the
// link; then sets off what the claim needs upstream (its commission, its
// return parcel). It returns the status page's token. A second post of the
// same form finds the link used and returns the claim it made.
func (s *Service) File(ctx context.Context, token, client string, f Form) (string, error) {
	if err := s.throttled(ctx, "client", s.Limits.Client, client); err != nil {
		return "", err
	}
	open, err := s.link(ctx, s.db, token, client, false)
	if err != nil {
		return s.alreadyFiled(ctx, token, f.Key, err)
	}
	f.Customer.Email = open.Email // the desk's rules see the address the claim will carry
	p := f.Check()
	product, typeID, err := s.claimed(ctx, open.ShipmentID, &f, p)
	if err != nil {
		return "", err
	}
	if f.Transport == storage.TransportCode && p["point"].IsZero() {
		if err := s.checkPoint(ctx, &f); err != nil {
			p.Put("point", apperr.TextOf(err))
		}
	}
	if len(p) > 0 {
		return "", apperr.Fields("claim.err.see_fields", p)
	}
	files, done, err := s.keptFiles(ctx, f.Proof, f.Photos)
	if err != nil {
		return "", err
	}
	defer done()
	var filed storage.CustomerClaim
	var status string // the status page's key, for the redirect to it
	err = s.db.InTx(ctx, func(tx *storage.DB) error {
		link, err := s.link(ctx, tx, token, client, true)
		if err != nil {
			return err
		}
		sh, err := tx.ShipmentByID(ctx, link.ShipmentID)
		if err != nil {
			return err
		}
		c := storage.CustomerClaim{LinkID: link.ID, ShipmentID: sh.ID, RequestKey: f.Key, Kind: f.Kind,
			Remedy: f.Remedy, Description: f.Description, TypeID: typeID, ModelID: f.ModelID, Product: product,
			Transport: f.Transport, Customer: f.Customer, Email: link.Email, Language: string(i18n.LangOf(ctx)),
			DeliveredAt: sh.DeliveredAt, CreatedAt: s.now()}
		c.Customer.Email = link.Email
		if c.Customer.Country == "" {
			c.Customer.Country = "CZ"
		}
		if f.Kind == KindWithdrawal {
			c.Remedy, c.RefundAmount = "", f.RefundAmount
			c.RefundAccount, _ = workbench.CheckRefund(f.RefundAmount, f.RefundAccount)
			c.Late = sh.DeliveredAt != nil && c.CreatedAt.After(withdrawBy(*sh.DeliveredAt))
		}
		if f.Transport == storage.TransportCode {
			c.PointCarrier, c.PointCode, c.PointName = f.PointCarrier, f.PointCode, f.PointName
			key := requestkey.New()
			c.ReturnKey = &key
		}
		if filed, err = tx.FileClaim(ctx, c, files); err != nil {
			return err
		}
		if err := s.mailWithdrawal(ctx, tx, filed, sh); err != nil {
			return err
		}
		status, err = s.statusKey(ctx, tx, filed.ID)
		return err
	})
	if err != nil {
		return s.alreadyFiled(ctx, token, f.Key, err)
	}
	s.log.Info("claim filed", "claim", filed.ID, "kind", filed.Kind, "transport", filed.Transport)
	// What the claim sets off is tried at once; what fails waits for the pollers.
	s.advance(context.WithoutCancel(ctx), filed)
	return status, nil
}

// alreadyFiled: a form posted twice (the link is used by this very form)
// leads to the claim it made, by a key of its own (the first one's is kept
// as a hash only); anything else is err.
func (s *Service) alreadyFiled(ctx context.Context, token, key string, err error) (string, error) {
	if !apperr.Is(err, apperr.Conflict) || !tokenShape(token) {
		return "", err
	}
	link, lerr := s.db.ClaimLinkByToken(ctx, hashOf(token), false)
	if lerr != nil || link.UsedAt == nil {
		return "", err
	}
	c, cerr := s.db.ClaimOfLink(ctx, link.ID)
	if cerr != nil || c.RequestKey != key {
		return "", err
	}
	return s.statusKey(ctx, s.db, c.ID)
}

// product names a model of the returns desk's list with its type (0: no
// such model).
func (s *Service) product(ctx context.Context, modelID int64) (string, int64, error) {
	types, err := s.bench.Products(ctx)
	if err != nil {
		return "", 0, err
	}
	for _, t := range types {
		for _, m := range t.Models {
			if m.ID == modelID {
				return t.Name + " · " + m.Name, t.ID, nil
			}
		}
	}
	return "", 0, nil
}

// checkPoint: the point is one the parcel may be handed over at with a code;
// its name is kept as the service's list has it, not as posted.
func (s *Service) checkPoint(ctx context.Context, f *Form) error {
	if !s.takesCode(ctx, f.PointCarrier) {
		return apperr.New(apperr.Invalid, "claim.err.point")
	}
	pt, err := s.db.PointByCode(ctx, f.PointCarrier, f.PointCode)
	if err != nil {
		return apperr.New(apperr.Invalid, "claim.err.point")
	}
	parts := []string{pt.Name}
	for _, p := range []string{pt.Street, pt.City} { // names often carry the street already
		if p != "" && !strings.Contains(strings.Join(parts, ", "), p) {
			parts = append(parts, p)
		}
	}
	f.PointName = strings.Join(parts, ", ")
	return nil
}
