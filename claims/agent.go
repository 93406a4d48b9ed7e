package claims

import (
	"context"

	"shipdesk/apperr"
	"shipdesk/storage"
)

// Origin is what the returns desk shows of a commission that came from the
// claim page: the claim, the customer's replies and files, the return parcel.
type Origin struct {
	Claim    storage.CustomerClaim
	Replies  []storage.ClaimMessage
	Files    []storage.ClaimUpload
	Parcel   *storage.Shipment
	Purchase storage.Shipment
}

// OriginOf reads the claim a commission came from; ok false for one an
// agent typed in.
func (s *Service) OriginOf(ctx context.Context, commissionID int64) (o Origin, ok bool, err error) {
	c, err := s.db.ClaimOfCommission(ctx, commissionID)
	if apperr.Is(err, apperr.NotFound) {
		return o, false, nil
	}
	if err != nil {
		return o, false, err
	}
	o.Claim = c
	if o.Replies, err = s.db.ClaimMessages(ctx, c.ID); err != nil {
		return o, true, err
	}
	if o.Files, err = s.db.ClaimUploads(ctx, c.ID); err != nil {
		return o, true, err
	}
	if o.Purchase, err = s.db.ShipmentByID(ctx, c.ShipmentID); err != nil {
		return o, true, err
	}
	if c.ReturnShipmentID != nil {
		parcel, err := s.db.ShipmentByID(ctx, *c.ReturnShipmentID)
		if err != nil {
			return o, true, err
		}
		o.Parcel = &parcel
	}
	return o, true, nil
}
