package web_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/desk"
	"shipdesk/identity"
	"shipdesk/orderfile"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// The batch benchmarks: a day's file imported, priced, ordered and printed
// through the dashboard against the in-process sandbox, beside the same
// upstream calls made straight through the client, one after another and
// as many at a time as the batch makes them.

// upstreamCall is one call the sandbox was asked.
type upstreamCall struct {
	Op    string // rates/get, shipments/create, …
	Query string
	Body  []byte
}

// callRecorder keeps the shipping API calls the sandbox is asked while on.
type callRecorder struct {
	on    atomic.Bool
	mu    sync.Mutex
	calls []upstreamCall
}

func (c *callRecorder) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c.on.Load() && strings.HasPrefix(r.URL.Path, "/api/v1/") {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			c.mu.Lock()
			c.calls = append(c.calls, upstreamCall{Op: strings.TrimPrefix(r.URL.Path, "/api/v1/"), Query: r.URL.RawQuery, Body: body})
			c.mu.Unlock()
		}
		next.ServeHTTP(w, r)
	})
}

func (c *callRecorder) take() []upstreamCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.calls
	c.calls = nil
	return out
}

// batchEnv is a dashboard with the demo sender, the pickup points and a
// signed-in clerk, on a sandbox whose calls rec records (nil: none).
func batchEnv(b *testing.B, rec *callRecorder) (*apptest.Env, *apptest.Browser) {
	b.Helper()
	wrap := func(h http.Handler) http.Handler { return h }
	if rec != nil {
		wrap = rec.wrap
	}
	env := apptest.StartOn(b, pgtest.New(b), sandboxtest.StartThrough(b, "", wrap)) // the documented answers
	ctx := context.Background()
	if err := env.App.Desk.SeedDemo(ctx); err != nil {
		b.Fatal(err)
	}
	if n, err := env.App.Desk.RefreshPoints(ctx); err != nil || n < 1000 {
		b.Fatalf("refresh points: %d %v", n, err)
	}
	return env, env.SignedIn(identity.Clerk)
}

