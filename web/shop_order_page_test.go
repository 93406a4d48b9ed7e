package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	sbshop "shipdesk/sandbox/shoptet"
)

// writesBack are the order page's rows of what was written back to the
// shop, each row's cells' text.
func (sd *shopDesk) writesBack(code string) (*goquery.Document, [][]string) {
	sd.t.Helper()
	doc := sd.page("/shipping/orders/" + code)
	var rows [][]string
	doc.Find(`[data-testid=order-write]`).Each(func(_ int, tr *goquery.Selection) {
		var cells []string
		tr.Find("td").Each(func(_ int, td *goquery.Selection) {
			cells = append(cells, strings.Join(strings.Fields(td.Text()), " "))
		})
		rows = append(rows, cells)
	})
	return doc, rows
}

// The order's page shows what was written back to the shop and when: the
// tracking number once it is sent, then at the hand-over the status by the
// shop's own name for it, which the page names before it happens; in
// Czech too. A write the shop refuses for good shows the shop's answer.
func TestShopOrderPageShowsWritesBack(t *testing.T) {
	t.Parallel()
	sd := startShopDesk(t)
	code := sd.order(nil)
	sd.ship(code)
	sh, _ := sd.ordered(code)
	tracking := sh.Tracking()
	if tracking == "" {
		t.Fatal("the shipment has no tracking number")
	}
	doc, rows := sd.writesBack(code)
	if handover := strings.Join(strings.Fields(doc.Find(`[data-testid=order-handover]`).Text()), " "); handover != "the order moves to “Odesláno”" {
		t.Errorf("the hand-over reads %q", handover)
	}
	if len(rows) != 1 || rows[0][0] != "Tracking number "+tracking || rows[0][2] != "to be sent" || rows[0][1] == "" || rows[0][3] != "" {
		t.Fatalf("before it is sent: %q", rows)
	}
	if st, err := sd.env.App.Shop.SendWrites(sd.ctx); err != nil || st.Sent != 1 {
		t.Fatalf("send: %+v %v", st, err)
	}
	if o, _ := sd.sim.Order(code); o.TrackingNumber != tracking {
		t.Fatalf("the shop's order carries %q", o.TrackingNumber)
	}
	if _, rows = sd.writesBack(code); len(rows) != 1 || rows[0][2] != "written" || rows[0][3] == "" {
		t.Fatalf("once sent: %q", rows)
	}

	// The carrier takes the parcel: the order moves to the chosen status.
	sd.env.LabelsFetched()
	sd.env.Sandbox.Advance(2 * time.Hour)
	sd.env.App.Jobs.Cycle(sd.ctx)
	if _, err := sd.env.App.Shop.SendWrites(sd.ctx); err != nil {
		t.Fatal(err)
	}
	if o, _ := sd.sim.Order(code); o.Status != sbshop.StatusSent {
		t.Fatalf("the shop's order is in status %d", o.Status)
	}
	_, rows = sd.writesBack(code)
	if len(rows) != 2 || rows[1][0] != "Status moved to “Odesláno”" || rows[1][2] != "written" {
		t.Fatalf("after the hand-over: %q", rows)
	}
	if r := sd.clerk.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/shipping"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatal(r.StatusCode)
	}
	doc, rows = sd.writesBack(code)
	if len(rows) != 2 || rows[0][0] != "Číslo zásilky "+tracking || rows[1][0] != "Stav změněn na „Odesláno“" || rows[1][2] != "zapsáno" ||
		!strings.Contains(doc.Find(`[data-testid=order-handover]`).Text(), "objednávka přejde do stavu „Odesláno“") {
		t.Errorf("in Czech: %q", rows)
	}
	if li := strings.Join(strings.Fields(doc.Find(`[data-testid=order-shipments] li`).Text()), " "); li != code+" Zásilkovna "+tracking {
		t.Errorf("the shipment reads %q", li)
	}
	for _, raw := range []string{", Česko", "Celkem1\u00a0007\u00a0Kč", "Rychlovarná konvice Tefal 1,7 l (KV-17-TEF) 899\u00a0Kč"} {
		if !strings.Contains(doc.Find("main").Text(), raw) {
			t.Errorf("the order's page does not show %q: %s", raw, strings.Join(strings.Fields(doc.Find("main").Text()), " "))
		}
	}

	// The shop refuses a write for good: its answer is on the page.
	gone := sd.order(nil)
	sd.ship(gone)
	if err := sd.sim.DeleteOrder(gone); err != nil {
		t.Fatal(err)
	}
	if st, err := sd.env.App.Shop.SendWrites(sd.ctx); err != nil || st.Failed != 1 {
		t.Fatalf("a write refused for good: %+v %v", st, err)
	}
	if _, rows = sd.writesBack(gone); len(rows) != 1 || rows[0][2] != "selhalo" || rows[0][4] == "" || strings.Contains(rows[0][4], "errorCode") {
		t.Errorf("a failed write: %q", rows)
	}
}
