package desk

import (
	"encoding/json"

	"shipdesk/apperr"
	"shipdesk/orderfile"
	"shipdesk/storage"
)

// Batches: a day's orders read from a file (orderfile), each row checked by
// the new-shipment form's own rules (it is parsed as a posted form and
// checked as one), priced, ordered and printed together. Pricing and
// ordering are work rows in PostgreSQL: a button queues rows, a worker claims
// them a few at a time; rows a worker left behind (a restart) are leased
// again when the batch is looked at. Each row orders through Order with its
// own request key, so it is ordered once whoever presses the button and how
// often.

// RowProblem is a problem of a batch row: the field (an orderfile field, ""
// for the row) and what is wrong.
type RowProblem struct {
	Field string      `json:"field,omitempty"`
	Text  apperr.Text `json:"text"`
}

// RowOffer is one offer of a priced row and why it was or was not chosen.
type RowOffer struct {
	Offer    Offer  `json:"offer"`
	Choice   string `json:"choice"`
	Eligible bool   `json:"eligible"` // the clerk may choose it, and the rules or the cheapest may
	// ByHand: only the clerk may choose it. A label-free offer fits a row
	// but not the batch's hand-over: the clerk who takes it takes the parcel
	// to one of the carrier's points and hands it over with its code.
	ByHand bool        `json:"by_hand,omitempty"`
	Why    apperr.Text `json:"why"`
}

// Choosable says whether the clerk may choose the offer for the row.
func (o RowOffer) Choosable() bool { return o.Eligible || o.ByHand }

// BatchRow is a batch row as the desk reads it.
type BatchRow struct {
	storage.BatchRow
	Cells       map[orderfile.Field]string
	Order       orderfile.Order
	RowProblems []RowProblem
	RowOffers   []RowOffer
}

// Chosen is the row's chosen offer, when it has one.
func (r BatchRow) Chosen() (RowOffer, bool) {
	for _, o := range r.RowOffers {
		if o.Choice == r.BatchRow.Chosen && r.BatchRow.Chosen != "" {
			return o, true
		}
	}
	return RowOffer{}, false
}

// HasOffers says whether the row has offers (read for its batch's page, a
// closed row holds only the chosen one: storage.BatchRow.OfferCount).
func (r BatchRow) HasOffers() bool { return r.OfferCount > 0 || len(r.RowOffers) > 0 }

// ReadBatchRow decodes a stored row.
func ReadBatchRow(r storage.BatchRow) BatchRow {
	out := BatchRow{BatchRow: r}
	_ = json.Unmarshal(r.Raw, &out.Cells)
	_ = json.Unmarshal(r.Parsed, &out.Order)
	_ = json.Unmarshal(r.Problems, &out.RowProblems)
	_ = json.Unmarshal(r.Offers, &out.RowOffers)
	return out
}

// LabelReady says whether a shipment's label goes into a print now.
func LabelReady(s storage.Shipment) bool { return printable(s) }
