package desk

import (
	"context"

	"shipdesk/storage"
)

// batchWork is what a batch worker's rows share: the tables they are
// checked against and the writer of their outcomes.
type batchWork struct {
	reads    *rowReads
	outcomes *rowOutcomes
}

// rowOutcomes write what a batch worker's rows came to, many rows to a
// statement: a row hands its outcome over and its worker takes the next row
// while the outcome is written; outcomes that come meanwhile go together in
// the next statement. An outcome lost with the process leaves its row
// leased: it is taken up again later, and a row ordered already finds its
// shipment by its request key (its order, created or not, stands as one
// whose answer was lost and is reconciled after its deadline).
type rowOutcomes struct {
	d    *Desk
	in   chan storage.RowOutcome
	done chan struct{}
}

// outcomesAtOnce is the most outcomes one statement records.
const outcomesAtOnce = 200

func (d *Desk) writeOutcomes(ctx context.Context) *rowOutcomes {
	o := &rowOutcomes{d: d, in: make(chan storage.RowOutcome, outcomesAtOnce), done: make(chan struct{})}
	go func() {
		defer close(o.done)
		for first := range o.in {
			list := append(make([]storage.RowOutcome, 0, 8), first)
		more:
			for len(list) < outcomesAtOnce {
				select {
				case next, ok := <-o.in:
					if !ok {
						break more
					}
					list = append(list, next)
				default:
					break more
				}
			}
			duplicates, err := d.db.RecordRows(ctx, list)
			for _, id := range duplicates {
				d.log.Warn("duplicate order at the service", "shipment", id)
			}
			if err != nil {
				d.log.Warn("batch rows: record outcomes", "rows", len(list), "err", err)
			}
		}
	}()
	return o
}

// add hands a row's outcome over to be written.
func (o *rowOutcomes) add(r storage.RowOutcome) { o.in <- r }

// close writes the outcomes handed over and waits until they are written.
func (o *rowOutcomes) close() {
	close(o.in)
	<-o.done
}
