package main

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

var mapAction = regexp.MustCompile(`action="(/shipping/batch-uploads/\d+/map)"`)

// Two `serve` processes share nothing but PostgreSQL (and the service): a
// clerk's work moves between them request by request, as behind a load
// balancer without sticky sessions. Sessions, uploads waiting for their
// column mapping, batches, the print queue and sign-out each hold on the
// other instance.
func TestTwoInstancesShareOnlyTheDatabase(t *testing.T) {
	// The service's calls get the product's 20 s limit, not the cluster's
	// short one (which the restart test's settle window needs): on a loaded
	// run the print was refused with 503, the service's failure, as a label
	// fetched from the race-built sandbox can take longer than 3 s there.
	c := newCluster(t, "SHIPDESK_LABEL_EVERY=1s", "SHIPDESK_UPSTREAM_TIMEOUT=20s")
	a, b := c.serve(), c.serve()
	clerk := c.clerk(a.URL) // the cookie jar sends the session to both: same host, other port
	both := []*child{a, b}
	on := func(i int) string { return both[i%2].URL }

	for i := range 4 {
		if r := send(t, clerk, http.MethodGet, on(i), "/shipping/batches/new", "", nil); r.StatusCode != http.StatusOK {
			t.Fatalf("signed in on a, request %d on instance %d: %d", i, i%2, r.StatusCode)
		}
	}

	// An upload read on one instance is mapped on the other.
	export := "Číslo;Zákazník;Adresa;Obec;PSČ;Tel;Váha\nE-1;Nováková;Masarykova 5;Brno;602 00;+420 777 123 456;2\n"
	r := upload(t, clerk, on(0), "shop.csv", []byte(export), map[string]string{"handover": "ONDEMAND"})
	m := mapAction.FindStringSubmatch(bodyOf(r))
	if r.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("a foreign export asks for its columns: %d", r.StatusCode)
	}
	mapping := url.Values{"source": {"Shop"}, "handover": {"ONDEMAND"}, "col_reference": {"Číslo"}, "col_surname": {"Zákazník"},
		"col_street": {"Adresa"}, "col_city": {"Obec"}, "col_zip": {"PSČ"}, "col_phone": {"Tel"}, "col_weight_kg": {"Váha"}}
	mapped := batchOf(t, post(t, clerk, on(1), m[1], "application/x-www-form-urlencoded", strings.NewReader(mapping.Encode())))
	if r := send(t, clerk, http.MethodGet, on(0), fmt.Sprintf("/shipping/batches/%d", mapped), "", nil); !strings.Contains(bodyOf(r), "E-1") {
		t.Fatalf("the mapped batch on the other instance: %d", r.StatusCode)
	}

	// A batch imported on one, priced by whichever worker, ordered on the
	// other, printed and handed over across both.
	batch := batchOf(t, upload(t, clerk, on(1), "orders.csv", exampleOrders(t), map[string]string{"handover": "ONDEMAND"}))
	path := fmt.Sprintf("/shipping/batches/%d", batch)
	waitFor(t, "the batch priced", func() bool {
		s := rowStates(t, c.DB, batch)
		return s["pricing"] == 0 && s["priced"] > 0
	})
	priced := rowStates(t, c.DB, batch)["priced"]
	if r := send(t, clerk, http.MethodGet, on(0), path+"/progress", "", nil); r.StatusCode != http.StatusOK {
		t.Fatalf("progress on the other instance: %d", r.StatusCode)
	}
	if r := post(t, clerk, on(0), path+"/order", "application/x-www-form-urlencoded", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("order all: %d", r.StatusCode)
	}
	if r := post(t, clerk, on(1), path+"/order", "application/x-www-form-urlencoded", nil); r.StatusCode == http.StatusSeeOther &&
		rowStates(t, c.DB, batch)["ordered"] > priced {
		t.Fatalf("a second press on the other instance ordered more rows")
	}
	waitFor(t, "the batch ordered", func() bool { return rowStates(t, c.DB, batch)["ordered"] == priced })
	c.SB.Advance(10 * time.Minute)
	var ids []int64
	waitFor(t, "every label made", func() bool { // by the label poller of either instance
		var waiting int
		if err := c.DB.Get(&waiting, `SELECT count(*) FROM batch_rows r JOIN shipments s ON s.id = r.shipment_id
WHERE r.batch_id = $1 AND s.label_status = 'PENDING'`, batch); err != nil {
			t.Fatal(err)
		}
		return waiting == 0
	})
	if err := c.DB.Select(&ids, `SELECT s.id FROM batch_rows r JOIN shipments s ON s.id = r.shipment_id
WHERE r.batch_id = $1 AND s.label_status = 'READY' AND s.label_mode = 'PRINT' ORDER BY r.line`, batch); err != nil || len(ids) < 5 {
		t.Fatalf("%d labels to print (%v)", len(ids), err)
	}
	if r := send(t, clerk, http.MethodGet, on(1), path+"/labels.pdf", "", nil); r.StatusCode != http.StatusOK || !strings.HasPrefix(bodyOf(r), "%PDF") {
		t.Fatalf("the batch's labels: %d %s", r.StatusCode, r.Header.Get("Content-Type"))
	}
	if r := send(t, clerk, http.MethodGet, on(0), path+"/handover.pdf", "", nil); r.StatusCode != http.StatusOK || !strings.HasPrefix(bodyOf(r), "%PDF") {
		t.Fatalf("the batch's hand-over protocol: %d", r.StatusCode)
	}

	// The print queue: printed on one, seen printed on the other.
	form := url.Values{"format": {"A6"}}
	for _, id := range ids {
		form.Add("ids", fmt.Sprint(id))
	}
	if r := post(t, clerk, on(1), "/shipping/print", "application/x-www-form-urlencoded", strings.NewReader(form.Encode())); r.StatusCode != http.StatusOK || !strings.HasPrefix(bodyOf(r), "%PDF") {
		l := b.log()
		t.Fatalf("print from the queue: %d %.300s\nthe instance's log ends:\n%s", r.StatusCode, bodyOf(r), l[max(0, len(l)-3000):])
	}
	var prints int
	if err := c.DB.Get(&prints, `SELECT count(*) FROM print_batches`); err != nil || prints != 2 {
		t.Fatalf("%d prints recorded (%v), want the batch's and the queue's", prints, err)
	}
	queue := bodyOf(send(t, clerk, http.MethodGet, on(0), "/shipping/print", "", nil))
	if r := regexp.MustCompile(`reprint`); !r.MatchString(queue) {
		t.Errorf("the queue on the other instance does not offer the last print again")
	}

	// Sign-out on one instance ends the session on the other at once.
	cookies := clerk.Jar.Cookies(mustURL(t, a.URL))
	if r := post(t, clerk, on(1), "/logout", "application/x-www-form-urlencoded", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign out: %d", r.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodGet, a.URL+"/shipping/batches/new", nil)
	for _, ck := range cookies {
		req.AddCookie(ck)
	}
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
		t.Fatalf("the signed-out session on the other instance: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
