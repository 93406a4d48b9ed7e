package storage

import (
	"context"
	"errors"
	"time"

	"shipdesk/apperr"
)

// RowOutcome is what a batch row's pricing or ordering came to, recorded
// with other rows' in one statement (RecordRows).
type RowOutcome struct {
	Priced   *BatchRow // priced: its state, offers, choice and problems (RowPriced)
	Leased   time.Time // the lease the row was priced under
	Ordered  int64     // ordered (or failed): the row's id
	Shipment *int64    // the row's shipment; nil: the order failed, Why says why
	Created  *Created  // the service's answer to the shipment's order, when not recorded yet
	Why      apperr.Text
}

// RecordRows records the outcomes of many rows, as RowPriced and RowOrdered
// do for one: one statement for the priced rows, one for the created
// orders (RecordCreated's) and one for the ordered rows. Only a row still
// being priced under its lease, or still being ordered, is changed. It
// returns the shipments whose answer was a duplicate at the service.
func (db *DB) RecordRows(ctx context.Context, outcomes []RowOutcome) (duplicates []int64, err error) {
	var (
		createdIDs                        []int64
		created                           []Created
		pIDs                              []int64
		leases                            []int64 // microseconds since 1970, as the lease was stored
		states, offers, chosen, by, probs []string
		oIDs, shipments                   []int64
		oStates, whys                     []string
	)
	for _, o := range outcomes {
		if r := o.Priced; r != nil {
			pIDs, leases = append(pIDs, r.ID), append(leases, o.Leased.UnixMicro())
			states, offers, chosen = append(states, r.State), append(offers, r.Offers.text()), append(chosen, r.Chosen)
			by, probs = append(by, r.ChosenBy), append(probs, r.Problems.text())
			continue
		}
		if o.Created != nil && o.Shipment != nil {
			createdIDs, created = append(createdIDs, *o.Shipment), append(created, *o.Created)
		}
		state, shipment := RowOrdered, int64(0)
		if o.Shipment == nil {
			state = RowFailed
		} else {
			shipment = *o.Shipment
		}
		why, err := o.Why.Value()
		if err != nil {
			return nil, wrapf(err, "record order of row %d", o.Ordered)
		}
		oIDs, shipments, oStates, whys = append(oIDs, o.Ordered), append(shipments, shipment), append(oStates, state), append(whys, why.(string))
	}
	if len(pIDs) > 0 {
		_, err := db.x.ExecContext(ctx, `UPDATE batch_rows b SET state = u.state, offers = u.offers, chosen = u.chosen, chosen_by = u.chosen_by,
    problems = u.problems, leased_at = NULL, updated_at = now()
FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[]::jsonb[], $5::text[], $6::text[], $7::text[]::jsonb[])
    AS u(id, leased, state, offers, chosen, chosen_by, problems)
WHERE b.id = u.id AND b.state = 'pricing' AND b.leased_at = 'epoch'::timestamptz + u.leased * interval '1 microsecond'`,
			pqArray(pIDs), pqArray(leases), pqArray(states), pqArray(offers), pqArray(chosen), pqArray(by), pqArray(probs))
		if err != nil {
			return nil, wrapf(err, "record pricing of %d rows", len(pIDs))
		}
	}
	var createdErr error
	if len(createdIDs) > 0 {
		// The orders first: a row ordered points at a shipment recorded as
		// created. Their rows are recorded even when the orders are not:
		// an order whose answer is not recorded is reconciled after its
		// deadline, as any whose answer was lost.
		duplicates, createdErr = db.recordCreated(ctx, createdIDs, created)
	}
	if len(oIDs) > 0 {
		_, err := db.x.ExecContext(ctx, `UPDATE batch_rows b SET state = u.state, shipment_id = NULLIF(u.shipment, 0), error = u.why,
    leased_at = NULL, updated_at = now()
FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[]) AS u(id, shipment, state, why)
WHERE b.id = u.id AND b.state = 'ordering'`, pqArray(oIDs), pqArray(shipments), pqArray(oStates), pqArray(whys))
		if err != nil {
			return duplicates, errors.Join(createdErr, wrapf(err, "record order of %d rows", len(oIDs)))
		}
	}
	return duplicates, createdErr
}
