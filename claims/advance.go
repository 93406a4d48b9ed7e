package claims

import (
	"context"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/workbench"
)

// dueBatch is how many claims one round of the pollers takes.
const dueBatch = 20

// recheck is how often a claim waiting for its parcel looks at it again;
// the parcel itself is polled by the shipment pollers.
const recheck = time.Minute

// Advance answers the asks for links (AnswerAsks) and takes each claim with
// a step due (the pollers call it): its commission, its return parcel, the
// mail with the code or the label, and the parcel's arrival at the shop. It
// returns how many claims it took.
func (s *Service) Advance(ctx context.Context) (int, error) {
	if _, err := s.AnswerAsks(ctx); err != nil && ctx.Err() == nil {
		s.log.Warn("claim link asks", "err", err)
	}
	due, err := s.db.ClaimsDue(ctx, s.now(), dueBatch)
	if err != nil {
		return 0, err
	}
	for _, c := range due {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		s.advance(ctx, c)
	}
	if err := s.db.PruneThrottleHits(ctx, s.now(), 24*time.Hour); err != nil {
		s.log.Warn("prune throttle hits", "err", err)
	}
	if err := s.db.PruneLinkAsks(ctx, s.now().Add(-LinkTTL)); err != nil {
		s.log.Warn("prune link asks", "err", err)
	}
	return len(due), nil
}

// advance takes a claim's due steps in order; a step that fails is kept
// with its reason and tried again later, the wait doubling up to an hour.
// A refused step is marked so (refused_at): the agents' queue lists it at
// once and the customer's page says the shop will be in touch.
func (s *Service) advance(ctx context.Context, c storage.CustomerClaim) {
	err := s.steps(ctx, &c)
	next := s.now().Add(recheck)
	var problem apperr.Text
	var refusedAt *time.Time
	if err != nil {
		var refused bool
		problem, refused = problemOf(err)
		if refused {
			at := s.now()
			refusedAt = &at
			s.log.Warn("claim step refused, an agent is told", "claim", c.ID, "err", err)
		} else {
			s.log.Warn("claim step failed, will try again", "claim", c.ID, "err", err)
		}
		wait := s.Retry << min(c.Tries, 6)
		next = s.now().Add(min(wait, time.Hour))
	}
	if werr := s.db.ClaimWait(ctx, c.ID, problem, refusedAt, next); werr != nil {
		s.log.Warn("claim wait", "claim", c.ID, "err", werr)
	}
}

func (s *Service) steps(ctx context.Context, c *storage.CustomerClaim) error {
	if c.CommissionID == nil {
		if err := s.createCommission(ctx, c); err != nil {
			return stepError{"commission", err}
		}
	}
	if c.Transport != storage.TransportCode {
		return nil
	}
	if c.ReturnShipmentID == nil {
		if err := s.orderParcel(ctx, c); err != nil {
			return stepError{"parcel", err}
		}
	}
	parcel, err := s.db.ShipmentByID(ctx, *c.ReturnShipmentID)
	if err != nil {
		return err
	}
	if !c.HandoverMailed {
		if err := s.mailHandover(ctx, c, parcel); err != nil {
			return stepError{"handover", err}
		}
	}
	if c.ArrivedAt == nil && parcel.Status == "DELIVERED" {
		if err := s.arrived(ctx, c, parcel); err != nil {
			return stepError{"arrival", err}
		}
	}
	return nil
}

