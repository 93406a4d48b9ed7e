package workbench

import (
	"context"
	"errors"
	"fmt"
	"time"

	"shipdesk/requestkey"
	"shipdesk/storage"
)

// RefreshCommissions reads each commission of a batch the commission poller
// (jobs) leased from the service and records it. It returns those that
// failed, for the poller to back off.
func (w *Workbench) RefreshCommissions(ctx context.Context, batch []storage.Commission) (failed []int64) {
	for _, c := range batch {
		if _, err := w.Refresh(ctx, c.ID); err != nil {
			w.log.Warn("commission sync failed; backing off", "commission", c.ID, "err", err)
			failed = append(failed, c.ID)
		}
	}
	return failed
}

// PollEvery is how often an open commission is read again: the poller backs
// off from it after a failure.
func (w *Workbench) PollEvery() time.Duration { return w.SyncEvery }

// SyncFailed backs off the commissions whose read failed at now, the
// poller's and a page's alike: the cadence doubled for every failure in a
// row, at most MaxBackoff.
func (w *Workbench) SyncFailed(ctx context.Context, failed []int64, now time.Time) error {
	return w.db.CommissionSyncFailed(ctx, failed, now, w.PollEvery(), w.MaxBackoff)
}

// keptUploadLife is how long a proof kept from a failed form waits for the
// agent to finish the form: a day, then it is deleted.
const keptUploadLife = 24 * time.Hour

// MaintainOnce settles commissions whose answer was lost, deletes proofs of
// purchase kept from forms nobody finished, and refreshes the product lists
// once a day.
func (w *Workbench) MaintainOnce(ctx context.Context) {
	if n, err := w.db.PruneKeptUploads(ctx, keptUploadLife); err != nil && !errors.Is(err, context.Canceled) {
		w.log.Warn("prune kept uploads", "err", err)
	} else if n > 0 {
		w.log.Info("kept uploads pruned", "files", n)
	}
	if err := w.ReconcileAll(ctx); err != nil {
		w.log.Warn("reconcile commissions", "err", err)
	}
	at, err := w.db.ProductsRefreshed(ctx)
	if err == nil && (at == nil || w.now().Sub(*at) > 24*time.Hour) {
		if err := w.RefreshProducts(ctx); err != nil && !errors.Is(err, context.Canceled) {
			w.log.Warn("refresh products", "err", err)
		}
	}
}

// demoReceipt is a tiny valid PDF standing in for a scanned receipt.
const demoReceipt = "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"

// SeedDemo creates two commissions (a warranty claim with its receipt, and a
// two-way paid repair) when there are none, so `make run` shows a workbench.
func (w *Workbench) SeedDemo(ctx context.Context) error {
	list, _, err := w.db.ListCommissions(ctx, storage.CommissionFilter{Limit: 1})
	if err != nil || len(list) > 0 {
		return err
	}
	if err := w.RefreshProducts(ctx); err != nil {
		return err
	}
	_, models, err := w.db.Products(ctx)
	if err != nil || len(models) < 2 {
		return err
	}
	forms := []Form{
		{Type: "warranty", TypeID: models[0].TypeID, ModelID: models[0].ID, Fault: "Nejde zapnout.", Purchase: "2026-09-14",
			File:     &File{Name: "uctenka.pdf", Data: []byte(demoReceipt)},
			Customer: returnsCustomer("Alena Veselá", "alena@example.cz")},
		{Type: "paid_repair", TypeID: models[1].TypeID, ModelID: models[1].ID, Fault: "Prasklý kryt.", TwoWay: true,
			Customer: returnsCustomer("Karel Dvořák", "karel@example.cz")},
	}
	for i, f := range forms {
		f.Key = requestkey.New()
		if _, err := w.Create(ctx, f, 0); err != nil {
			return fmt.Errorf("demo commission %d: %w", i+1, err)
		}
	}
	return nil
}

func returnsCustomer(name, email string) Customer {
	return Customer{Name: name, Email: email, Phone: "+420 777 000 111", Street: "Lipová 3", City: "Brno", Zip: "602 00", Country: "CZ"}
}
