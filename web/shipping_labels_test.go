package web_test

import (
	"context"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"shipdesk/requestkey"
	"shipdesk/storage"
)

func TestLabelsPrintQueueAndStorno(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	first := place(t, b, form, "UPS")
	second := place(t, b, with(form, "key", requestkey.New()), "UPS")
	// Before export the label is pending: no label yet, a clear message.
	if resp := b.Get(first + "/label.pdf"); resp.StatusCode != 409 || !strings.Contains(resp.Body, "not ready yet") {
		t.Errorf("label while pending: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	env.Sandbox.Advance(10 * time.Minute) // exported, not yet picked up: the labels are to print
	for _, p := range []string{first, second} {
		if body := b.Get(p).Body; !strings.Contains(body, `data-testid="print-label"`) {
			t.Fatalf("%s: no print button after export: %s", p, problemsOf(body))
		}
	}
	resp := b.Get(first + "/label.pdf")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(resp.Body, "%PDF-") {
		t.Fatalf("label: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// The queue holds both; printing them is one PDF, made a label at a time
	// (one label call per shipment), so a long batch never holds every label.
	queue := b.Get("/shipping/print").Body
	ids := regexp.MustCompile(`name="ids" value="(\d+)"`).FindAllStringSubmatch(queue, -1)
	if len(ids) != 2 {
		t.Fatalf("queue has %d shipments", len(ids))
	}
	calls := countCalls(env, "shipments/label")
	resp = b.PostForm("/shipping/print", url.Values{"ids": {ids[0][1], ids[1][1]}})
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Body, "%PDF-") || countCalls(env, "shipments/label") != calls+2 {
		t.Fatalf("print selected: %d, %d label calls", resp.StatusCode, countCalls(env, "shipments/label")-calls)
	}
	if queue := b.Get("/shipping/print").Body; !strings.Contains(queue, "No labels waiting") {
		t.Error("printed labels stay in the queue")
	}
	if resp := b.PostForm("/shipping/print", url.Values{}); resp.StatusCode != 422 {
		t.Errorf("print nothing: %d", resp.StatusCode)
	}
	// The day's hand-over protocol lists both.
	if body := b.Get("/shipping/manifest").Body; !strings.Contains(body, "for 2 shipments") {
		t.Errorf("manifest page: %s", problemsOf(body))
	}
	if resp := b.Get("/shipping/manifest.pdf"); resp.StatusCode != 200 || !strings.HasPrefix(resp.Body, "%PDF-") {
		t.Errorf("manifest pdf: %d", resp.StatusCode)
	}
	// Storno needs the confirmation.
	third := place(t, b, with(form, "key", requestkey.New()), "UPS")
	b.PostForm(third+"/storno", url.Values{})
	if body := b.Get(third).Body; !strings.Contains(body, "Tick the confirmation") || strings.Contains(body, "was cancelled") {
		t.Error("storno without confirmation")
	}
	b.PostForm(third+"/storno", url.Values{"confirm": {"yes"}})
	if body := b.Get(third).Body; !strings.Contains(body, "was cancelled") {
		t.Errorf("storno: %s", problemsOf(body))
	}
	if resp := b.Get(third + "/label.pdf"); resp.StatusCode != 409 || !strings.Contains(resp.Body, "cancelled") {
		t.Errorf("label of a cancelled shipment: %d", resp.StatusCode)
	}
	// A shipment already on its way: the service's reason is shown (in the
	// reader's words: serviceerr.Known).
	env.Sandbox.Advance(24 * time.Hour)
	b.PostForm(second+"/storno", url.Values{"confirm": {"yes"}})
	if body := b.Get(second).Body; !strings.Contains(body, "can no longer be cancelled: it is") {
		t.Errorf("refused storno: %s", problemsOf(body))
	}
}

func TestCarrierAndFailedLabels(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	// PPL (the spec's G2) collects from an address with its own label: nothing to print, ever.
	carrier := place(t, b, form, "PPL")
	body := b.Get(carrier).Body
	// The page still follows the parcel (it moves), but never waits for a label.
	if !strings.Contains(body, "The courier brings the label") || strings.Contains(body, "print-label") || !strings.Contains(body, `data-step="carrier"`) {
		t.Errorf("CARRIER shipment page: %s", problemsOf(body))
	}
	if resp := b.Get(carrier + "/label.pdf"); resp.StatusCode != 409 || !strings.Contains(resp.Body, "courier brings the label") {
		t.Errorf("label of a CARRIER shipment: %d", resp.StatusCode)
	}
	// A carrier that gives no label: FAILED, contact support, no polling.
	env.Sandbox.Control("POST", "/sandbox/carriers/ups/behaviour", map[string]any{"fail_labels": true})
	env.Sandbox.Control("POST", "/sandbox/carriers/fedex/behaviour", map[string]any{"fail_labels": true})
	failed := place(t, b, with(form, "key", requestkey.New()), "UPS")
	env.Sandbox.Advance(10 * time.Minute) // before the courier's pickup
	body = b.Get(failed).Body
	if !strings.Contains(body, "contact the service") || !strings.Contains(body, `data-step="label_failed"`) || strings.Contains(body, "print-label") {
		t.Errorf("FAILED shipment page: %s", problemsOf(body))
	}
}

func TestSendAsDraft(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	resp := b.PostForm("/shipping/new/draft", with(form, "reference", "OBJ-77"))
	if resp.StatusCode != 303 || !strings.HasPrefix(resp.Header.Get("Location"), "/shipping/drafts/") {
		t.Fatalf("draft: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	body := b.Get(resp.Header.Get("Location")).Body
	for _, want := range []string{`data-testid="draft-id"`, "OBJ-77", "serviceId", "nothing is dispatched"} {
		if !strings.Contains(body, want) {
			t.Errorf("draft page lacks %q", want)
		}
	}
	// Missing recipient: the form says so before the service is asked.
	resp = b.PostForm("/shipping/new/draft", with(form, "to_surname", "", "to_firstname", ""))
	if resp.StatusCode != 422 || !strings.Contains(resp.Body, `id="to_surname-error"`) {
		t.Errorf("draft without recipient: %d", resp.StatusCode)
	}
	if n := upstreamTotal(t, env); n != 0 {
		t.Errorf("a draft created %d shipments", n)
	}
}

// When our record says READY but the service disagrees, its 404 and 400 become
// messages, and nothing breaks.
func TestLabelRefusalsFromTheService(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	carrier := place(t, b, form, "PPL") // CARRIER, exported: label 400
	env.Sandbox.Advance(20 * time.Minute)
	pending := place(t, b, with(form, "key", requestkey.New()), "UPS") // still CREATED at the service: label 404
	ctx := context.Background()
	for _, p := range []string{pending, carrier} {
		id, _ := strconv.ParseInt(p[strings.LastIndex(p, "/")+1:], 10, 64)
		s, err := env.App.DB.ShipmentByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		stale := storage.Reply{Status: "EXPORTED", LabelMode: "PRINT", LabelStatus: "READY", Packages: s.Packages}
		if err := env.App.DB.RecordState(ctx, id, stale, env.App.Upstream.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if resp := b.Get(pending + "/label.pdf"); resp.StatusCode != 404 || !strings.Contains(resp.Body, "does not know this shipment") {
		t.Errorf("label the service does not have yet: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if resp := b.Get(carrier + "/label.pdf"); resp.StatusCode != 422 || !strings.Contains(resp.Body, "Could not download the label") {
		t.Errorf("label the service refuses: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
}
