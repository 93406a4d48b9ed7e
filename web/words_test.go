package web_test

import (
	"context"
	"html"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/views"
)

// The languages a person may read, each with a context that says a catalog
// text as the dashboard (in the shop's zone, Europe/Prague) says it.
var readers = []struct {
	code string
	ctx  context.Context
}{
	{"en", i18n.WithZone(i18n.WithLang(context.Background(), i18n.English), i18n.Prague)},
	{"cs", i18n.WithZone(i18n.WithLang(context.Background(), i18n.Czech), i18n.Prague)},
}

func readIn(t *testing.T, b *apptest.Browser, lang string) {
	t.Helper()
	if r := b.PostForm("/language", url.Values{"lang": {lang}, "back": {"/"}}); r.StatusCode != 303 {
		t.Fatalf("switch to %s: %d", lang, r.StatusCode)
	}
}

// A failed call says what happened, in the reader's language: the service
// failed with its status (it answered), it did not answer in time, or its
// answer was lost after the request was sent. Comparing offers talks of no
// shipment: there is none yet.
func TestFailuresSayWhatHappened(t *testing.T) {
	t.Parallel()
	env, b := impatientDesk(t, apptest.Options{UpstreamTimeout: 700 * time.Millisecond})
	form := shipmentForm(t, env)
	for _, c := range []struct {
		name  string
		fault map[string]any
		key   string
		args  []any
	}{
		{"the service failed", map[string]any{"error_rate": 1, "count": 10}, desk.Failed, []any{503}},
		{"no answer in time", map[string]any{"latency_ms": 1500, "count": 10}, desk.NoAnswer, nil},
		{"answer lost", map[string]any{"drop_rate": 1, "count": 10}, desk.AnswerLost, nil},
	} {
		for _, r := range readers {
			t.Run(c.name+" "+r.code, func(t *testing.T) {
				readIn(t, b, r.code)
				env.Sandbox.Control("DELETE", "/sandbox/faults", nil)
				env.Sandbox.Fault("/api/v1/rates/get", c.fault)
				resp := b.PostForm("/shipping/new/compare", form)
				env.Sandbox.Control("DELETE", "/sandbox/faults", nil)
				if resp.StatusCode != 503 {
					t.Errorf("compare: %d, want 503", resp.StatusCode)
				}
				body := html.UnescapeString(resp.Body)
				want := apperr.Msg(c.key, c.args...).In(r.ctx)
				if !strings.Contains(body, want) {
					t.Errorf("compare says %s, want %q", problemsOf(resp.Body), want)
				}
				for _, other := range []string{desk.Failed, desk.NoAnswer, desk.AnswerLost} {
					if other != c.key && strings.Contains(body, apperr.Msg(other, 503).In(r.ctx)) {
						t.Errorf("compare also says %s", other)
					}
				}
				for _, shipment := range []string{"shipment's", "zásilk"} {
					if strings.Contains(strings.ToLower(problemsOf(resp.Body)), shipment) {
						t.Errorf("compare talks of a shipment: %s", problemsOf(resp.Body))
					}
				}
			})
		}
	}
}

