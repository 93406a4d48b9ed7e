package web_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"shipdesk/desk"
	"shipdesk/storage"
)

// A row may go label-free by the clerk's own choice; the batch's
// label-free shipments then have one sheet of their codes, in large letters
// and as barcodes, linked from the batch's prints.
func TestBatchLabelFreeCodesOnOneSheet(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	ctx := context.Background()
	id := importOrders(t, env, b)
	rows := env.SettledBatch(t, id)
	path := "/shipping/batches/" + itoa(id)
	if r := b.Get(path + "/codes.pdf"); r.StatusCode != http.StatusNotFound || !strings.Contains(r.Body, "No shipment of this batch goes label-free") {
		t.Errorf("codes of a batch without label-free shipments: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	// The clerk takes the label-free offer of two rows: never chosen by
	// itself, it is one the clerk may choose.
	taken := map[int64]storage.BatchRow{}
	for _, r := range rows {
		if r.State != storage.RowPriced || len(taken) == 2 {
			continue
		}
		var notes []desk.RowOffer
		_ = jsonUnmarshal(r.Offers, &notes)
		for _, n := range notes {
			if n.Offer.LabelFree && n.Choice == r.Chosen {
				t.Errorf("line %d: a label-free offer was chosen without the clerk", r.Line)
			}
			if n.Offer.LabelFree && n.ByHand && !n.Eligible && len(taken) < 2 && taken[r.ID].ID == 0 {
				resp := postHTMX(env, b, path+"/rows/"+itoa(r.ID)+"/offer", url.Values{"choice": {n.Choice}})
				if resp.StatusCode != 200 {
					t.Fatalf("line %d: choose %s: %d %s", r.Line, n.Choice, resp.StatusCode, resp.Body)
				}
				taken[r.ID] = r
			}
		}
	}
	if len(taken) != 2 {
		t.Fatalf("%d rows with a label-free offer", len(taken))
	}
	if r := b.PostForm(path+"/order", url.Values{}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("order: %d", r.StatusCode)
	}
	rows = env.SettledBatch(t, id)
	for _, r := range rows {
		if _, ok := taken[r.ID]; !ok {
			continue
		}
		if r.State != storage.RowOrdered || r.ShipmentID == nil {
			t.Fatalf("line %d: %s %v", r.Line, r.State, r.Error)
		}
		s, _ := env.App.DB.ShipmentByID(ctx, *r.ShipmentID)
		if !s.LabelLess || !desk.LabelFree(s) {
			t.Errorf("line %d: ordered with a label (%s)", r.Line, s.LabelMode)
		}
	}
	// Before the service gives the codes the sheet says so; the link is there.
	doc := page(t, b.Get(path).Body)
	link := doc.Find(`[data-testid=codes-pdf]`)
	if link.Length() != 1 || !strings.Contains(link.Text(), "2 label-free shipments") {
		t.Fatalf("no link to the codes: %q", doc.Find(`[data-testid=batch-prints]`).Text())
	}
	if pdf := b.Get(link.AttrOr("href", "")); pdf.StatusCode != 200 || drawn(pdf.Body, "No code yet") != 2 {
		t.Errorf("codes before export: %d, %d without a code", pdf.StatusCode, drawn(pdf.Body, "No code yet"))
	}
	// Exported: each shipment has its code, on the sheet as on its page.
	env.Sandbox.Advance(10 * time.Minute)
	if _, err := env.App.Jobs.Labels(ctx); err != nil {
		t.Fatal(err)
	}
	pdf := b.Get(link.AttrOr("href", ""))
	if pdf.StatusCode != 200 || pdf.Header.Get("Content-Type") != "application/pdf" || len(pdfPage.FindAllString(pdf.Body, -1)) != 1 {
		t.Fatalf("codes: %d %s, %d pages", pdf.StatusCode, pdf.Header.Get("Content-Type"), len(pdfPage.FindAllString(pdf.Body, -1)))
	}
	for _, r := range taken {
		row, _ := env.App.DB.BatchRow(ctx, id, r.ID)
		s, _ := env.App.DB.ShipmentByID(ctx, *row.ShipmentID)
		codes := desk.HandoverCodes(s)
		if len(codes) != 1 {
			t.Fatalf("%s: codes %v (%s/%s)", s.Reference, codes, s.LabelMode, s.LabelStatus)
		}
		shown := regexp.MustCompile(`data-testid="handover-code">([A-Z0-9]+)<`).FindStringSubmatch(b.Get("/shipping/shipments/" + itoa(s.ID)).Body)
		if shown == nil || shown[1] != codes[0] {
			t.Errorf("%s: the page shows %v, the sheet %s", s.Reference, shown, codes[0])
		}
		for _, text := range []string{codes[0], s.Reference, s.RecipientName, s.Tracking()} {
			if drawn(pdf.Body, text) == 0 {
				t.Errorf("the sheet lacks %q", text)
			}
		}
		if !bytes.Contains(inflated(pdf.Body), []byte("/Subtype /Image")) && !strings.Contains(pdf.Body, "/Subtype /Image") {
			t.Error("the sheet has no barcode")
		}
	}
	if drawn(pdf.Body, "No code yet") != 0 || drawn(pdf.Body, "Hand-over code") != 2 {
		t.Errorf("after export: %d without a code, %d codes", drawn(pdf.Body, "No code yet"), drawn(pdf.Body, "Hand-over code"))
	}
	// Only the label-free shipments are on it.
	for _, r := range rows {
		if _, ok := taken[r.ID]; ok || r.ShipmentID == nil {
			continue
		}
		s, _ := env.App.DB.ShipmentByID(ctx, *r.ShipmentID)
		if drawn(pdf.Body, s.Reference) != 0 {
			t.Errorf("%s has a label and is on the sheet", s.Reference)
		}
	}
	// In Czech.
	b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {path}})
	cs := b.Get(link.AttrOr("href", ""))
	if drawn(cs.Body, "Kód pro předání") != 2 || drawn(cs.Body, "Příjemce") != 2 {
		t.Errorf("the Czech sheet: %d codes", drawn(cs.Body, "Kód pro předání"))
	}
	if !strings.Contains(page(t, b.Get(path).Body).Find(`[data-testid=codes-pdf]`).Text(), "Kódy 2 zásilek bez štítku") {
		t.Error("the Czech link")
	}
}
