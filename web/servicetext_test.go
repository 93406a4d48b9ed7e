package web_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"shipdesk/workbench"
)

// A NUL or broken UTF-8 the service accepts from anyone must not make our copy
// unwritable: the refresh stores the text cleaned, and the poller keeps going.
func TestNULFromTheServiceIsStoredCleaned(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	ctx := context.Background()
	f := commissionForm(t, env)
	res, err := env.App.Bench.Create(ctx, workbench.Form{Key: f["key"], Type: "paid_repair", TypeID: atoi(f["type_id"]), ModelID: atoi(f["model_id"]),
		Fault: "Cracked.", Customer: returnsCustomer()}, 0)
	if err != nil || res.Commission.RemoteID == nil {
		t.Fatalf("create: %v %+v", err, res.Commission)
	}
	c := res.Commission
	// Someone else (another client of the service) writes a NUL and a broken byte.
	if _, err := env.App.Upstream.Returns.AddActivity(ctx, *c.RemoteID, false, "before\x00after \xff end"); err != nil {
		t.Fatalf("the service refused the activity: %v", err)
	}
	page := "/returns/commissions/" + itoa(c.ID)
	resp := b.PostForm(page+"/refresh", nil)
	if resp.StatusCode != 303 {
		t.Fatalf("refresh: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	stored, err := env.App.DB.CommissionByID(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(stored.Raw), `\u0000`) || !strings.Contains(string(stored.Raw), "beforeafter \uFFFD end") {
		t.Errorf("stored activity: %s", stored.Raw)
	}
	if got := htmlOf(t, b.Get(page).Body).Find(`[data-testid=activities] [data-kind=note] p`).Text(); got != "beforeafter \uFFFD end" {
		t.Errorf("the commission page does not show the activity: %q", got)
	}
	// Notes and moves work on it, and the poller reads it without backing off.
	if resp := b.PostForm(page+"/notes", map[string][]string{"note_text": {"checked"}, "key": {formKey(t, b.Get(page).Body, "note-form")}}); resp.StatusCode != 303 {
		t.Errorf("note: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	env.Sandbox.Advance(time.Hour) // the one clock: the dashboard's moves with it
	st, err := env.App.Jobs.Commissions(ctx)
	if err != nil || len(st.Handled) == 0 {
		t.Fatalf("poller: %v %v", st.Handled, err)
	}
	if after, _ := env.App.DB.CommissionByID(ctx, c.ID); after.SyncFailures != 0 {
		t.Errorf("the poller backs off: %d failures", after.SyncFailures)
	}
}

func atoi(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

func returnsCustomer() workbench.Customer {
	return workbench.Customer{Name: "Karel Dvořák", Email: "karel@example.cz", Phone: "+420 777 000 111", Street: "Lipová 3", City: "Brno", Zip: "602 00", Country: "CZ"}
}