// uploadOrders posts a file to the import form and returns the new batch.
func uploadOrders(b *testing.B, env *apptest.Env, br *apptest.Browser, name string, data []byte) int64 {
	b.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("handover", desk.HandoverOnDemand)
	fw, _ := mw.CreateFormFile("file", name)
	_, _ = fw.Write(data)
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, env.URL+"/shipping/batches", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", env.URL)
	resp := br.Do(req)
	m := batchPath.FindStringSubmatch(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || m == nil {
		b.Fatalf("import %s: %d %s", name, resp.StatusCode, problemsOf(resp.Body))
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	return id
}

// batchRun is what one batch took.
type batchRun struct {
	id                                         int64
	uploaded, priced, ordered, labelled, total time.Duration
	pdfBytes                                   int64
	// watched are the statements the benchmark ran itself to see the end of
	// pricing and of ordering (follow), not the dashboard's.
	watched [2]int64
}

// runBatch does what a clerk's browser does with a day's file of n orders:
// uploads it, opens the batch's page, follows its progress until the rows
// are priced and opens the page again, orders them all and follows the
// progress again; then the courier's labels are made (the sandbox's clock
// moves on, the label poller looks) and the one PDF of the batch's labels is
// downloaded and read to its end.
func runBatch(b *testing.B, env *apptest.Env, br *apptest.Browser, prefix string, n int) batchRun {
	b.Helper()
	start := time.Now()
	r := priceAndOrder(b, env, br, prefix, n, nil)
	env.Sandbox.Advance(10 * time.Minute)
	if _, err := env.App.Jobs.Labels(context.Background()); err != nil {
		b.Fatal(err)
	}
	r.labelled = time.Since(start)
	r.pdfBytes = downloadLabels(b, env, br, r.id)
	r.total = time.Since(start)
	return r
}

// priceAndOrder is the first part of runBatch: the file uploaded, its rows
// priced and ordered, each followed on the batch's page; priced and ordered
// are the times from the upload's start; priced (when not nil) is called
// when the rows are priced, before they are ordered.
func priceAndOrder(b *testing.B, env *apptest.Env, br *apptest.Browser, prefix string, n int, priced func()) batchRun {
	b.Helper()
	var r batchRun
	data := benchOrders(prefix, n)
	start := time.Now()
	r.id = uploadOrders(b, env, br, prefix+".csv", data)
	r.uploaded = time.Since(start)
	path := "/shipping/batches/" + itoa(r.id)
	openPage(b, env, br, path)
	r.watched[0] = follow(b, env, br, r.id)
	openPage(b, env, br, path)
	if c := batchCounts(b, env, r.id); c[storage.RowPriced] != n {
		b.Fatalf("priced: %v, want %d", c, n)
	}
	r.priced = time.Since(start)
	if priced != nil {
		priced()
	}
	if resp := br.PostForm(path+"/order", nil); resp.StatusCode != http.StatusSeeOther {
		b.Fatalf("order: %d", resp.StatusCode)
	}
	openPage(b, env, br, path)
	r.watched[1] = follow(b, env, br, r.id)
	openPage(b, env, br, path)
	if c := batchCounts(b, env, r.id); c[storage.RowOrdered] != n {
		b.Fatalf("ordered: %v, want %d", c, n)
	}
	r.ordered = time.Since(start)
	return r
}

// openPage reads a batch's page as the browser does, without keeping it.
func openPage(b *testing.B, env *apptest.Env, br *apptest.Browser, path string) {
	b.Helper()
	resp, err := br.Client.Get(env.URL + path)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
	}
}

// follow asks for the batch's progress as its page does (htmx, every 2
// seconds: the progress bar's hx-trigger) until the answer says the work is
// done. Between the page's asks the benchmark watches the rows itself
// (whether any waits to be priced or ordered: one small statement every 50
// ms), so the end is seen when it comes, not up to 2 seconds later, and the
// page is not asked 40 times as often as a browser asks. It returns the
// statements the watching took, which are not the dashboard's.
func follow(b *testing.B, env *apptest.Env, br *apptest.Browser, id int64) (watched int64) {
	b.Helper()
	path := "/shipping/batches/" + itoa(id)
	ask := func() bool {
		req, _ := http.NewRequest(http.MethodGet, env.URL+path+"/progress?working=1", nil)
		req.Header.Set("HX-Request", "true")
		resp := br.Do(req)
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("progress: %d", resp.StatusCode)
		}
		return resp.Header.Get("HX-Refresh") == "true"
	}
	const pageEvery, watchEvery = 2 * time.Second, 50 * time.Millisecond
	deadline := time.Now().Add(5 * time.Minute)
	for asked := time.Now(); time.Now().Before(deadline); time.Sleep(watchEvery) {
		if time.Since(asked) >= pageEvery {
			if ask() {
				return watched
			}
			asked = time.Now()
		}
		var waiting bool
		watched++
		err := env.App.DB.SQL().QueryRowContext(context.Background(),
			`SELECT EXISTS (SELECT 1 FROM batch_rows WHERE batch_id = $1 AND state IN ('pricing', 'ordering'))`, id).Scan(&waiting)
		if err != nil {
			b.Fatal(err)
		}
		if !waiting {
			if !ask() {
				b.Fatalf("%s: no row waits, yet the page does not say the work is done", path)
			}
			return watched
		}
	}
	b.Fatalf("%s: still working", path)
	return watched
}

// batchCounts are the batch's rows by state.
func batchCounts(b *testing.B, env *apptest.Env, id int64) map[string]int {
	b.Helper()
	bt, err := env.App.DB.BatchByID(context.Background(), id)
	if err != nil {
		b.Fatal(err)
	}
	return bt.Counts
}

