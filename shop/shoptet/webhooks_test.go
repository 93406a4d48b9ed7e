package shoptet_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"shipdesk/apperr"
	api "shipdesk/client/shoptet"
	"shipdesk/clock"
	"shipdesk/shop/shoptet"
)

// post is one notification as it arrived.
type post struct {
	body      []byte
	signature string
}

// receiver is an endpoint on this machine that keeps what the shop posts.
type receiver struct {
	url   string
	mu    sync.Mutex
	posts []post
}

func listen(t *testing.T) *receiver {
	r := &receiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.posts = append(r.posts, post{b, req.Header.Get(api.SignatureHeader)})
		r.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	r.url = srv.URL + "/hooks/shoptet"
	return r
}

// next waits for the n-th post.
func (r *receiver) next(t *testing.T, n int) post {
	t.Helper()
	for watch := clock.Start(); watch.Elapsed() < 10*time.Second; time.Sleep(20 * time.Millisecond) {
		r.mu.Lock()
		if len(r.posts) >= n {
			p := r.posts[n-1]
			r.mu.Unlock()
			return p
		}
		r.mu.Unlock()
	}
	t.Fatalf("no notification number %d arrived", n)
	return post{}
}

// The desk's URL gets the order events (once, however often it asks);
// a notification signed with the shop's key says which order to read, and
// one signed otherwise, or changed on the way, is refused.
func TestWebhooks(t *testing.T) {
	w := start(t, options{})
	ctx := context.Background()
	old := listen(t)
	if err := w.src.Listen(ctx, old.url); err != nil {
		t.Fatal(err)
	}
	here := listen(t)
	for range 2 {
		if err := w.src.Listen(ctx, here.url); err != nil {
			t.Fatal(err)
		}
	}
	c, _ := api.New(apiConfig(w))
	hooks, err := c.Webhooks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	events := map[string]string{}
	for _, h := range hooks {
		if _, twice := events[h.Event]; twice {
			t.Errorf("%s registered twice", h.Event)
		}
		events[h.Event] = h.URL
	}
	if events["order:create"] != here.url || events["order:update"] != here.url || len(events) < 2 {
		t.Fatalf("webhooks %+v", events)
	}

	key, err := w.src.RenewKey(ctx)
	if err != nil || key == "" || key != w.sim.SignatureKey() {
		t.Fatalf("key %q: %v", key, err)
	}
	code := w.addOrders(t, 1)[0]
	p := here.next(t, 1)
	ch, err := shoptet.Notification(key, p.body, p.signature)
	if err != nil || ch.Code != code || ch.Event != "create" || ch.Changed.IsZero() {
		t.Fatalf("notification %+v: %v", ch, err)
	}
	if _, err := shoptet.Notification("another key", p.body, p.signature); !apperr.Is(err, apperr.Unauthorized) {
		t.Errorf("another key: %v", err)
	}
	changed := append([]byte(nil), p.body...)
	changed[len(changed)-3] ^= 1
	if _, err := shoptet.Notification(key, changed, p.signature); err != shoptet.ErrBadSignature {
		t.Errorf("a changed body: %v", err)
	}
	signed := []byte(`{"eshopId":1,"event":"product:create","eventCreated":"2026-11-23T10:00:00+0100","eventInstance":"x"}`)
	if _, err := shoptet.Notification(key, signed, api.Sign(key, signed)); !apperr.Is(err, apperr.Invalid) {
		t.Errorf("a product's notification: %v", err)
	}
	old.mu.Lock()
	defer old.mu.Unlock()
	if len(old.posts) != 0 {
		t.Errorf("the old URL still gets notifications")
	}
}
