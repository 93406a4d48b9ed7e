package web_test

import (
	"bytes"
	"context"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage"
)

// lockedLog is a log a test reads while the dashboard may still write.
type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A manager connects the shop with its private token: a wrong token is
// refused in words and nothing is connected; the right one connects the
// shop, the page says which shop and when, and neither token appears in
// any page or log line afterwards.
func TestManagerConnectsTheShopWithItsToken(t *testing.T) {
	t.Parallel()
	log := &lockedLog{}
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true, Log: log})
	env.SeedDesk()
	m := env.SignedIn(identity.Manager)
	page := m.Get("/connection")
	if page.StatusCode != 200 || !strings.Contains(page.Body, `type="password"`) || !strings.Contains(page.Body, env.Sandbox.Shoptet) {
		t.Fatalf("the connection form: %d %s", page.StatusCode, page.Body)
	}
	const wrong = "wrong-token-4711"
	r := m.PostForm("/connection/shop", url.Values{"key": {requestkey.New()}, "platform": {"shoptet"}, "base_url": {env.Sandbox.Shoptet}, "token": {wrong}})
	if r.StatusCode != 422 || !strings.Contains(r.Body, "The shop refused this token") || strings.Contains(r.Body, wrong) {
		t.Fatalf("a wrong token: %d %s", r.StatusCode, r.Body)
	}
	if _, err := env.App.DB.ShopConnection(context.Background()); err == nil {
		t.Fatal("a refused token connected the shop")
	}
	r = m.PostForm("/connection/shop", url.Values{"key": {requestkey.New()}, "platform": {"shoptet"}, "base_url": {env.Sandbox.Shoptet},
		"token": {sandboxtest.ShoptetToken}})
	if r.StatusCode != 303 {
		t.Fatalf("connecting: %d %s", r.StatusCode, r.Body)
	}
	page = m.Get("/connection")
	c, err := env.App.DB.ShopConnection(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Connected to " + c.ShopName, c.ShopURL, "Ship the orders in these statuses", "Shipped by"} {
		if !strings.Contains(page.Body, want) {
			t.Errorf("the connected shop's section lacks %q", want)
		}
	}
	if strings.Contains(page.Body, `name="token"`) {
		t.Error("a connected shop's section asks for the token again")
	}
	for _, p := range []string{"/connection", "/shipping/orders", "/"} {
		if body := m.Get(p).Body; strings.Contains(body, sandboxtest.ShoptetToken) {
			t.Errorf("%s shows the shop's token", p)
		}
	}
	if got := log.String(); strings.Contains(got, sandboxtest.ShoptetToken) || strings.Contains(got, wrong) || !strings.Contains(got, "shop connected") {
		t.Errorf("the log carries a token, or nothing: %s", got)
	}
}

