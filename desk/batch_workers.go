package desk

import (
	"context"
	"fmt"
	"sync"
	"time"

	"shipdesk/storage"
)

// BatchWorkers is how many rows of a batch are priced or ordered at once.
const BatchWorkers = 4

// rowsClaimed is how many rows a batch worker claims at once: the rows it
// orders next go to the database together (orderRows).
const rowsClaimed = 2 * BatchWorkers

// ResumeBatches starts workers for every batch with queued rows nobody works
// on: after a restart the rows a stopped instance held are taken up again
// without anyone opening the batch. The pollers' upkeep calls it.
func (d *Desk) ResumeBatches(ctx context.Context) error {
	ids, err := d.db.BatchesWaiting(ctx, d.staleClaim(d.now()))
	for _, id := range ids {
		d.startBatch(id)
	}
	return err
}

// staleClaim is before when a claim belongs to a worker that has gone: a
// row's work is at most two calls of OrderTimeout (a check, then the order)
// and recording it. Taking a row over early costs at most a repeated check:
// the row's request key orders its shipment once, whoever holds the claim.
func (d *Desk) staleClaim(now time.Time) time.Time {
	return now.Add(-(2*d.OrderTimeout + 5*time.Second))
}

// batchRuns are the batch workers of one desk: each batch has at most one
// here, and on[batch] is true when more work was queued while it ran, so it
// looks once more before it ends. Stop ends them between rows.
type batchRuns struct {
	mu      sync.Mutex
	on      map[int64]bool
	wg      sync.WaitGroup
	stopped bool
}

// startBatch runs a worker for the batch unless one runs here already (which
// is then told to look again). The worker outlives the request that started it.
func (d *Desk) startBatch(batch int64) {
	r := &d.runs
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	if r.on == nil {
		r.on = map[int64]bool{}
	}
	if _, running := r.on[batch]; running {
		r.on[batch] = true
		return
	}
	r.on[batch] = false
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		for {
			d.workBatch(context.Background(), batch)
			r.mu.Lock()
			if !r.on[batch] || r.stopped {
				delete(r.on, batch)
				r.mu.Unlock()
				return
			}
			r.on[batch] = false
			r.mu.Unlock()
		}
	}()
}

// stopping says whether Stop was called: workers take no more rows.
func (d *Desk) stopping() bool {
	d.runs.mu.Lock()
	defer d.runs.mu.Unlock()
	return d.runs.stopped
}

// Stop lets the batch workers finish the rows they hold and take no more,
// waiting for them until ctx ends. Rows still queued stay queued: the next
// instance (or this one restarted) takes them up.
func (d *Desk) Stop(ctx context.Context) error {
	d.runs.mu.Lock()
	d.runs.stopped = true
	d.runs.mu.Unlock()
	done := make(chan struct{})
	go func() {
		d.runs.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("stop batch workers: %w", ctx.Err())
	}
}

// workBatch prices and orders a batch's queued rows until none is left,
// BatchWorkers rows at a time: as soon as a row being priced is done the
// next one starts, so a slow row holds up no other; the rows of a claim
// being ordered go together (orderRows), sharing their statements, and the
// next rows are claimed meanwhile. Rows are claimed rowsClaimed to a
// statement and wait at most for the rows claimed before them to end
// before they start (a row whose claim goes stale meanwhile, when the
// service hangs, costs at most a repeated check: see staleClaim). Rows
// being priced go before rows being ordered. The rows share what they are
// checked against and the writer of their outcomes (batchWork).
func (d *Desk) workBatch(ctx context.Context, batch int64) {
	b, err := d.db.BatchByID(ctx, batch)
	if err != nil {
		d.log.Warn("batch worker", "batch", batch, "err", err)
		return
	}
	w := &batchWork{reads: d.keptReads(), outcomes: d.writeOutcomes(ctx)}
	done := make(chan struct{}, BatchWorkers)
	busy := 0
	defer func() {
		for ; busy > 0; busy-- {
			<-done
		}
		w.outcomes.close()
	}()
	var claimed []storage.BatchRow
	var at time.Time
	for {
		if busy == BatchWorkers {
			<-done
			busy--
		}
		busy -= ended(done)
		if len(claimed) == 0 {
			if d.stopping() { // the rows held are done; none more is taken
				return
			}
			claimed, at, err = d.claimWork(ctx, batch, rowsClaimed)
			if err != nil {
				d.log.Warn("batch worker: claim", "batch", batch, "err", err)
				return
			}
		}
		if len(claimed) == 0 {
			if busy == 0 {
				return
			}
			<-done // a row still worked on may be all that is left
			busy--
			continue
		}
		if n := ordering(claimed); n > 0 {
			// Rows to order go together (orderRows), once the rows before
			// them are done; the next rows are claimed meanwhile.
			for ; busy > 0; busy-- {
				<-done
			}
			chunk := claimed[:n]
			claimed = claimed[n:]
			var ahead <-chan claim
			if len(claimed) == 0 && !d.stopping() {
				ahead = d.claimAhead(ctx, batch)
			}
			d.orderRows(ctx, b, chunk, w)
			if ahead != nil {
				c := <-ahead
				if c.err != nil {
					d.log.Warn("batch worker: claim", "batch", batch, "err", c.err)
					return
				}
				claimed, at = c.rows, c.at
			}
			continue
		}
		r, claimedAt := claimed[0], at // at changes with the next claim
		claimed = claimed[1:]
		busy++
		go func() {
			defer func() { done <- struct{}{} }()
			d.priceRow(ctx, b, r, claimedAt, w)
		}()
	}
}

// claim is rows a worker claimed at at.
type claim struct {
	rows []storage.BatchRow
	at   time.Time
	err  error
}

// claimAhead claims a worker's next rows while the rows before them are
// ordered, so that the claim waits for no call to the service. What the
// rows repeat is asked only when their turn comes, right before they are
// checked and sent.
func (d *Desk) claimAhead(ctx context.Context, batch int64) <-chan claim {
	next := make(chan claim, 1)
	go func() {
		var c claim
		c.rows, c.at, c.err = d.claimWork(ctx, batch, rowsClaimed)
		next <- c
	}()
	return next
}

// ordering counts the rows to order at the head of the claimed ones.
func ordering(claimed []storage.BatchRow) int {
	n := 0
	for n < len(claimed) && claimed[n].State == storage.RowOrdering {
		n++
	}
	return n
}

// ended counts the rows that ended meanwhile, without waiting.
func ended(done chan struct{}) int {
	n := 0
	for {
		select {
		case <-done:
			n++
		default:
			return n
		}
	}
}

// claimWork claims up to n of the batch's rows waiting to be priced or
// ordered, those to be priced first, at now.
func (d *Desk) claimWork(ctx context.Context, batch int64, n int) (rows []storage.BatchRow, now time.Time, err error) {
	now = d.now().Truncate(time.Microsecond)
	rows, err = d.db.ClaimRows(ctx, batch, now, d.staleClaim(now), n)
	return rows, now, err
}
