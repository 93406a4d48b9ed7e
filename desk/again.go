package desk

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"shipdesk/client/shipping"
)

// Again is a new-shipment form filled from a shipment already ordered, for a
// reshipment or a customer who orders the same again.
type Again struct {
	Form Form
	// FormerCOD is the cash on delivery the shipment had; the form leaves
	// it off (a reshipment seldom collects again) with the amount filled in,
	// so one tick brings it back. Zero when it had none.
	FormerCOD Money
}

// SameAgain fills a new form from shipment id as it was ordered: recipient,
// packages, hand-over, services and the note for the carrier. The offer is
// compared again and the pickup date is today's business; the reference is
// left empty, since each shipment's is its own. It orders nothing.
func (d *Desk) SameAgain(ctx context.Context, id int64) (Again, error) {
	s, err := d.db.ShipmentByID(ctx, id)
	if err != nil {
		return Again{}, err
	}
	f, err := d.Blank(ctx)
	if err != nil {
		return Again{}, err
	}
	var order shipping.Order
	if err := json.Unmarshal(s.Request, &order); err != nil || len(order.Shipments) == 0 {
		// Found at the service, never ordered here: its recipient only.
		f.To.Firstname = s.RecipientName
		f.To.City = s.RecipientCity
		return Again{Form: f}, nil
	}
	sh := order.Shipments[0]
	a := Again{Form: f}
	a.Form.To = addressOf(sh.To)
	a.Form.Note = sh.Note
	a.Form.Handover = sh.Type
	if sh.PickupBranch != "" {
		a.Form.Handover = HandoverPoint
	}
	a.Form.Packages = nil
	for _, k := range sh.Packages {
		a.Form.Packages = append(a.Form.Packages, Package{Weight: k.Weight, Length: k.Length, Width: k.Width, Height: k.Height,
			Raw: [4]string{measure(k.Weight), measure(k.Length), measure(k.Width), measure(k.Height)}})
	}
	if len(a.Form.Packages) == 0 {
		a.Form.Packages = []Package{{}}
	}
	for _, sv := range sh.Services {
		switch strings.ToLower(sv.Code) {
		case shipping.ServiceCodeCOD:
			var c shipping.ServiceCOD
			if serviceData(sv, &c) == nil {
				a.FormerCOD = moneyOf(c.Value)
				a.Form.CODValue, a.Form.CODCurrency = strconv.FormatFloat(c.Value.Value, 'f', -1, 64), c.Value.Currency
				a.Form.BankAccount, a.Form.BankCode = c.BankAccount, c.BankCode
				a.Form.BankVariable, a.Form.BankCurrency = "", c.BankCurrency // the variable symbol was the old order's
			}
		case shipping.ServiceCodeInsurance:
			var m shipping.Money
			if serviceData(sv, &m) == nil && m.Value > 0 {
				a.Form.Insure, a.Form.InsuredValue = true, strconv.FormatFloat(m.Value, 'f', -1, 64)
			}
		}
	}
	if c := sh.Customs; c != nil && len(c.Items) > 0 {
		it := c.Items[0]
		a.Form.Customs = Customs{Reason: c.Reason, Description: it.Description, HSCode: it.HSCode, Origin: it.OriginCountry,
			Quantity: strconv.Itoa(it.Quantity), Value: strconv.FormatFloat(it.Value.Value, 'f', -1, 64), Currency: it.Value.Currency}
	}
	return a, d.FillCOD(ctx, &a.Form)
}

// serviceData reads a stored service's data (decoded as a map) into v.
func serviceData(sv shipping.Service, v any) error {
	b, err := json.Marshal(sv.Data)
	if err != nil {
		return fmt.Errorf("service %s: %w", sv.Code, err)
	}
	return json.Unmarshal(b, v)
}

// measure writes a stored measure as the form's field shows it; none is "".
func measure(x float64) string {
	if x == 0 {
		return ""
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}