// What a manager saves takes effect: a shipping method set to "not chosen
// yet" makes its orders wait with the reason in the inbox, mapped again
// they are ready; hostile values are refused on their fields and change
// nothing; the statuses and the customer's mail are kept as ticked.
func TestShopMappingsAndStatusesTakeEffect(t *testing.T) {
	t.Parallel()
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true})
	env.SeedDesk()
	ctx := context.Background()
	if err := env.App.SeedDemoShop(ctx); err != nil {
		t.Fatal(err)
	}
	var code, guid string
	if err := env.App.DB.SQL().QueryRow(`SELECT o.code, o.shipping_guid FROM shop_orders o JOIN shop_methods m ON m.kind = 'shipping' AND m.guid = o.shipping_guid
		WHERE o.ready AND o.state = 'waiting' AND m.mapping = 'service' ORDER BY o.code LIMIT 1`).Scan(&code, &guid); err != nil {
		t.Fatalf("a ready order of a mapped method: %v", err)
	}
	conn, err := env.App.Shop.Connection(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var method storage.ShopMethod
	var cod []string
	for _, m := range conn.Shipping {
		if m.GUID == guid {
			method = m
		}
	}
	for _, p := range conn.Payment {
		if p.COD {
			cod = append(cod, p.GUID)
		}
	}
	m := env.SignedIn(identity.Manager)
	mapTo := func(value string) apptest.Response {
		return m.PostForm("/connection/shop/mappings", url.Values{"key": {requestkey.New()}, "map_" + guid: {value}, "cod": cod})
	}
	page := m.Get("/connection")
	service := "service:" + method.Carrier + ":" + strconv.Itoa(method.ServiceID)
	if !strings.Contains(page.Body, `value="`+service+`" selected`) {
		t.Fatalf("the demo's mapping of %s is not shown selected (%s)", method.Name, service)
	}
	ready := func() bool {
		o, err := env.App.DB.ShopOrderByCode(ctx, code)
		if err != nil {
			t.Fatal(err)
		}
		return o.Ready
	}
	for _, hostile := range []string{"service:NOPE:99", "service:" + method.Carrier + ":x", "sideways", "service:<script>:1"} {
		if r := mapTo(hostile); r.StatusCode != 422 || strings.Contains(r.Body, "<script>") {
			t.Errorf("mapping to %q: %d", hostile, r.StatusCode)
		}
	}
	if !ready() {
		t.Fatal("a refused mapping changed the order")
	}
	if r := mapTo("unmapped"); r.StatusCode != 303 {
		t.Fatalf("unmapping: %d %s", r.StatusCode, r.Body)
	}
	if ready() {
		t.Error("an order of an unmapped method is still ready")
	}
	inbox := env.SignedIn(identity.Clerk).Get("/shipping/orders?shipping=" + url.QueryEscape(guid)).Body
	if !strings.Contains(inbox, "has no carrier yet") {
		t.Errorf("the inbox does not say the method is not mapped")
	}
	if r := mapTo(service); r.StatusCode != 303 || !ready() {
		t.Errorf("mapped again: %d, ready %v", r.StatusCode, ready())
	}
	after, _ := env.App.Shop.Connection(ctx)
	if len(after.Payment) != len(conn.Payment) || !sameCOD(after.Payment, cod) {
		t.Errorf("cash on delivery changed: %v", after.Payment)
	}

	// The statuses: one shipped, the hand-over's status, the customer told.
	st := conn.Statuses[0]
	r := m.PostForm("/connection/shop/statuses", url.Values{"key": {requestkey.New()}, "ship": {strconv.Itoa(st.ID)}, "handover": {"abc"}})
	if r.StatusCode != 422 {
		t.Errorf("a hostile hand-over status: %d", r.StatusCode)
	}
	r = m.PostForm("/connection/shop/statuses", url.Values{"key": {requestkey.New()}, "ship": {"987654"}})
	if r.StatusCode != 422 || !strings.Contains(r.Body, "has no status 987654") {
		t.Errorf("an unknown status: %d", r.StatusCode)
	}
	r = m.PostForm("/connection/shop/statuses", url.Values{"key": {requestkey.New()}, "ship": {strconv.Itoa(st.ID)}, "handover": {strconv.Itoa(st.ID)}, "notify": {"yes"}})
	if r.StatusCode != 303 {
		t.Fatalf("saving the statuses: %d %s", r.StatusCode, r.Body)
	}
	saved, _ := env.App.DB.ShopConnection(ctx)
	if len(saved.ShipStatuses) != 1 || int(saved.ShipStatuses[0]) != st.ID || saved.HandoverStatus == nil || *saved.HandoverStatus != st.ID || saved.HandoverQuiet {
		t.Errorf("the statuses saved: %v %v quiet %v", saved.ShipStatuses, saved.HandoverStatus, saved.HandoverQuiet)
	}
	if r := m.PostForm("/connection/shop/statuses", url.Values{"ship": {strconv.Itoa(st.ID)}}); r.StatusCode != 400 {
		t.Errorf("a post without its request key: %d", r.StatusCode)
	}
	if r := m.PostForm("/connection/shop/refresh", url.Values{"key": {requestkey.New()}}); r.StatusCode != 303 {
		t.Errorf("reading the lists again: %d", r.StatusCode)
	}
	if r := m.PostForm("/connection/shop/disconnect", url.Values{"key": {requestkey.New()}}); r.StatusCode != 303 {
		t.Errorf("disconnect without confirmation: %d", r.StatusCode)
	} else if _, err := env.App.DB.ShopConnection(ctx); err != nil {
		t.Error("disconnected without the confirmation")
	}
	if r := m.PostForm("/connection/shop/disconnect", url.Values{"key": {requestkey.New()}, "confirm": {"yes"}}); r.StatusCode != 303 {
		t.Errorf("disconnect: %d", r.StatusCode)
	}
	if _, err := env.App.DB.ShopConnection(ctx); err == nil {
		t.Error("still connected after disconnecting")
	}
	if !strings.Contains(m.Get("/connection").Body, `name="token"`) {
		t.Error("a disconnected shop's section does not ask for the token")
	}
}

func sameCOD(list []storage.ShopMethod, cod []string) bool {
	n := 0
	for _, p := range list {
		if p.COD {
			n++
		}
	}
	return n == len(cod)
}

// Every route of the shop's section is the managers': clerks and agents
// are refused, anonymous users sent to sign in, and nothing is connected.
func TestShopConnectionRoutesRefuseOtherRoles(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	form := url.Values{"key": {requestkey.New()}, "platform": {"shoptet"}, "base_url": {env.Sandbox.Shoptet}, "token": {sandboxtest.ShoptetToken},
		"confirm": {"yes"}}
	routes := []string{"/connection/shop", "/connection/shop/statuses", "/connection/shop/mappings", "/connection/shop/refresh", "/connection/shop/disconnect"}
	anon := env.NewBrowser()
	for _, p := range routes {
		if r := anon.PostForm(p, form); r.StatusCode != 303 || !strings.Contains(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous POST %s: %d %s", p, r.StatusCode, r.Header.Get("Location"))
		}
	}
	for _, role := range []identity.Role{identity.Clerk, identity.Agent} {
		b := env.SignedIn(role)
		for _, p := range routes {
			if r := b.PostForm(p, form); r.StatusCode != 403 {
				t.Errorf("%s POST %s: %d", role, p, r.StatusCode)
			}
		}
	}
	if _, err := env.App.DB.ShopConnection(context.Background()); err == nil {
		t.Error("a refused post connected the shop")
	}
}