// An order whose answer was lost is in the uncertain state, called by one
// name in the list and on its page; its waiting box says when it may be
// ordered again in the shop's zone, the same moment in the same words in
// both of its sentences.
func TestUncertainOrderInOneNameAndTheShopsTime(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	_, full := order(t, b, shipmentForm(t, env), "UPS")
	env.Sandbox.Fault("/api/v1/shipments/create", map[string]any{"drop_after_rate": 1, "count": 1})
	env.Sandbox.Fault("/api/v1/shipments/list", map[string]any{"drop_rate": 1, "count": 10})
	resp := b.PostForm("/shipping/new/order", full)
	if resp.StatusCode != 303 {
		t.Fatalf("create with a dropped answer: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	at := resp.Header.Get("Location")
	id, _ := strconv.ParseInt(at[strings.LastIndex(at, "/")+1:], 10, 64)
	s, err := env.App.DB.ShipmentByID(context.Background(), id)
	if err != nil || s.State != "unknown" || s.SettlesAt == nil {
		t.Fatalf("shipment %d: %+v %v", id, s, err)
	}
	utc := s.SettlesAt.UTC().Format("15:04")
	for _, r := range readers {
		readIn(t, b, r.code)
		name := i18n.T(r.ctx, views.Uncertain)
		list := page(t, b.Get("/tracking").Body).Find(`main`).Text()
		shown := b.Get(at).Body
		if !strings.Contains(list, name) || !strings.Contains(page(t, shown).Find(`main`).Text(), name) {
			t.Errorf("%s: the uncertain state is not called %q in the list and on the page", r.code, name)
		}
		waiting := page(t, shown).Find(`main`).Text()
		deadline := i18n.Deadline(r.ctx, *s.SettlesAt)
		if n := strings.Count(waiting, deadline); n < 2 {
			t.Errorf("%s: the page says %q %d times, want in both sentences: %s", r.code, deadline, n, waiting)
		}
		if strings.Contains(waiting, utc) {
			t.Errorf("%s: the page shows the UTC time %s: %s", r.code, utc, waiting)
		}
	}
}

// The returns desk shows every time in the shop's zone: when a commission
// was lodged (stored by us), its history and its transport (written by the
// service in its own Czech time) agree.
func TestReturnsTimesInTheShopsZone(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	agent := signIn(t, env, "agent8", identity.Agent)
	if err := env.App.Bench.RefreshProducts(t.Context()); err != nil {
		t.Fatal(err)
	}
	form := commissionForm(t, env)
	form["two_way"] = "on" // the service orders the transport from the customer at once
	resp := postMultipart(t, env, agent, form, "receipt.pdf", pdfBytes)
	if resp.StatusCode != 303 {
		t.Fatalf("create commission: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	at := resp.Header.Get("Location")
	id, _ := strconv.ParseInt(at[strings.LastIndex(at, "/")+1:], 10, 64)
	c, err := env.App.DB.CommissionByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range readers {
		readIn(t, agent, r.code)
		doc := page(t, agent.Get(at).Body)
		// The service took it when we stored it, give or take a minute.
		near := []string{i18n.DateTime(r.ctx, c.CreatedAt), i18n.DateTime(r.ctx, c.CreatedAt.Add(time.Minute))}
		for what, text := range map[string]string{"history": doc.Find(`[data-testid=history]`).Text(),
			"transport": doc.Find(`[data-testid=transport]`).Text(), "list": page(t, agent.Get("/returns").Body).Find(`main`).Text()} {
			if !strings.Contains(text, near[0]) && !strings.Contains(text, near[1]) {
				t.Errorf("%s: the %s does not say %q (Prague): %q", r.code, what, near[0], text)
			}
			if strings.Contains(text, c.CreatedAt.UTC().Format("15:04")) {
				t.Errorf("%s: the %s shows UTC %s: %q", r.code, what, c.CreatedAt.UTC().Format("15:04"), text)
			}
		}
	}
}

// The service's refusal of a storno reads in the reader's language, the
// shipment's state in words.
func TestRefusedStornoReadsInCzech(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	shipment := place(t, b, shipmentForm(t, env), "UPS")
	env.Sandbox.Advance(24 * time.Hour)
	readIn(t, b, "cs")
	b.PostForm(shipment+"/storno", url.Values{"confirm": {"yes"}})
	body := html.UnescapeString(b.Get(shipment).Body)
	if !strings.Contains(body, "už nelze stornovat: je ve stavu „") || strings.Contains(body, "cannot be cancelled") {
		t.Errorf("refused storno in Czech: %s", problemsOf(body))
	}
	for _, code := range []string{"ONPICKUP", "INTRANSIT", "EXPORTED", "DELIVERED", "ONDELIVERY"} {
		if strings.Contains(body, "stavu „"+code) {
			t.Errorf("the state is not in words: %s", problemsOf(body))
		}
	}
}
