package shoptet_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"shipdesk/sandbox/shoptet"
)

func orderCodes(a answer) []string {
	var out []string
	for _, o := range a.data()["orders"].([]any) {
		out = append(out, o.(map[string]any)["code"].(string))
	}
	return out
}

func paginator(a answer) map[string]any { return a.data()["paginator"].(map[string]any) }

// More than one page of 50; the pages together list every order once,
// newest first; itemsPerPage above 50 is cut to 50.
func TestOrdersPageByFifty(t *testing.T) {
	e := newEnv(t, "documented")
	first := e.call("GET", "/api/orders", nil)
	p := paginator(first)
	total := int(p["totalCount"].(float64))
	if total <= shoptet.OrdersPerPage || p["pageCount"].(float64) != 2 || p["itemsOnPage"].(float64) != 50 || p["itemsPerPage"].(float64) != 50 {
		t.Fatalf("first page: %v", p)
	}
	second := e.call("GET", "/api/orders?page=2&itemsPerPage=100", nil)
	if paginator(second)["itemsPerPage"].(float64) != 50 {
		t.Errorf("itemsPerPage=100 is cut to 50: %v", paginator(second))
	}
	all := append(orderCodes(first), orderCodes(second)...)
	seen := map[string]bool{}
	for i, c := range all {
		if seen[c] {
			t.Errorf("%s listed twice", c)
		}
		seen[c] = true
		if i > 0 && c > all[i-1] {
			t.Errorf("not newest first: %s after %s", c, all[i-1])
		}
	}
	if len(all) != total {
		t.Errorf("%d listed of %d", len(all), total)
	}
	if a := e.call("GET", "/api/orders?page=3", nil); len(orderCodes(a)) != 0 || paginator(a)["page"].(float64) != 3 {
		t.Errorf("page past the end: %s", a.Raw)
	}
}

func TestOrdersFilters(t *testing.T) {
	e := newEnv(t, "documented")
	all := e.shop.Orders()
	zas := shoptet.ShippingMethods[0].GUID
	count := func(keep func(shoptet.Order) bool) int {
		n := 0
		for _, o := range all {
			if keep(o) {
				n++
			}
		}
		return n
	}
	cutoff := start.Add(-24 * time.Hour)
	for _, c := range []struct {
		query string
		want  int
	}{
		{"statusId=-1", count(func(o shoptet.Order) bool { return o.Status == shoptet.StatusNew })},
		{"statusId=-4", count(func(o shoptet.Order) bool { return o.Status == shoptet.StatusCancelled })},
		{"shippingGuid=" + zas, count(func(o shoptet.Order) bool { return o.Shipping == zas })},
		{"shippingCompanyCode=ppl", count(func(o shoptet.Order) bool {
			return o.Shipping == shoptet.ShippingMethods[2].GUID || o.Shipping == shoptet.ShippingMethods[3].GUID
		})},
		{"creationTimeFrom=" + url.QueryEscape(cutoff.Format("2006-01-02T15:04:05-0700")), count(func(o shoptet.Order) bool { return !o.Created.Before(cutoff) })},
		{"creationTimeTo=" + url.QueryEscape(cutoff.Format(time.RFC3339)), count(func(o shoptet.Order) bool { return !o.Created.After(cutoff) })},
		{"changeTimeFrom=" + url.QueryEscape(cutoff.Format(time.RFC3339)), count(func(o shoptet.Order) bool { return !o.Changed.Before(cutoff) })},
		{"orderCodes=" + all[0].Code + "," + all[3].Code + "&statusId=999", 2},
	} {
		a := e.call("GET", "/api/orders?itemsPerPage=50&"+c.query, nil)
		if got := int(paginator(a)["totalCount"].(float64)); got != c.want || c.want == 0 {
			t.Errorf("%s: %d orders, want %d (>0)", c.query, got, c.want)
		}
	}
}

