package desk

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/shiprules"
	"shipdesk/storage"
)

// PriceBatch prices again the rows of a batch waiting for it.
func (d *Desk) PriceBatch(ctx context.Context, batch int64) (int, error) {
	if _, err := d.db.BatchByID(ctx, batch); err != nil {
		return 0, err
	}
	n, err := d.db.QueueRows(ctx, batch, storage.RowReady, storage.RowPricing)
	d.startBatch(batch)
	return n, err
}

// priceRow asks the service for a row's offers and chooses one.
func (d *Desk) priceRow(ctx context.Context, b storage.Batch, row storage.BatchRow, leased time.Time, w *batchWork) {
	rd := w.reads
	r := ReadBatchRow(row)
	f, _, err := d.rowForm(ctx, b, row.RequestKey, r.Order, rd)
	var offers []Offer
	if err == nil {
		offers, err = d.offers(ctx, f, rd)
	}
	pointCarrier, pointName := "", ""
	if f.DeliveryBranch != "" {
		if pt, ok := d.pointByCode(ctx, f.DeliveryBranch); ok {
			pointCarrier, pointName = pt.Carrier, cmp.Or(rd.carrier(ctx, pt.Carrier).Name, pt.Carrier)
		}
	}
	row.ChosenBy, row.Chosen = "", ""
	row.State = storage.RowPriced
	var notes []RowOffer
	switch {
	case err != nil:
		row.State = storage.RowProblem
		why := apperr.TextOf(err)
		if why.IsZero() || apperr.CodeOf(err) == apperr.Internal {
			d.log.Warn("batch row: offers", "row", row.ID, "err", err)
			why = apperr.Msg(NoAnswer)
		}
		r.RowProblems = append(r.RowProblems, RowProblem{Text: why})
		for k, t := range apperr.ProblemsOf(err) {
			r.RowProblems = append(r.RowProblems, RowProblem{Field: rowField(k), Text: t})
		}
	default:
		var chosen int
		notes, chosen = chooseOffer(f, offers, pointCarrier, pointName)
		chosen = d.ruleChoice(ctx, f, offers, notes, chosen, rd)
		if chosen < 0 {
			row.State = storage.RowProblem
			r.RowProblems = append(r.RowProblems, RowProblem{Text: apperr.Msg("batch.err.no_offer")})
		} else {
			row.Chosen, row.ChosenBy = notes[chosen].Choice, "rule"
		}
	}
	row.Offers, _ = json.Marshal(orEmpty(notes))
	row.Problems, _ = json.Marshal(orEmpty(r.RowProblems))
	w.outcomes.add(storage.RowOutcome{Priced: &row, Leased: leased})
}

// ruleChoice applies the managers' offer rules (Shipping → Rules) to a row
// whose offers chooseOffer has sorted out: with no rules the cheapest stays;
// with rules, the offer the first applying rule picks among those the row
// may take, each other offer saying why the rules passed it over, and none
// when no rule applies (the row then says why). The clerk can still choose.
func (d *Desk) ruleChoice(ctx context.Context, f Form, offers []Offer, notes []RowOffer, cheapest int, rd *rowReads) int {
	rules, err := rd.offerRules(ctx)
	if err != nil || len(rules) == 0 {
		if err != nil {
			d.log.Warn("batch row: offer rules", "err", err)
		}
		return cheapest
	}
	eligible := make([]Offer, len(offers))
	for i, o := range offers {
		eligible[i] = o
		eligible[i].Selectable = o.Selectable && notes[i].Eligible // what chooseOffer ruled out stays out
	}
	dec := d.RuleChooser(ctx, RuleShipment(f)).Choose(rules, RuleShipment(f), RuleOffers(eligible))
	text := func(t shiprules.Text) apperr.Text { return apperr.Msg(t.Key, t.Args...) }
	for i := range notes {
		if why, ok := dec.NotChosen[i]; ok && notes[i].Eligible {
			notes[i].Why = text(why)
		}
	}
	if dec.Index < 0 {
		return -1
	}
	notes[dec.Index].Why = text(dec.Why)
	return dec.Index
}

// chooseOffer chooses the offer for a batch row among the service's offers:
// for now the cheapest selectable offer that delivers where the row says (to
// its point, by the point's carrier, or to the address). It says for each
// offer why it was or was not chosen; chosen is an index into the notes, -1
// when none fits. The managers' rules (shiprules) will take its place.
// pointName is the point's carrier as people know it, for the notes.
func chooseOffer(f Form, offers []Offer, pointCarrier, pointName string) (notes []RowOffer, chosen int) {
	chosen = -1
	toPoint := f.DeliveryBranch != ""
	for _, o := range offers {
		n := RowOffer{Offer: o, Choice: o.Choice()}
		switch {
		case !o.Selectable:
			n.Why = apperr.Msg("batch.why.not_selectable")
		case toPoint && !o.DeliveryRequired:
			n.Why = apperr.Msg("batch.why.to_address")
		case toPoint && !strings.EqualFold(o.Carrier, pointCarrier):
			n.Why = apperr.Msg("batch.why.other_carrier", pointName)
		case !toPoint && o.DeliveryRequired:
			n.Why = apperr.Msg("batch.why.to_point")
		case o.LabelFree:
			n.Why, n.ByHand = apperr.Msg("batch.why.label_free"), true
		default:
			n.Eligible = true
			if chosen < 0 || o.PriceVAT.Value < notes[chosen].Offer.PriceVAT.Value {
				chosen = len(notes)
			}
		}
		notes = append(notes, n)
	}
	for i := range notes {
		switch {
		case i == chosen:
			notes[i].Why = apperr.Msg("batch.why.cheapest")
		case notes[i].Eligible:
			notes[i].Why = apperr.Msg("batch.why.dearer")
		}
	}
	return notes, chosen
}

// ChooseRowOffer lets the clerk take another of a priced row's offers.
func (d *Desk) ChooseRowOffer(ctx context.Context, batch, id int64, choice string) error {
	row, err := d.db.BatchRow(ctx, batch, id)
	if err != nil {
		return err
	}
	r := ReadBatchRow(row)
	fits := slices.ContainsFunc(r.RowOffers, func(o RowOffer) bool { return o.Choice == choice && o.Choosable() })
	if !fits {
		return apperr.New(apperr.Invalid, "batch.err.offer_not_offered")
	}
	ok, err := d.db.ChooseRowOffer(ctx, batch, id, choice)
	if err == nil && !ok {
		err = apperr.New(apperr.Conflict, "batch.err.not_editable")
	}
	return err
}

// OfferFor chooses the offer of a form nobody picks one for (a shop's order
// shipped in one click) as a batch row's is chosen: the offers that deliver
// where the form says (to its point, by pointCarrier, or to the address),
// then the managers' rules or the cheapest. None fits: the zero offer and why.
func (d *Desk) OfferFor(ctx context.Context, f Form, offers []Offer, pointCarrier string) (Offer, apperr.Text) {
	pointName := pointCarrier
	if pointCarrier != "" {
		pointName = cmp.Or(d.carrier(ctx, pointCarrier).Name, pointCarrier)
	}
	notes, chosen := chooseOffer(f, offers, pointCarrier, pointName)
	if chosen = d.ruleChoice(ctx, f, offers, notes, chosen, d.freshReads()); chosen < 0 {
		return Offer{}, apperr.Msg("batch.err.no_offer")
	}
	return notes[chosen].Offer, notes[chosen].Why
}
