package desk

import (
	"context"
	"database/sql"
	"slices"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/storage"
	"shipdesk/textin"
)

// carrier is what the carrier table knows of a carrier; an unknown carrier
// (or a failed read) knows nothing, so the service decides.
func (d *Desk) carrier(ctx context.Context, code string) storage.Carrier {
	c, err := d.db.CarrierByCode(ctx, code)
	if err != nil {
		return storage.Carrier{Code: code}
	}
	return c
}

// LabelFree says whether the clerk may hand the chosen offer's package over
// label-free, and why not. The form's own conditions come first; then the
// carrier table; when the table does not know the carrier, the service is
// asked with the intended order (shipments/validate with label_less) and its
// answer is remembered for the carrier.
func (d *Desk) LabelFree(ctx context.Context, f Form, from storage.Sender) []apperr.Text {
	f.Carrier = d.carrier(ctx, f.Offer.Carrier)
	if why := f.LabelFreeBlockers(from.Country); len(why) > 0 || f.Carrier.LabelFree.Valid {
		return why
	}
	f.LabelLess = true
	order := shipping.Order{Currency: "CZK", PaymentType: shipping.PaymentCredit, Shipments: []shipping.Shipment{d.shipment(f, from)}}
	err := d.ship.Validate(ctx, order)
	if err != nil && !transport.IsInvalid(err) {
		// The service could not say; offer nothing now rather than guess.
		return []apperr.Text{apperr.Msg("ship.err.label_free_unknown")}
	}
	refused := slices.ContainsFunc(transport.FieldErrors(err), func(e transport.FieldError) bool {
		return strings.HasSuffix(e.Field, "label_less")
	})
	if lerr := d.db.LearnLabelFree(ctx, f.Offer.Carrier, !refused); lerr != nil {
		d.log.Warn("remember label-free", "carrier", f.Offer.Carrier, "err", lerr)
	}
	if refused {
		return []apperr.Text{apperr.Msg("ship.err.label_free_carrier")}
	}
	return nil
}

// CarrierEdit is a manager's change to the carrier table.
type CarrierEdit struct {
	Code        string
	Name        string
	LabelFree   string // "yes", "no", or "" for "ask the service"
	CODPackages string // one of storage.CODPackageRules
	// StuckDays: working days without a tracking event before a parcel needs
	// attention, 1 to 30 ("" keeps the default, storage.DefaultStuckDays).
	StuckDays string
}

// EditCarrier checks and saves a manager's facts about a carrier.
func (d *Desk) EditCarrier(ctx context.Context, e CarrierEdit) error {
	p := apperr.Problems{}
	name, problem := textin.Line(e.Name, maxText)
	p.Put("name", problem)
	c := storage.Carrier{Code: e.Code, Name: name, CODPackages: e.CODPackages}
	switch e.LabelFree {
	case "yes", "no":
		c.LabelFree = sql.NullBool{Valid: true, Bool: e.LabelFree == "yes"}
	case "":
	default:
		p.Add("label_free", "form.choose_list")
	}
	if !slices.Contains(storage.CODPackageRules, e.CODPackages) {
		p.Add("cod_packages", "form.choose_list")
	}
	c.StuckDays = storage.DefaultStuckDays
	if s := strings.TrimSpace(e.StuckDays); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 30 {
			p.Add("stuck_days", "attn.err.stuck_days")
		}
		c.StuckDays = n
	}
	if len(p) > 0 {
		// Shown as one message after the post: name what to fix.
		var parts []apperr.Text
		for _, field := range []string{"name", "label_free", "cod_packages", "stuck_days"} {
			if msg, ok := p[field]; ok {
				parts = append(parts, msg)
			}
		}
		return &apperr.Error{Code: apperr.Invalid, Message: apperr.Msg("ship.err.carrier_not_saved", e.Code, apperr.Join(parts...)), Fields: p}
	}
	return d.db.EditCarrier(ctx, c, d.now())
}

// SeedCarriers stores carriers known in advance; a manager's edits win.
func (d *Desk) SeedCarriers(ctx context.Context, list []storage.Carrier) error {
	return d.db.SeedCarriers(ctx, list)
}
