package desk

import (
	"cmp"
	"context"
	"slices"

	"shipdesk/client/shipping"
	"shipdesk/storage"
)

// Filters of a batch's rows, as the batch page offers them: every row, the
// rows to correct, the rows ready to order (checked, being priced or
// priced), the rows ordered (or being ordered), the rows ordered before
// (known: offered only when there are some), the rows whose order failed.
const (
	RowsAll      = "all"
	RowsProblems = "problems"
	RowsReady    = "ready"
	RowsOrdered  = "ordered"
	RowsFailed   = "failed"
	RowsKnown    = "known"
)

// RowFilters are the filters in the order the page offers them.
var RowFilters = []string{RowsAll, RowsProblems, RowsReady, RowsOrdered, RowsKnown, RowsFailed}

var rowFilterStates = map[string][]string{
	RowsProblems: {storage.RowProblem},
	RowsReady:    {storage.RowReady, storage.RowPricing, storage.RowPriced},
	RowsOrdered:  {storage.RowOrdering, storage.RowOrdered},
	RowsFailed:   {storage.RowFailed},
	RowsKnown:    {storage.RowKnown},
}

// InRowFilter says whether a row in state shows under filter.
func InRowFilter(filter, state string) bool {
	return filter == RowsAll || slices.Contains(rowFilterStates[filter], state)
}

// RowFilterCount is how many of a batch's rows (counted by state) a filter shows.
func RowFilterCount(filter string, counts map[string]int) int {
	n := 0
	for state, c := range counts {
		if InRowFilter(filter, state) {
			n += c
		}
	}
	return n
}

// LabelFreeParcel is a label-free shipment of a batch: handed over at one of
// its carrier's points with a code instead of a label.
type LabelFreeParcel struct {
	ShipmentID  int64
	Reference   string
	Recipient   string
	City        string
	Carrier     string
	CarrierName string
	Tracking    string
	// Codes are the packages' hand-over codes, as the shipment's page shows
	// them; none until the service gives them (when it exports the order).
	Codes []string
}

// LabelFree says whether a shipment goes without a label: the service says
// so, or, before it has said, it was ordered so.
func LabelFree(s storage.Shipment) bool {
	return s.LabelMode == shipping.LabelCode || s.LabelMode == "" && s.LabelLess
}

// OnCodeSheet says whether a shipment goes on its batch's sheet of
// label-free codes: ordered, not cancelled, label-free.
func OnCodeSheet(s storage.Shipment) bool {
	return s.State == storage.StateCreated && !Cancelled(s) && LabelFree(s)
}

// HandoverCodes are the codes a label-free shipment's packages are handed
// over with.
func HandoverCodes(s storage.Shipment) []string {
	var out []string
	for _, k := range s.Packages {
		if k.Password != "" {
			out = append(out, k.Password)
		}
	}
	return out
}

// BatchLabelFree lists a batch's label-free shipments in the file's order;
// cancelled ones are left out.
func (d *Desk) BatchLabelFree(ctx context.Context, batch int64) ([]LabelFreeParcel, error) {
	ids, list, err := d.batchShipments(ctx, batch)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	byID := map[int64]storage.Shipment{}
	for _, s := range list {
		byID[s.ID] = s
	}
	names, err := d.carrierNames(ctx)
	if err != nil {
		return nil, err
	}
	var out []LabelFreeParcel
	for _, id := range ids {
		s, ok := byID[id]
		if !ok || !OnCodeSheet(s) {
			continue
		}
		out = append(out, LabelFreeParcel{ShipmentID: s.ID, Reference: s.Reference, Recipient: s.RecipientName, City: s.RecipientCity,
			Carrier: s.Carrier, CarrierName: cmp.Or(names[s.Carrier], s.Carrier), Tracking: s.Tracking(), Codes: HandoverCodes(s)})
	}
	return out, nil
}
