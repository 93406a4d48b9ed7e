package workbench_test

import (
	"testing"

	"shipdesk/storage"
)

// A claim confirmed when its create answered is not confirmed again when a
// second path finds the same commission at the service (the reconciler
// after an answer it thought lost): one intake confirmation, one mail, and
// the answering attempt ended as created.
func TestSecondPathToACreatedClaimConfirmsNothingMore(t *testing.T) {
	e := startConfirmMail(t)
	c := e.claim("Nehřeje.")
	if a, err := e.db.CommissionAttempts(e.ctx, c.ID); err != nil || len(a) != 1 || a[0].Outcome != storage.AttemptCreated {
		t.Fatalf("attempts %+v %v, want one created", a, err)
	}
	if _, err := e.db.SQL().Exec(`UPDATE commissions SET state = 'unknown' WHERE id = $1`, c.ID); err != nil {
		t.Fatal(err)
	}
	again, err := e.w.Reconcile(e.ctx, c.ID)
	if err != nil || again.State != storage.StateCreated {
		t.Fatalf("reconciled: %s %v", again.State, err)
	}
	if docs, err := e.db.DocumentsOf(e.ctx, c.ID); err != nil || len(docs) != 1 {
		t.Errorf("%d confirmations after the second path, want 1 (%v)", len(docs), err)
	}
	if n := len(e.mails()); n != 1 {
		t.Errorf("%d mails after the second path, want 1", n)
	}
}