// downloadLabels reads the batch's label PDF to its end without keeping it.
func downloadLabels(b *testing.B, env *apptest.Env, br *apptest.Browser, id int64) int64 {
	b.Helper()
	resp, err := br.Client.Get(env.URL + "/shipping/batches/" + itoa(id) + "/labels.pdf?format=A6")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var tail tailWriter
	n, err := io.Copy(&tail, resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK || !tail.pdf() {
		b.Fatalf("labels PDF: %d, %d bytes, %v", resp.StatusCode, n, err)
	}
	return n
}

// lastPrint is how many labels the last print held.
func lastPrint(b *testing.B, env *apptest.Env) int {
	b.Helper()
	list, err := env.App.DB.RecentPrintBatches(context.Background(), 1)
	if err != nil || len(list) == 0 {
		b.Fatalf("the print was not recorded: %v", err)
	}
	return list[0].Labels
}

// tailWriter keeps a PDF's first and last bytes only.
type tailWriter struct {
	head, tail []byte
}

func (t *tailWriter) Write(p []byte) (int, error) {
	if len(t.head) < 5 {
		t.head = append(t.head, p[:min(len(p), 5-len(t.head))]...)
	}
	t.tail = append(t.tail, p...)
	if len(t.tail) > 64 {
		t.tail = append(t.tail[:0], t.tail[len(t.tail)-64:]...)
	}
	return len(p), nil
}

func (t *tailWriter) pdf() bool {
	return string(t.head) == "%PDF-" && bytes.HasSuffix(t.tail, []byte("%%EOF\n"))
}

// batchRows is the size of the timed batch.
const batchRows = 500

// BenchmarkBatch500 times a batch of 500 imported rows priced, ordered and
// printed through the dashboard, and the same upstream calls made straight
// through the client: one after another (what the batch's concurrency
// gains) and as many at a time as the batch makes them (what our own layers
// cost: the database, the checks, the pages).
func BenchmarkBatch500(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		rec := &callRecorder{}
		env, br := batchEnv(b, rec)
		rec.on.Store(true)
		b.StartTimer()
		run := runBatch(b, env, br, "BENCH", batchRows)
		b.StopTimer()
		rec.on.Store(false)
		plan := planOf(b, rec.take())
		old := batchNames(b, env, run.id)
		seq := newReplayer(b, old)
		tSeq, seqPhases := seq.run(plan, 1, 1)
		bare := newReplayer(b, old)
		tBare, barePhases := bare.run(plan, desk.BatchWorkers, desk.LabelFetches)
		if seq.calls() != plan.n || bare.calls() != plan.n {
			b.Fatalf("the batch made %d calls, the replays %d and %d", plan.n, seq.calls(), bare.calls())
		}

		b.ReportMetric(float64(run.total)/float64(tSeq), "batch/seq")
		b.ReportMetric(float64(run.total)/float64(tBare), "batch/bare")
		b.ReportMetric(float64(plan.n), "upstream-calls")
		// The goals: batch/seq < 1 and batch/bare ≤ 2.
		counts := map[string]int{"shipments/detail": len(plan.details), "shipments/label": len(plan.label)}
		for _, r := range plan.rows {
			for _, c := range append(slices.Clone(r.rates), r.ordered...) {
				counts[c.Op]++
			}
		}
		b.Logf("batch of %d rows: %d upstream calls: %v", batchRows, plan.n, counts)
		phases := func(who string, p [4]time.Duration) {
			b.Logf("batch of %d rows, phases, %s: priced %s, ordered %s, labels checked %s, labels fetched %s", batchRows, who,
				p[0], p[1]-p[0], p[2]-p[1], p[3]-p[2])
		}
		phases("batch (with its pages; the PDF read to its end)", [4]time.Duration{run.priced, run.ordered, run.labelled, run.total})
		b.Logf("the batch's PDF: %.1f MiB", mib(uint64(run.pdfBytes)))
		phases("bare calls", barePhases)
		phases("sequential calls", seqPhases)
		b.StartTimer()
	}
}

