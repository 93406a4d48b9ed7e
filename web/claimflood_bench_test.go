package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/claims"
	"shipdesk/identity"
)

// BenchmarkClaimFlood hammers the customers' claim page from 64 connections,
// each its own client (its own address through our proxy's
// X-Forwarded-For), half asking for a link to the one real purchase and
// address, half reading a status page that does not exist, with the
// limiter of serve (a burst of 120 a client, then one every 2 s; a refusal
// answered after a second). Beside it
// a manager reads the staff's pages one after another; their p99 is held to
// 50 ms, against the same pages read before the flood. The link mails
// recorded are counted against what the address's throttle allows, and the
// throttle's rows against its limits: a refused request stores nothing.
// 30 s by default; SHIPDESK_BENCH_SECONDS shortens it. Then the uploads'
// flood (claimupload_bench_test.go): serve's memory while 143 posts of 28.5
// MB go to a made-up link, and to a real one.
func BenchmarkClaimFlood(b *testing.B) {
	env := apptest.StartOptions(b, apptest.Options{PublicBurst: 120, PublicEvery: 2 * time.Second, PublicHold: time.Second, TrustProxy: true})
	env.DeliverDemoOrders()
	link, linkFields := benchLink(b, env) // before the flood spends the address's links
	staff := env.SignedIn(identity.Manager)
	staffPages := []string{"/", "/shipping", "/tracking", "/shipping/print"}
	flood := floodSeconds()
	for b.Loop() {
		mails0 := len(claimMails(b, env, "claim-link"))
		quiet := staffLatencies(b, staff, staffPages, min(flood/3, 10*time.Second), nil)
		var done atomic.Bool
		answers := make(chan map[int]int, 64)
		var wg sync.WaitGroup
		for c := range 64 {
			wg.Go(func() { answers <- floodClient(env, c, &done) })
		}
		busy := staffLatencies(b, staff, staffPages, flood, &done)
		wg.Wait()
		close(answers)
		codes := map[int]int{}
		for a := range answers {
			for code, n := range a {
				codes[code] += n
			}
		}
		answerAsks(b, env)
		mails := len(claimMails(b, env, "claim-link")) - mails0
		over := throttleOverflow(b, env)
		b.Logf("flood answers %v; staff pages %d read beside it, %d before", codes, len(busy), len(quiet))
		if codes[http.StatusInternalServerError] > 0 {
			b.Errorf("the flood had %d errors", codes[http.StatusInternalServerError])
		}
		total := 0
		for _, n := range codes {
			total += n
		}
		// The goals: the staff pages' p99 beside the flood within 50 ms,
		// link mails within what the address's throttle allows, and no rows
		// stored by refused requests.
		allowed := claims.DefaultLimits.Address.Hits
		b.ReportMetric(float64(busy.pct(0.99).Microseconds())/1000, "staff-p99-ms")
		b.ReportMetric(float64(busy.pct(0.5).Microseconds())/1000, "staff-p50-ms")
		b.ReportMetric(float64(quiet.pct(0.99).Microseconds())/1000, "staff-p99-before-ms")
		b.ReportMetric(float64(total), "flood-requests")
		b.ReportMetric(float64(codes[http.StatusTooManyRequests]), "refused-429")
		b.ReportMetric(float64(mails)/float64(allowed), "mails/allowed")
		b.ReportMetric(float64(over), "throttle-rows-over")
		b.ReportMetric(float64(max(0, mails-allowed)), "mails-over")
		b.Logf("the flood lasted %s; load average %.2f", flood, loadAverage())
		reportUploads(b, "made-up-link", uploadFlood(b, env, "/claim/open/"+strings.Repeat("x", 43), linkFields, 1))
		reportUploads(b, "real-link", uploadFlood(b, env, link, linkFields, 101))
	}
}

// floodSeconds is how long the flood lasts (SHIPDESK_BENCH_SECONDS, 30 s).
func floodSeconds() time.Duration {
	if n, err := strconv.Atoi(os.Getenv("SHIPDESK_BENCH_SECONDS")); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 30 * time.Second
}

// floodClient is one connection of the flood, from an address of its own,
// until done: the link asked for and a status page read in turns. It
// returns how many of each answer it got.
func floodClient(env *apptest.Env, c int, done *atomic.Bool) map[int]int {
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	addr := fmt.Sprintf("198.51.100.%d", c+1)
	form := url.Values{"reference": {"DEMO-1"}, "contact": {"jana@example.cz"}}.Encode()
	status := env.URL + "/claim/status/" + strings.Repeat("x", 43)
	codes := map[int]int{}
	for i := 0; !done.Load(); i++ {
		var req *http.Request
		if i%2 == 0 {
			req, _ = http.NewRequest(http.MethodPost, env.URL+"/claim", strings.NewReader(form))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Origin", env.URL)
			req.Header.Set("Sec-Fetch-Site", "same-origin")
		} else {
			req, _ = http.NewRequest(http.MethodGet, status, nil)
		}
		req.Header.Set("X-Forwarded-For", addr)
		resp, err := client.Do(req)
		if err != nil {
			codes[0]++
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		codes[resp.StatusCode]++
	}
	return codes
}

// staffLatencies reads the staff's pages one after another for d (or until
// done is set, when given: it sets it at the end) and returns each time.
func staffLatencies(b *testing.B, br *apptest.Browser, pages []string, d time.Duration, done *atomic.Bool) latencies {
	b.Helper()
	var out latencies
	for end, i := time.Now().Add(d), 0; time.Now().Before(end); i++ {
		start := time.Now()
		if r := br.Get(pages[i%len(pages)]); r.StatusCode != http.StatusOK {
			b.Errorf("staff page %s beside the flood: %d", pages[i%len(pages)], r.StatusCode)
		}
		out = append(out, time.Since(start))
	}
	if done != nil {
		done.Store(true)
	}
	slices.Sort(out)
	return out
}

// throttleOverflow is how many hits the throttle's keys hold beyond their
// scope's limit (the flood lasts less than every window): what a refused
// request would have stored.
func throttleOverflow(b *testing.B, env *apptest.Env) int {
	b.Helper()
	l := claims.DefaultLimits
	var n int
	err := env.App.DB.SQL().QueryRow(`SELECT COALESCE(sum(GREATEST(0, hits - CASE scope
    WHEN 'client' THEN $1 WHEN 'address' THEN $2 WHEN 'purchase' THEN $3 WHEN 'replies' THEN $4 WHEN 'unknown' THEN $5 ELSE hits END)), 0)
FROM (SELECT scope, count(*) AS hits FROM throttle_hits GROUP BY scope, key_hash) k`, l.Client.Hits, l.Address.Hits, l.Purchase.Hits, l.Replies.Hits, l.Unknown.Hits).Scan(&n)
	if err != nil {
		b.Fatal(err)
	}
	return n
}
