package desk

import (
	"context"

	"shipdesk/apperr"
	"shipdesk/requestkey"
	"shipdesk/storage"
)

// Blank is a new form with the default sender and the COD settings filled in.
func (d *Desk) Blank(ctx context.Context) (Form, error) {
	f := Form{Key: requestkey.New(), Handover: HandoverOnDemand, Packages: []Package{{}}}
	f.To.Country = "CZ"
	senders, err := d.db.Senders(ctx)
	if err != nil {
		return f, err
	}
	if len(senders) > 0 {
		f.SenderID = senders[0].ID
	}
	return f, d.FillCOD(ctx, &f)
}

// FillCOD puts the shop's bank details into empty COD fields.
func (d *Desk) FillCOD(ctx context.Context, f *Form) error {
	s, err := d.db.Settings(ctx)
	if err != nil {
		return err
	}
	fillCOD(f, s)
	return nil
}

// fillCOD fills the form's empty bank details from the shop's settings.
func fillCOD(f *Form, s storage.ShippingSettings) {
	fill := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	fill(&f.CODCurrency, s.CODCurrency)
	fill(&f.BankAccount, s.BankAccount)
	fill(&f.BankCode, s.BankCode)
	fill(&f.BankCurrency, s.BankCurrency)
}

func (d *Desk) sender(ctx context.Context, f Form) (storage.Sender, error) {
	if f.SenderID == 0 {
		return storage.Sender{}, nil
	}
	s, err := d.db.SenderByID(ctx, f.SenderID)
	if apperr.Is(err, apperr.NotFound) {
		return s, invalid(apperr.Problems{"sender": apperr.Msg("ship.err.sender_gone")})
	}
	return s, err
}