// BenchmarkBatchMemory measures the peak heap of the same batch at 100 and
// at 500 rows, and of the batch's label PDF of 50 and of 500 labels: flat,
// when nothing holds all rows or all labels at once. The dashboard, the
// sandbox and the benchmark's browser share the heap measured; the
// sandbox's drawing of each label is most of what the PDF's peak shows.
func BenchmarkBatchMemory(b *testing.B) {
	peak := map[int]uint64{}
	var pdf50, pdf500 uint64
	var labels50, labels500 int
	for _, n := range []int{100, batchRows} {
		b.Run(fmt.Sprintf("%d-rows", n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				env, br := batchEnv(b, nil)
				b.StartTimer()
				var run batchRun
				peak[n] = peakHeap(func() { run = runBatch(b, env, br, "MEM", n) })
				b.StopTimer()
				b.ReportMetric(float64(peak[n])/(1<<20), "peak-MiB")
				if n == batchRows {
					small := runBatch(b, env, br, "SMALL", 50)
					pdf50 = peakHeap(func() { downloadLabels(b, env, br, small.id) })
					labels50 = lastPrint(b, env)
					pdf500 = peakHeap(func() { downloadLabels(b, env, br, run.id) })
					labels500 = lastPrint(b, env)
				}
				b.StartTimer()
			}
		})
	}
	if peak[100] == 0 || peak[batchRows] == 0 || pdf50 == 0 {
		return
	}
	// Flat when nothing holds all rows or all labels at once: both ≈ 1.
	b.ReportMetric(float64(peak[batchRows])/float64(peak[100]), fmt.Sprintf("heap-%d/100-rows", batchRows))
	b.ReportMetric(float64(pdf500)/float64(pdf50), "pdf-heap-500/50")
	b.Logf("peak heap: %d rows %.1f MiB, 100 rows %.1f MiB; the labels PDF of %d labels %.1f MiB, of %d labels %.1f MiB",
		batchRows, mib(peak[batchRows]), mib(peak[100]), labels500, mib(pdf500), labels50, mib(pdf50))
}

// importRows is the size of the largest file the import takes.
const importRows = orderfile.MaxRows

// BenchmarkBatchImport10000 uploads the largest file of orders the import
// takes, as CSV and as XLSX, through the import form into PostgreSQL: the
// time the upload takes and the peak heap meanwhile. The pricing the import
// starts is stopped after each file: it is the batch benchmarks' part.
func BenchmarkBatchImport10000(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		env, br := batchEnv(b, nil)
		files := []struct {
			kind, name string
			data       []byte
		}{
			{"CSV", "orders.csv", benchOrders("CSV", importRows)},
			{"XLSX", "orders.xlsx", benchWorkbook(b, "XLSX", importRows)},
		}
		for _, f := range files {
			var id int64
			start := time.Now()
			b.StartTimer()
			peak := peakHeap(func() { id = uploadOrders(b, env, br, f.name, f.data) })
			b.StopTimer()
			took := time.Since(start)
			if c := batchCounts(b, env, id); c[storage.RowReady]+c[storage.RowPricing]+c[storage.RowPriced] != importRows {
				b.Fatalf("%s: %v, want %d rows without problems", f.kind, c, importRows)
			}
			stopPricing(b, env, id)
			b.ReportMetric(float64(took.Milliseconds()), f.kind+"-ms")
			b.ReportMetric(mib(peak), f.kind+"-peak-MiB")
			b.Logf("import of %d rows (%s): upload %s, peak heap %.1f MiB, file %.1f MiB", importRows, f.kind, took, mib(peak), mib(uint64(len(f.data))))
		}
		b.StartTimer()
	}
}

// stopPricing stops the pricing an import started: its rows are put back
// to ready (a clerk's "price" would queue them again), so the worker finds
// none left and the next measurement runs alone.
func stopPricing(b *testing.B, env *apptest.Env, id int64) {
	b.Helper()
	if _, err := env.App.DB.SQL().Exec(`UPDATE batch_rows SET state = 'ready', leased_at = NULL WHERE batch_id = $1 AND state = 'pricing'`, id); err != nil {
		b.Fatal(err)
	}
}