// Changes since a time: each order once with its last change, oldest first,
// creation counted as an edit; a write moves the order to the end.
func TestChangesSinceATime(t *testing.T) {
	e := newEnv(t, "documented")
	from := url.QueryEscape(start.Add(-12 * time.Hour).Format(time.RFC3339))
	a := e.call("GET", "/api/orders/changes?itemsPerPage=1000&from="+from, nil)
	changes := a.data()["changes"].([]any)
	if len(changes) == 0 {
		t.Fatal("no changes in the last 12 hours of the demo")
	}
	for i, c := range changes {
		ch := c.(map[string]any)
		if ch["changeType"] != "edit" {
			t.Errorf("change %v", ch)
		}
		if i > 0 && ch["changeTime"].(string) < changes[i-1].(map[string]any)["changeTime"].(string) {
			t.Errorf("not oldest first at %d", i)
		}
	}
	code := changes[0].(map[string]any)["code"].(string)
	e.clock.Advance(time.Minute)
	e.call("PATCH", "/api/orders/"+code+"/notes", map[string]any{"data": map[string]any{"eshopRemark": "Zabaleno."}})
	after := e.call("GET", "/api/orders/changes?itemsPerPage=1000&from="+from, nil).data()["changes"].([]any)
	last := after[len(after)-1].(map[string]any)
	if len(after) != len(changes) || last["code"] != code {
		t.Errorf("after a write: %d changes (was %d), the last %v; want %s last, once", len(after), len(changes), last, code)
	}
	now := url.QueryEscape(e.clock.Now().Format(time.RFC3339))
	if got := e.call("GET", "/api/orders/changes?from="+now, nil).data()["changes"].([]any); len(got) != 1 {
		t.Errorf("changes from now: %v", got)
	}
	if err := e.shop.DeleteOrder(code); err != nil {
		t.Fatal(err)
	}
	del := e.call("GET", "/api/orders/changes?changeType=delete&from="+from, nil).data()["changes"].([]any)
	if len(del) != 1 || del[0].(map[string]any)["code"] != code {
		t.Errorf("deleted: %v", del)
	}
	if a := e.call("GET", "/api/orders/"+code, nil); a.Status != 404 || a.errorCode() != "order-not-found" {
		t.Errorf("a deleted order: %d %s", a.Status, a.Raw)
	}
	if a := e.call("GET", "/api/orders/changes", nil); a.Status != 400 {
		t.Errorf("without from: %d", a.Status)
	}
}

func openCode(t *testing.T, e *env) string {
	t.Helper()
	for _, o := range e.shop.Orders() {
		if shoptet.Open(o) && o.TrackingNumber == "" && o.Shipping == shoptet.ShippingMethods[0].GUID {
			return o.Code
		}
	}
	t.Fatal("no open order to Zásilkovna")
	return ""
}

// The tracking number goes on the order's notes with the shipping method's
// tracking link; the same write again within 5 s is locked (423), after it
// passes; null clears it.
func TestNotesTrackingNumberAndLock(t *testing.T) {
	e := newEnv(t, "documented")
	code := openCode(t, e)
	write := map[string]any{"data": map[string]any{"trackingNumber": "Z1234567890"}}
	if a := e.call("PATCH", "/api/orders/"+code+"/notes", write); a.Status != 200 {
		t.Fatalf("notes: %d %s", a.Status, a.Raw)
	}
	notes := e.call("GET", "/api/orders/"+code+"?include=notes", nil).data()["order"].(map[string]any)["notes"].(map[string]any)
	if notes["trackingNumber"] != "Z1234567890" || !strings.Contains(notes["trackingUrl"].(string), "Z1234567890") {
		t.Errorf("notes: %v", notes)
	}
	if a := e.call("PATCH", "/api/orders/"+code+"/notes", write); a.Status != 423 || a.errorCode() != "locked" {
		t.Errorf("the same write at once: %d %s", a.Status, a.Raw)
	}
	e.clock.Advance(4 * time.Second)
	if a := e.call("PATCH", "/api/orders/"+code+"/notes", write); a.Status != 423 {
		t.Errorf("the same write 4 s later: %d", a.Status)
	}
	e.clock.Advance(2 * time.Second)
	if a := e.call("PATCH", "/api/orders/"+code+"/notes", write); a.Status != 200 {
		t.Errorf("the same write 6 s later: %d", a.Status)
	}
	if a := e.call("PATCH", "/api/orders/"+code+"/notes", map[string]any{"data": map[string]any{"trackingNumber": nil}}); a.Status != 200 {
		t.Errorf("clear: %d %s", a.Status, a.Raw)
	}
	if o, _ := e.shop.Order(code); o.TrackingNumber != "" {
		t.Errorf("cleared tracking number is %q", o.TrackingNumber)
	}
	long := map[string]any{"data": map[string]any{"trackingNumber": strings.Repeat("9", shoptet.MaxTrackingNumber+1)}}
	if a := e.call("PATCH", "/api/orders/"+code+"/notes", long); a.Status != 422 {
		t.Errorf("33 characters: %d", a.Status)
	}
	url := map[string]any{"data": map[string]any{"trackingUrl": "https://example.cz/t"}}
	if a := e.call("PATCH", "/api/orders/"+code+"/notes", url); a.Status != 422 || !strings.Contains(string(a.Raw), "data.trackingUrl") {
		t.Errorf("trackingUrl is no writable note in Shoptet's document: %d %s", a.Status, a.Raw)
	}
}

