package shipping

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"shipdesk/sandbox/contracttest"
)

func TestBadInput(t *testing.T) {
	e := newEnv(t)
	for name, body := range map[string]string{
		"malformed":   `{"currency": "CZK",`,
		"wrong types": `{"currency": 5, "shipments": "x"}`,
		"not object":  `[1,2,3]`,
		"empty":       ``,
		"two values":  `{} {}`,
	} {
		a := e.call("POST", "/api/v1/shipments/create", key1, body)
		if a.Status != 400 || len(a.Body["errors"].([]any)) == 0 {
			t.Errorf("%s: %d %s", name, a.Status, a.Raw)
		}
	}
	if a := e.call("POST", "/api/v1/shipments/create", key1, `{"currency":5}`); a.FieldError("currency") == "" {
		t.Errorf("wrong type does not name the field: %s", a.Raw)
	}
	sh := shipmentTo("ups", "SOMETIMES")
	sh["to"].(map[string]any)["zip"] = "<script>alert(1)</script>"
	a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("BARTER", sh))
	for _, f := range []string{"payment_type", "shipments[0].type", "shipments[0].to.zip"} {
		if a.FieldError(f) == "" {
			t.Errorf("no error on %s: %s", f, a.Raw)
		}
	}
	huge := `{"currency":"` + strings.Repeat("x", 70<<10) + `"}`
	if a := e.call("POST", "/api/v1/shipments/create", key1, huge); a.Status != 413 {
		t.Errorf("oversized body: %d", a.Status)
	}
	if a := e.call("POST", "/api/v1/shipments/tracking", "", map[string]any{"shipments": make([]string, MaxBatch+1)}); a.Status != 400 {
		t.Errorf("too many tracking numbers: %d", a.Status)
	}
	if len(e.call("GET", "/api/v1/shipments/list", key1, nil).Data()) != 0 {
		t.Error("refused requests stored something")
	}
}

func TestConcurrentCreatesAndReads(t *testing.T) {
	e := newEnv(t)
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.create(key1, shipmentTo("ups", "ONDEMAND"))
			e.call("GET", "/api/v1/shipments/list", key1, nil)
			e.advance(time.Minute)
		}()
	}
	wg.Wait()
	if d := e.call("GET", "/api/v1/shipments/list", key1, nil).Data(); len(d) != 20 {
		t.Errorf("%d shipments after 20 concurrent creates", len(d))
	}
}

func TestSnapshotRestoreAndWipe(t *testing.T) {
	e := newEnv(t)
	tn, _ := e.create(key1, shipmentTo("ups", "ONDEMAND"))
	snap, err := e.svc.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	e.svc.Wipe()
	if a := e.call("POST", "/api/v1/shipments/detail", key1, map[string]any{"shipments": []string{tn}}); a.Status != 404 {
		t.Errorf("after wipe: %d", a.Status)
	}
	if err := e.svc.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if d := e.detail(key1, tn); d["reference"] != "REF-1" {
		t.Errorf("restored %v", d)
	}
	tn2, _ := e.create(key1, shipmentTo("ups", "ONDEMAND"))
	if tn2 == tn {
		t.Error("numbering restarted after restore")
	}
	if err := e.svc.Restore([]byte("{")); err == nil {
		t.Error("a broken snapshot restored")
	}
}

func TestEveryRouteIsDocumented(t *testing.T) {
	e := newEnv(t)
	mux := http.NewServeMux()
	e.svc.Register(mux)
	contracttest.CheckRoutesDocumented(t, mux, e.svc)
	if len(e.svc.Operations()) != 15 {
		t.Errorf("%d operations documented, 15 served", len(e.svc.Operations()))
	}
}
