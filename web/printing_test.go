package web_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"shipdesk/app/apptest"
	"shipdesk/requestkey"
)

// placeN orders n shipments of a carrier and returns their ids.
func placeN(t *testing.T, b *apptest.Browser, form url.Values, carrier string, n int) []string {
	t.Helper()
	var ids []string
	for range n {
		p := place(t, b, with(form, "key", requestkey.New()), carrier)
		ids = append(ids, p[strings.LastIndex(p, "/")+1:])
	}
	return ids
}

// placeLabelFree orders a label-free shipment (ZASILKOVNA, at a point) and returns its id.
func placeLabelFree(t *testing.T, b *apptest.Browser, env *apptest.Env) string {
	t.Helper()
	_, full := order(t, b, with(shipmentForm(t, env), "handover", "POINT"), "Zásilkovna Home")
	resp := b.PostForm("/shipping/new/order", with(full, "label_less", "on"))
	if resp.StatusCode != 303 {
		t.Fatalf("label-free order: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	p := resp.Header.Get("Location")
	return p[strings.LastIndex(p, "/")+1:]
}

// labelsMade moves the sandbox past export (not as far as the courier's
// pickup time) and runs the labels job, as the scheduler would.
func labelsMade(t *testing.T, env *apptest.Env) {
	t.Helper()
	env.Sandbox.Advance(10 * time.Minute) // exported, before the courier picks it up 15 minutes later
	if _, err := env.App.Jobs.Labels(context.Background()); err != nil {
		t.Fatal(err)
	}
}

var (
	tickedID = regexp.MustCompile(`<input type="checkbox" name="ids" value="(\d+)"([^>]*)>`)
	version  = regexp.MustCompile(`name="v" value="([0-9a-f]+)"`)
)

// ticks maps the queue's shipment ids to whether each is ticked.
func ticks(body string) map[string]bool {
	out := map[string]bool{}
	for _, m := range tickedID.FindAllStringSubmatch(body, -1) {
		out[m[1]] = regexp.MustCompile(`\schecked[\s/>]`).MatchString(m[2] + ">")
	}
	return out
}

func TestPrintQueueCountsLabelsBeingMadeAndLeavesOutLabelFree(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	ids := placeN(t, b, form, "UPS", 3)
	free := placeLabelFree(t, b, env)
	carrier := placeN(t, b, form, "PPL", 1)[0] // the courier brings its label
	queue := b.Get("/shipping/print")
	doc := page(t, queue.Body)
	if got := doc.Find(`[data-testid=being-made-count]`).Text(); got != "3 labels are being made" {
		t.Errorf("being made: %q", got)
	}
	if doc.Find(`[data-testid=print-none]`).Length() != 1 || len(ticks(queue.Body)) != 0 {
		t.Error("labels shown ready before they are made")
	}
	if got := doc.Find(`#print-live`).AttrOr("hx-trigger", ""); got != "every 5s" {
		t.Errorf("the list does not refresh itself: hx-trigger %q", got)
	}
	// The list's own answer: unchanged is 204, nothing to swap.
	live := b.Get("/shipping/print/live")
	v := version.FindStringSubmatch(live.Body)
	if live.StatusCode != 200 || v == nil {
		t.Fatalf("live list: %d", live.StatusCode)
	}
	if r := b.Get("/shipping/print/live?v=" + v[1]); r.StatusCode != 204 {
		t.Errorf("unchanged list answered %d", r.StatusCode)
	}

	labelsMade(t, env)
	for _, id := range []string{free, carrier} {
		s, err := env.App.DB.ShipmentByID(context.Background(), atoi(id))
		if err != nil {
			t.Fatal(err)
		}
		if id == free && (s.LabelStatus != "READY" || s.LabelMode != "CODE") {
			t.Fatalf("the label-free shipment is %s/%s, want READY/CODE", s.LabelMode, s.LabelStatus)
		}
	}
	// A tick taken off by the clerk stays off; a label that arrives comes ticked.
	q := url.Values{"v": {v[1]}, "shown": {ids[0], ids[1]}, "ids": {ids[0]}}
	live = b.Get("/shipping/print/live?" + q.Encode())
	got := ticks(live.Body)
	want := map[string]bool{ids[0]: true, ids[1]: false, ids[2]: true}
	if live.StatusCode != 200 || len(got) != 3 || got[ids[0]] != want[ids[0]] || got[ids[1]] != want[ids[1]] || got[ids[2]] != want[ids[2]] {
		t.Errorf("after the labels came: %d, ticks %v, want %v", live.StatusCode, got, want)
	}
	if strings.Contains(live.Body, "being made") {
		t.Error("labels still shown as being made")
	}
	if _, ok := got[free]; ok {
		t.Error("the label-free shipment is in the print queue")
	}
	if _, ok := got[carrier]; ok {
		t.Error("a shipment whose courier brings the label is in the print queue")
	}
	// The page opens with every ready label ticked and the select-all box.
	queue = b.Get("/shipping/print")
	doc = page(t, queue.Body)
	if all := doc.Find(`label.pick-all #pick-all[data-select-all]`); all.Length() != 1 || strings.TrimSpace(all.Parent().Text()) != "Select all labels" {
		t.Error("no select-all checkbox in the list's header")
	} else if _, checked := all.Attr("checked"); !checked {
		t.Error("select-all is not ticked when every label is")
	}
	if got := doc.Find(`[data-testid=ready-count]`).Text(); got != "3 labels ready to print" {
		t.Errorf("ready: %q", got)
	}
	// Hostile values in the list's question change nothing but the ticks.
	for _, bad := range []string{"ids=abc&shown=-1", "ids=" + strings.Repeat("9", 40), "v=%00", "shown=" + free} {
		if r := b.Get("/shipping/print/live?" + bad); r.StatusCode != 200 || len(ticks(r.Body)) != 3 {
			t.Errorf("live list with %.40s: %d", bad, r.StatusCode)
		}
	}
}

// sheetPage is a page of a label sheet: its size and the positions of the
// labels drawn on it, read from the PDF's page tree and content streams.
type sheetPage struct {
	size      string
	positions []string
}

func sheetPages(t *testing.T, pdf string) []sheetPage {
	t.Helper()
	if !strings.HasPrefix(pdf, "%PDF-") || !strings.HasSuffix(pdf, "%%EOF\n") {
		t.Fatalf("not a whole PDF: %.20q…", pdf)
	}
	kids := regexp.MustCompile(`/Type /Pages /Kids \[([^\]]*)\] /Count (\d+)`).FindStringSubmatch(pdf)
	if kids == nil {
		t.Fatal("no page tree")
	}
	var out []sheetPage
	for _, k := range regexp.MustCompile(`(\d+) 0 R`).FindAllStringSubmatch(kids[1], -1) {
		pg := regexp.MustCompile(`\n` + k[1] + ` 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox \[0 0 ([\d.]+ [\d.]+)\].*?/Contents (\d+) 0 R`).FindStringSubmatch(pdf)
		if pg == nil {
			t.Fatalf("page object %s not found", k[1])
		}
		content := regexp.MustCompile(`\n` + pg[2] + ` 0 obj\n<< /Length \d+ >>\nstream\n((?s:.*?))endstream`).FindStringSubmatch(pdf)
		if content == nil {
			t.Fatalf("content of page %s not found", k[1])
		}
		p := sheetPage{size: pg[1]}
		for _, m := range regexp.MustCompile(`cm /L\d+ Do Q % position (\d)`).FindAllStringSubmatch(content[1], -1) {
			p.positions = append(p.positions, m[1])
		}
		out = append(out, p)
	}
	if strconv.Itoa(len(out)) != kids[2] {
		t.Fatalf("%d pages, /Count %s", len(out), kids[2])
	}
	return out
}

const (
	a4Size = "595.28 841.89"
	a6Size = "297.64 419.53"
)

func TestPrintA4FromAPositionThenReprintTheBatch(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	ids := placeN(t, b, shipmentForm(t, env), "UPS", 3)
	labelsMade(t, env)
	calls := countCalls(env, "shipments/label")
	resp := b.PostForm("/shipping/print", url.Values{"ids": ids, "format": {"A4"}, "start": {"3"}})
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("print: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	// Positions 3 and 4 of the first sheet, then 1 of the second.
	pages := sheetPages(t, resp.Body)
	if len(pages) != 2 || pages[0].size != a4Size || pages[1].size != a4Size ||
		!slices.Equal(pages[0].positions, []string{"3", "4"}) || !slices.Equal(pages[1].positions, []string{"1"}) {
		t.Errorf("A4 from position 3: %+v", pages)
	}
	if n := countCalls(env, "shipments/label") - calls; n != 3 {
		t.Errorf("%d label calls for 3 labels", n)
	}
	// The print is recorded; the queue is empty and offers it again.
	batches, err := env.App.DB.RecentPrintBatches(context.Background(), 10)
	if err != nil || len(batches) != 1 {
		t.Fatalf("batches: %v %v", batches, err)
	}
	first := batches[0]
	var printed []string
	for _, id := range first.ShipmentIDs {
		printed = append(printed, strconv.FormatInt(id, 10))
	}
	if !slices.Equal(printed, ids) || first.Format != "A4" || first.StartAt != 3 || first.Labels != 3 || first.PrintedByName == "" || first.ReprintOf != nil {
		t.Errorf("recorded batch: %+v", first)
	}
	queue := b.Get("/shipping/print").Body
	doc := page(t, queue)
	if !strings.Contains(queue, "No labels waiting") {
		t.Error("printed labels stay in the queue")
	}
	row := doc.Find(`[data-testid=batches] tbody tr`)
	if row.Length() != 1 || !strings.Contains(row.Text(), "A4 from position 3") || !strings.Contains(row.Text(), first.PrintedByName) {
		t.Errorf("last prints: %q", row.Text())
	}
	if _, checked := doc.Find(`[data-testid=paper] input[name=format][value=A4]`).Attr("checked"); !checked {
		t.Error("the paper of the last print is not chosen for the next")
	}
	// Reprint on A6: the same shipments, a page each, recorded as a reprint.
	action := row.Find(`form.reprint`).AttrOr("action", "")
	if action != "/shipping/print/batches/"+strconv.FormatInt(first.ID, 10)+"/reprint" {
		t.Fatalf("reprint form posts to %q", action)
	}
	resp = b.PostForm(action, url.Values{"format": {"A6"}, "start": {"1"}})
	if resp.StatusCode != 200 {
		t.Fatalf("reprint: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	pages = sheetPages(t, resp.Body)
	if len(pages) != 3 || pages[0].size != a6Size || pages[2].size != a6Size {
		t.Errorf("reprint on A6: %+v", pages)
	}
	batches, _ = env.App.DB.RecentPrintBatches(context.Background(), 10)
	if len(batches) != 2 || batches[0].ReprintOf == nil || *batches[0].ReprintOf != first.ID ||
		!slices.Equal(batches[0].ShipmentIDs, first.ShipmentIDs) || batches[0].Format != "A6" {
		t.Errorf("reprint recorded as %+v", batches[0])
	}
	if body := b.Get("/shipping/print").Body; !strings.Contains(body, "again, of no. "+strconv.FormatInt(first.ID, 10)) {
		t.Error("the last prints do not say which is a reprint")
	}
}

func TestPrintRefusesBadPaperSelectionsAndBatches(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	ids := placeN(t, b, form, "UPS", 1)
	free := placeLabelFree(t, b, env)
	carrier := placeN(t, b, form, "PPL", 1)[0]
	labelsMade(t, env)
	calls := countCalls(env, "shipments/label")
	bad := []struct {
		name   string
		form   url.Values
		status int
		want   string
	}{
		{"unknown format", url.Values{"ids": ids, "format": {"A5"}}, 422, "Choose the paper"},
		{"two formats", url.Values{"ids": ids, "format": {"A4", "A6"}}, 422, "Choose the paper"},
		{"position 0", url.Values{"ids": ids, "format": {"A4"}, "start": {"0"}}, 422, "position of the first label"},
		{"position 5", url.Values{"ids": ids, "format": {"A4"}, "start": {"5"}}, 422, "position of the first label"},
		{"position NaN", url.Values{"ids": ids, "format": {"A4"}, "start": {"NaN"}}, 422, "position of the first label"},
		{"position huge", url.Values{"ids": ids, "format": {"A4"}, "start": {"99999999999999999999"}}, 422, "position of the first label"},
		{"position 1e308", url.Values{"ids": ids, "format": {"A6"}, "start": {"1e308"}}, 422, "position of the first label"},
		{"no selection", url.Values{"format": {"A6"}}, 422, "Select the labels"},
		{"no id", url.Values{"ids": {"abc"}}, 422, "could not be read"},
		{"too many", url.Values{"ids": slices.Repeat([]string{ids[0]}, 501)}, 422, "at most 500"},
		{"unknown shipment", url.Values{"ids": {"987654"}}, 409, "None of the selected shipments"},
		{"label-free and courier's label", url.Values{"ids": {free, carrier}}, 409, "None of the selected shipments"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			resp := b.PostForm("/shipping/print", c.form)
			if resp.StatusCode != c.status || !strings.Contains(resp.Body, c.want) {
				t.Errorf("%d %s", resp.StatusCode, problemsOf(resp.Body))
			}
		})
	}
	for _, p := range []string{"/shipping/print/batches/999999/reprint", "/shipping/print/batches/abc/reprint", "/shipping/print/batches/-1/reprint", "/shipping/print/batches/0/reprint"} {
		if resp := b.PostForm(p, url.Values{"format": {"A6"}}); resp.StatusCode != 404 || !strings.Contains(resp.Body, "no such print") {
			t.Errorf("%s: %d", p, resp.StatusCode)
		}
	}
	if n := countCalls(env, "shipments/label") - calls; n != 0 {
		t.Errorf("bad requests made %d label calls", n)
	}
	// A real batch, reprinted on a paper that does not exist.
	if resp := b.PostForm("/shipping/print", url.Values{"ids": ids}); resp.StatusCode != 200 {
		t.Fatalf("print: %d", resp.StatusCode)
	}
	batches, _ := env.App.DB.RecentPrintBatches(context.Background(), 1)
	if len(batches) != 1 {
		t.Fatal("no batch recorded")
	}
	reprint := "/shipping/print/batches/" + strconv.FormatInt(batches[0].ID, 10) + "/reprint"
	if resp := b.PostForm(reprint, url.Values{"format": {"<script>"}, "start": {"2"}}); resp.StatusCode != 422 || strings.Contains(resp.Body, "<script>") {
		t.Errorf("reprint on a bad paper: %d", resp.StatusCode)
	}
	// Only the label-free shipment of a batch is left when the rest is cancelled: nothing to print.
	if resp := b.Get("/shipping/print"); resp.StatusCode != 200 {
		t.Errorf("after bad input the queue answers %d", resp.StatusCode)
	}
}

// inflated is every stream of a PDF, decompressed where it is compressed.
func inflated(pdf string) []byte {
	var out []byte
	rest := []byte(pdf)
	for {
		i := bytes.Index(rest, []byte("stream"))
		if i < 0 {
			return out
		}
		rest = bytes.TrimLeft(rest[i+len("stream"):], "\r\n")
		j := bytes.Index(rest, []byte("endstream"))
		if j < 0 {
			return out
		}
		if r, err := zlib.NewReader(bytes.NewReader(rest[:j])); err == nil {
			b, _ := io.ReadAll(r)
			out = append(out, b...)
		}
		rest = rest[j+len("endstream"):]
	}
}

// drawn counts how often a text is drawn in a PDF whose fonts are embedded
// with an Identity encoding (fpdf's UTF-8 fonts): each letter by its code
// point, in UTF-16.
func drawn(pdf, s string) int {
	var want []byte
	for _, u := range utf16.Encode([]rune(s)) {
		want = append(want, byte(u>>8), byte(u))
	}
	// fpdf writes the text in a literal string: with \, ( and ) escaped.
	want = []byte(strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`, "\r", `\r`).Replace(string(want)))
	return bytes.Count(inflated(pdf), want)
}

var pdfPage = regexp.MustCompile(`/Type /Page\b`)

// When the service fails on the first label nothing is sent but the queue
// with a message; when it fails later, the PDF ends with the labels it has,
// only they are recorded, and the rest stay in the queue.
func TestPrintWhenTheServiceFails(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	ids := placeN(t, b, shipmentForm(t, env), "UPS", 3)
	labelsMade(t, env)
	env.Sandbox.Fault("/api/v1/shipments/label", map[string]any{"error_rate": 1, "count": 20})
	resp := b.PostForm("/shipping/print", url.Values{"ids": ids})
	if resp.StatusCode != 503 || !strings.Contains(resp.Body, "answered with error 503") || strings.HasPrefix(resp.Body, "%PDF") {
		t.Errorf("first label failed: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if batches, _ := env.App.DB.RecentPrintBatches(context.Background(), 10); len(batches) != 0 {
		t.Errorf("a failed print was recorded: %+v", batches)
	}
	env.Sandbox.Control("DELETE", "/sandbox/faults", nil)
	// The first label comes (the first fault only counts it), the rest fail.
	env.Sandbox.Fault("/api/v1/shipments/label", map[string]any{"count": 1})
	env.Sandbox.Fault("/api/v1/shipments/label", map[string]any{"error_rate": 1, "count": 20})
	resp = b.PostForm("/shipping/print", url.Values{"ids": ids})
	if resp.StatusCode != 200 {
		t.Fatalf("print with the service failing after one label: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if pages := sheetPages(t, resp.Body); len(pages) != 1 {
		t.Errorf("%d pages, want the one label that came", len(pages))
	}
	batches, _ := env.App.DB.RecentPrintBatches(context.Background(), 10)
	if len(batches) != 1 || len(batches[0].ShipmentIDs) != 1 || strconv.FormatInt(batches[0].ShipmentIDs[0], 10) != ids[0] {
		t.Errorf("recorded: %+v", batches)
	}
	env.Sandbox.Control("DELETE", "/sandbox/faults", nil)
	if got := ticks(b.Get("/shipping/print").Body); len(got) != 2 {
		t.Errorf("the labels that did not come are not in the queue: %v", got)
	}
}