// The status moves; the status's mail to the customer goes unless
// suppressed; cancelling is order:cancel territory; an unknown status is
// refused.
func TestStatusPatchAndItsMails(t *testing.T) {
	e := newEnv(t, "documented")
	code := openCode(t, e)
	a := e.call("PATCH", "/api/orders/"+code+"/status?suppressEmailSending=true", map[string]any{"data": map[string]any{"statusId": shoptet.StatusSent}})
	if a.Status != 200 || a.data()["order"].(map[string]any)["status"].(map[string]any)["id"].(float64) != shoptet.StatusSent {
		t.Fatalf("status: %d %s", a.Status, a.Raw)
	}
	o, _ := e.shop.Order(code)
	mailed, texted := 0, 0
	for _, h := range o.History {
		if h.Mailed {
			mailed++
		}
		if h.Texted {
			texted++
		}
	}
	if mailed != 0 || texted != 1 {
		t.Errorf("suppressed mail: %d mails, %d texts: %+v", mailed, texted, o.History)
	}
	other := openCodeExcept(t, e, code)
	e.call("PATCH", "/api/orders/"+other+"/status", map[string]any{"data": map[string]any{"statusId": shoptet.StatusSent}})
	if o, _ := e.shop.Order(other); !mailedOnce(o) {
		t.Errorf("a status that mails, not suppressed: %+v", o.History)
	}
	hist := e.call("GET", "/api/orders/"+other+"/history", nil).data()["orderHistory"].([]any)
	if len(hist) < 2 {
		t.Errorf("history: %v", hist)
	}
	for _, bad := range []any{map[string]any{"data": map[string]any{"statusId": 77}}, map[string]any{"data": map[string]any{"statusId": "3"}},
		map[string]any{"data": map[string]any{}}, map[string]any{"data": map[string]any{"statusId": 1.5}}} {
		if a := e.call("PATCH", "/api/orders/"+code+"/status", bad); a.Status != 422 {
			t.Errorf("%v: %d %s", bad, a.Status, a.Raw)
		}
	}
	if a := e.call("PATCH", "/api/orders/"+code+"/status?suppressEmailSending=maybe", map[string]any{"data": map[string]any{"statusId": -1}}); a.Status != 400 {
		t.Errorf("suppressEmailSending=maybe: %d", a.Status)
	}
}

func mailedOnce(o shoptet.Order) bool {
	n := 0
	for _, h := range o.History {
		if h.Mailed {
			n++
		}
	}
	return n == 1
}

func openCodeExcept(t *testing.T, e *env, not string) string {
	t.Helper()
	for _, o := range e.shop.Orders() {
		if shoptet.Open(o) && o.Code != not {
			return o.Code
		}
	}
	t.Fatal("no other open order")
	return ""
}
