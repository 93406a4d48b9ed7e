package web_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"shipdesk/app/apptest"
)

// The upload flood of BenchmarkClaimFlood: 143 posts of 28.5 MB (a proof
// and two photos of 9.5 MB) from 8 clients at once, to a made-up link and
// then to a real one (a form that lacks its model, so each is read whole and
// refused), with serve's memory sampled meanwhile.
const (
	uploadPosts   = 143
	uploadClients = 8
	uploadFile    = 19 << 19 // 9.5 MiB
)

// uploadMemory is what the process held during a flood, over what it held
// before (MiB), and at its peak.
type uploadMemory struct {
	heap, rss, peakRSS float64
	answers            map[int]int
}

// uploadFlood posts the claim form of fields to path uploadPosts times and
// measures the memory meanwhile.
func uploadFlood(b *testing.B, env *apptest.Env, path string, fields url.Values, first int) uploadMemory {
	b.Helper()
	runtime.GC()
	debug.FreeOSMemory()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	rss0 := residentBytes()
	var peakHeap, peakRSS atomic.Uint64
	done := make(chan struct{})
	var sampling sync.WaitGroup
	sampling.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peakHeap.Store(max(peakHeap.Load(), m.HeapInuse))
			peakRSS.Store(max(peakRSS.Load(), residentBytes()))
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	var mu sync.Mutex
	answers := map[int]int{}
	var next atomic.Int64
	var wg sync.WaitGroup
	for c := range uploadClients {
		wg.Go(func() {
			client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			for next.Add(1) <= uploadPosts {
				code := uploadPost(client, env, path, fields, fmt.Sprintf("203.0.113.%d", first+c))
				mu.Lock()
				answers[code]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(done)
	sampling.Wait()
	return uploadMemory{heap: mib(peakHeap.Load() - min(peakHeap.Load(), before.HeapInuse)),
		rss: mib(peakRSS.Load() - min(peakRSS.Load(), rss0)), peakRSS: mib(peakRSS.Load()), answers: answers}
}

// uploadPost posts one form of 28.5 MB from addr, written as it is sent; 0
// for a post the server cut off (it answers a made-up link unread).
func uploadPost(client *http.Client, env *apptest.Env, path string, fields url.Values, addr string) int {
	body, ctype := claimFormBody(fields, postedFile{"proof", "invoice.pdf", uploadFile},
		postedFile{"photos", "a.jpg", uploadFile}, postedFile{"photos", "b.jpg", uploadFile})
	req, _ := http.NewRequest(http.MethodPost, env.URL+path, body)
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Origin", env.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("X-Forwarded-For", addr)
	resp, err := client.Do(req)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// residentBytes is the process's resident memory (Linux), 0 elsewhere.
func residentBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// benchLink asks for a link to DEMO-1 from an address of its own and
// returns its path and the fields of its form, without the model: each post
// of them is read whole and refused.
func benchLink(b *testing.B, env *apptest.Env) (string, url.Values) {
	b.Helper()
	req, _ := http.NewRequest(http.MethodPost, env.URL+"/claim",
		strings.NewReader(url.Values{"reference": {"DEMO-1"}, "contact": {"jana@example.cz"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", env.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("X-Forwarded-For", "203.0.113.250")
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	mails := claimMails(b, env, "claim-link")
	if len(mails) == 0 {
		b.Fatal("no link mailed")
	}
	link := claimPathIn.FindString(mails[0].Text)
	form, err := http.Get(env.URL + link)
	if err != nil {
		b.Fatal(err)
	}
	page, _ := io.ReadAll(form.Body)
	form.Body.Close()
	key := ""
	if i := bytes.Index(page, []byte(`name="key" value="`)); i >= 0 {
		rest := page[i+len(`name="key" value="`):]
		key = string(rest[:bytes.IndexByte(rest, '"')])
	}
	return link, url.Values{"key": {key}, "kind": {"defect"}, "remedy": {"repair"}, "transport": {"shop"},
		"description": {"Cracked."}, "name": {"Jana Nováková"}}
}

// reportUploads reports a flood's memory under its name and fails the goal:
// serve grows by at most 48 MiB (from its 52 MiB at rest to 100).
func reportUploads(b *testing.B, name string, m uploadMemory) {
	b.Helper()
	b.Logf("upload flood to %s: answers %v; heap +%.1f MiB, resident +%.1f MiB (peak %.1f MiB)", name, m.answers, m.heap, m.rss, m.peakRSS)
	b.ReportMetric(m.heap, "upload-"+name+"-heap-MiB")
	b.ReportMetric(m.rss, "upload-"+name+"-rss-MiB")
	b.ReportMetric(m.peakRSS, "upload-"+name+"-peak-rss-MiB")
	if m.rss > 48 {
		b.Errorf("serve grew by %.1f MiB under the upload flood to %s: the goal is at most 48 (100 MiB in all)", m.rss, name)
	}
	for code, n := range m.answers {
		if code >= 500 {
			b.Errorf("the upload flood to %s had %d answers %d", name, n, code)
		}
	}
}