// createCommission creates the claim's commission at the returns API
// exactly once (the workbench's protocol, keyed by the claim's request key),
// gives it the customer's files, and records a withdrawal's refund.
func (s *Service) createCommission(ctx context.Context, c *storage.CustomerClaim) error {
	files, err := s.db.ClaimUploads(ctx, c.ID)
	if err != nil {
		return err
	}
	var proof int64
	for _, f := range files {
		if f.Proof {
			proof = f.ID
		}
	}
	res, err := s.bench.CreateForCustomer(ctx, s.commissionForm(ctx, *c), proof)
	if res.Commission.ID == 0 {
		if err == nil {
			err = apperr.New(apperr.Internal, "claim.err.step_failed")
		}
		return err
	}
	// Kept locally (created, or waiting for the service's answer): the
	// returns desk's own protocol settles it from here.
	if err := s.db.ClaimCommission(ctx, c.ID, res.Commission.ID); err != nil {
		return err
	}
	c.CommissionID = &res.Commission.ID
	for _, f := range files {
		if err := s.db.AttachUpload(ctx, f.ID, res.Commission.ID); err != nil {
			return err
		}
	}
	if c.Kind == KindWithdrawal {
		sh, err := s.db.ShipmentByID(ctx, c.ShipmentID)
		if err != nil {
			return err
		}
		_, err = s.bench.RecordWithdrawal(ctx, res.Commission.ID, workbench.WithdrawalInput{Key: "claim-" + itoa(c.ID),
			Amount: c.RefundAmount, Account: c.RefundAccount, Received: c.CreatedAt.In(i18n.Prague).Format("2006-01-02"),
			Shipment: sh.Tracking(), Note: c.Description})
		if err != nil && !apperr.Is(err, apperr.Conflict) {
			return err
		}
	}
	return nil
}

// commissionForm is the claim as the returns desk's form takes it.
func (s *Service) commissionForm(ctx context.Context, c storage.CustomerClaim) workbench.Form {
	typ, fault := "warranty", c.Description
	if c.Kind == KindWithdrawal {
		typ = "withdrawal"
		reader := i18n.WithLang(ctx, i18n.Lang(c.Language))
		fault = strings.TrimSpace(i18n.T(reader, "claim.withdrawal_fault") + "\n" + c.Description)
	}
	cu := c.Customer
	purchase := s.deliveryDay(ctx, c)
	if day, items := s.purchaseFacts(ctx, c); day != "" {
		// From the shop: the day it was bought, and what, for the agent.
		purchase, fault = day, strings.TrimSpace(fault+"\n\n"+items)
	}
	return workbench.Form{Key: c.RequestKey, Type: typ, TypeID: c.TypeID, ModelID: c.ModelID, Fault: fault, Remedy: c.Remedy,
		Language: c.Language, TwoWay: c.Transport == storage.TransportCourier, Reference: "RC-W" + itoa(c.ID),
		Purchase: purchase,
		Customer: workbench.Customer{Name: cu.Name, Email: c.Email, Phone: cu.Phone, Street: cu.Street, City: cu.City, Zip: cu.Zip, Country: cu.Country}}
}

// orderParcel orders the return parcel from the customer to the shop,
// handed over at the chosen point with a code (the desk's protocol, keyed
// by the claim's return key: exactly once).
func (s *Service) orderParcel(ctx context.Context, c *storage.CustomerClaim) error {
	p := desk.ReturnParcel{Key: *c.ReturnKey, Reference: "RET-W" + itoa(c.ID), Carrier: c.PointCarrier, Point: c.PointCode,
		From: deskAddress(c.Customer, c.Email), Package: returnPackage}
	sh, err := s.ship.OrderReturn(ctx, p, 0)
	if sh.ID == 0 {
		if err == nil {
			err = apperr.New(apperr.Internal, "claim.err.step_failed")
		}
		return err
	}
	if err := s.db.ClaimReturnParcel(ctx, c.ID, sh.ID); err != nil {
		return err
	}
	c.ReturnShipmentID = &sh.ID
	return nil
}

// arrived: the return parcel reached the shop; the commission moves on to
// processing (a commission already further stays as it is), then the
// arrival is kept, so a move the service did not take is tried again.
func (s *Service) arrived(ctx context.Context, c *storage.CustomerClaim, parcel storage.Shipment) error {
	at := s.now()
	if parcel.DeliveredAt != nil {
		at = *parcel.DeliveredAt
	}
	if c.CommissionID != nil {
		if _, err := s.bench.Move(ctx, *c.CommissionID, "processing", workbench.Resolution{}, 0); err != nil && !apperr.Is(err, apperr.Conflict) {
			return err
		}
	}
	if _, err := s.db.ClaimArrived(ctx, c.ID, at); err != nil {
		return err
	}
	c.ArrivedAt = &at
	return nil
}
