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

// rowsLeased is how many rows a batch worker leases at once: the rows it
// orders next go to the database together (orderRows).
const rowsLeased = 2 * BatchWorkers

// ResumeBatches starts workers for every batch with queued rows nobody works
// on: after a restart the rows a stopped instance held are taken up again
// without anyone opening the batch. The pollers' upkeep calls it.
func (d *Desk) ResumeBatches(ctx context.Context) error {
	ids, err := d.db.BatchesWaiting(ctx, d.staleLease(d.now()))
	for _, id := range ids {
		d.startBatch(id)
	}
	return err
}

// staleLease is before when a lease belongs to a worker that has gone: a
// row's work is at most two calls of OrderTimeout (a check, then the order)
// and recording it. Taking a row over early costs at most a repeated check:
// the row's request key orders its shipment once, whoever holds the lease.
func (d *Desk) staleLease(now time.Time) time.Time {
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
// next one starts, so a slow row holds up no other; the rows of a lease
// being ordered go together (orderRows), sharing their statements, and the
// next rows are leased meanwhile. Rows are leased rowsLeased to a
// statement and wait at most for the rows leased before them to end
// before they start (a row whose lease goes stale meanwhile, when the
// service hangs, costs at most a repeated check: see staleLease). Rows
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
	var leased []storage.BatchRow
	var at time.Time
	for {
		if busy == BatchWorkers {
			<-done
			busy--
		}
		busy -= ended(done)
		if len(leased) == 0 {
			if d.stopping() { // the rows held are done; none more is taken
				return
			}
			leased, at, err = d.leaseWork(ctx, batch, rowsLeased)
			if err != nil {
				d.log.Warn("batch worker: lease", "batch", batch, "err", err)
				return
			}
		}
		if len(leased) == 0 {
			if busy == 0 {
				return
			}
			<-done // a row still worked on may be all that is left
			busy--
			continue
		}
		if n := ordering(leased); n > 0 {
			// Rows to order go together (orderRows), once the rows before
			// them are done; the next rows are leased meanwhile.
			for ; busy > 0; busy-- {
				<-done
			}
			chunk := leased[:n]
			leased = leased[n:]
			var ahead <-chan lease
			if len(leased) == 0 && !d.stopping() {
				ahead = d.leaseAhead(ctx, batch)
			}
			d.orderRows(ctx, b, chunk, w)
			if ahead != nil {
				c := <-ahead
				if c.err != nil {
					d.log.Warn("batch worker: lease", "batch", batch, "err", c.err)
					return
				}
				leased, at = c.rows, c.at
			}
			continue
		}
		r, leasedAt := leased[0], at // at changes with the next lease
		leased = leased[1:]
		busy++
		go func() {
			defer func() { done <- struct{}{} }()
			d.priceRow(ctx, b, r, leasedAt, w)
		}()
	}
}

// lease is rows a worker leased at at.
type lease struct {
	rows []storage.BatchRow
	at   time.Time
	err  error
}

// leaseAhead leases a worker's next rows while the rows before them are
// ordered, so that the lease waits for no call to the service. What the
// rows repeat is asked only when their turn comes, right before they are
// checked and sent.
func (d *Desk) leaseAhead(ctx context.Context, batch int64) <-chan lease {
	next := make(chan lease, 1)
	go func() {
		var c lease
		c.rows, c.at, c.err = d.leaseWork(ctx, batch, rowsLeased)
		next <- c
	}()
	return next
}

// ordering counts the rows to order at the head of the leased ones.
func ordering(leased []storage.BatchRow) int {
	n := 0
	for n < len(leased) && leased[n].State == storage.RowOrdering {
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

// leaseWork leases up to n of the batch's rows waiting to be priced or
// ordered, those to be priced first, at now.
func (d *Desk) leaseWork(ctx context.Context, batch int64, n int) (rows []storage.BatchRow, now time.Time, err error) {
	now = d.now().Truncate(time.Microsecond)
	rows, err = d.db.LeaseRows(ctx, batch, now, d.staleLease(now), n)
	return rows, now, err
}
