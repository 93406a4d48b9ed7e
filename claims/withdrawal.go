package claims

import (
	"context"
	"time"

	"shipdesk/apperr"
	"shipdesk/cod"
	"shipdesk/i18n"
	mailbox "shipdesk/mail"
	"shipdesk/storage"
	"shipdesk/workbench"
)

// Refund is what a withdrawal owes its customer, as the status page and the
// acknowledgement say it.
type Refund struct {
	Amount   float64
	Currency string
	Account  string
	Due      time.Time  // the day it is paid by
	Paid     *time.Time // when a manager marked it paid
}

// refundOf is a withdrawal's refund as the returns desk recorded it, else
// as the claim was filed, by the same rules (due WithdrawalDays after it
// came); nil for a claim of a defect.
func (s *Service) refundOf(ctx context.Context, c storage.CustomerClaim) (*Refund, error) {
	if c.Kind != KindWithdrawal {
		return nil, nil
	}
	if c.CommissionID != nil {
		wd, found, err := s.bench.WithdrawalOf(ctx, *c.CommissionID)
		if err != nil {
			return nil, err
		}
		if found {
			return &Refund{Amount: wd.Amount, Currency: wd.Currency, Account: wd.Account, Due: wd.DueAt, Paid: wd.PaidAt}, nil
		}
	}
	amount, _ := workbench.RefundAmount(c.RefundAmount) // checked when filed
	return &Refund{Amount: amount, Currency: workbench.RefundCurrencies[0], Account: c.RefundAccount,
		Due: workbench.RefundDue(c.CreatedAt)}, nil
}

// mailWithdrawal records, on tx (the transaction that keeps the claim), the
// acknowledgement of a withdrawal filed on the page: a shop that lets its
// customers withdraw through a form online confirms receipt at once on a
// durable medium (Directive 2011/83/EU, art. 11(3)). It says what was
// withdrawn, the refund and the day it is due, with the status page's link.
func (s *Service) mailWithdrawal(ctx context.Context, tx *storage.DB, c storage.CustomerClaim, purchase storage.Shipment) error {
	refund, err := s.refundOf(ctx, c)
	if err != nil || refund == nil {
		return err
	}
	token, err := s.statusKey(ctx, tx, c.ID)
	if err != nil {
		return err
	}
	rctx := reader(ctx, c)
	text := i18n.T(rctx, "claimans.wd.mail_text", i18n.Date(rctx, c.CreatedAt), purchase.Reference, c.Product,
		i18n.Money(rctx, refund.Amount, refund.Currency), cod.FormatAccount(refund.Account), i18n.Date(rctx, refund.Due),
		s.StatusURL(token))
	m := mailbox.Message{EventKey: "claim-withdrawal:" + itoa(c.ID), To: c.Email, ToName: c.Customer.Name, Lang: c.Language,
		Subject: i18n.T(rctx, "claimans.wd.mail_subject", purchase.Reference), Text: text, KeepUntil: s.now().Add(statusMailKept)}
	_, err = s.outbox.ToCustomer(ctx, tx, m)  // under the shop's name, with its signature
	if apperr.CodeOf(err) == apperr.Invalid { // the address the link went to; no later attempt could do better
		s.log.Warn("withdrawal kept but not acknowledged: the outbox refuses the customer's address or name", "claim", c.ID,
			"problems", apperr.ProblemsOf(err))
		return nil
	}
	return err
}
