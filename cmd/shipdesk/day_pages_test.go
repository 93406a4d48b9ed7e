package main

import (
	"fmt"
	"html"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The day's open pages: each kind of page that refreshes itself, found as a
// browser finds it (the page's HTML says what its live part asks for and how
// often), and asked for again as htmx asks.

// pageKind is one kind of open page and how many of them are open.
type pageKind struct {
	name string
	path string // the page a person opened
	id   string // its live element (htmx's HX-Trigger and HX-Target)
	open int
}

// livePart is what a page's live element asks for: the URL of its hx-get
// and the period of its hx-trigger ("every 4s"). Whole is set when the page
// drew no live part (nothing on it may change): the benchmark then asks for
// the whole page on the lists' cadence, as a person pressing reload would.
type livePart struct {
	url   string
	every time.Duration
	whole bool
}

var everyTrigger = regexp.MustCompile(`^every (\d+(?:\.\d+)?)(ms|s)$`)

// findLive reads the live part of the element id from a page's HTML.
func findLive(tb testing.TB, body, page, id string) livePart {
	tb.Helper()
	tag := regexp.MustCompile(`<[a-z]+\b[^>]*\bid="` + regexp.QuoteMeta(id) + `"[^>]*>`).FindString(body)
	if tag == "" {
		tb.Fatalf("%s has no element #%s:\n%.2000s", page, id, body)
	}
	attr := func(name string) string {
		m := regexp.MustCompile(`\s` + name + `="([^"]*)"`).FindStringSubmatch(tag)
		if m == nil {
			return ""
		}
		return html.UnescapeString(m[1])
	}
	get, trigger := attr("hx-get"), attr("hx-trigger")
	m := everyTrigger.FindStringSubmatch(trigger)
	if get == "" || m == nil {
		return livePart{url: page, every: 15 * time.Second, whole: true}
	}
	n, _ := strconv.ParseFloat(m[1], 64)
	unit := time.Second
	if m[2] == "ms" {
		unit = time.Millisecond
	}
	return livePart{url: get, every: time.Duration(n * float64(unit))}
}

// printVersion is the print queue's version of its list, which its live
// part sends back (hx-include of the print form) to be answered "no change".
var printVersion = regexp.MustCompile(`name="v" value="([^"]*)"`)

// openPage is one open page of a browser: it asks for its live part.
type openPage struct {
	kind    *pageKind
	part    livePart
	br      *browser
	base    string
	version string // the print queue's, sent back on each refresh
}

// refresh asks for the page's live part as htmx does, reads the answer to
// its end and returns its status and how long it took.
func (p *openPage) refresh() (int, time.Duration, error) {
	u := p.base + p.part.url
	if p.kind.id == "print-live" && p.version != "" {
		u += sep(u) + "v=" + url.QueryEscape(p.version)
	}
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	if !p.part.whole {
		req.Header.Set("HX-Request", "true")
		req.Header.Set("HX-Trigger", p.kind.id)
		req.Header.Set("HX-Target", p.kind.id)
		req.Header.Set("HX-Current-URL", p.base+p.kind.path)
	}
	req.Header.Set("Accept", "*/*")
	req.Header.Set("Accept-Language", "en")
	start := time.Now()
	resp, err := p.br.c.Do(req)
	if err != nil {
		return 0, time.Since(start), err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	took := time.Since(start)
	if m := printVersion.FindSubmatch(body); m != nil {
		p.version = string(m[1])
	}
	return resp.StatusCode, took, err
}

func sep(u string) string {
	if strings.Contains(u, "?") {
		return "&"
	}
	return "?"
}

// latencies are the times of one kind's answers, and its failures.
type latencies struct {
	mu     sync.Mutex
	took   []time.Duration
	failed int
	first  string // the first failure, for the log
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.took = append(l.took, d)
	l.mu.Unlock()
}

func (l *latencies) fail(what string) {
	l.mu.Lock()
	if l.failed == 0 {
		l.first = what
	}
	l.failed++
	l.mu.Unlock()
}

// pct is the p-th quantile (0.5, 0.99) in milliseconds.
func (l *latencies) pct(p float64) float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.took) == 0 {
		return 0
	}
	s := slices.Clone(l.took)
	slices.Sort(s)
	return float64(s[int(p*float64(len(s)-1))].Microseconds()) / 1000
}

func (l *latencies) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.took)
}

// pace says when an open page asks next: at its own period from a moment of
// its own (htmx's "every"), or every 0.5–1.5 s at random (the rush).
type pace func(p *openPage, first bool) time.Duration

func ownPace(p *openPage, first bool) time.Duration {
	if first {
		return rand.N(p.part.every)
	}
	return p.part.every
}

func rushPace(*openPage, bool) time.Duration {
	return 500*time.Millisecond + rand.N(time.Second)
}

// keepOpen has every page ask on its pace until the window ends, recording
// each answer's time under its kind.
func keepOpen(pages []*openPage, next pace, window time.Duration) map[string]*latencies {
	by := map[string]*latencies{}
	for _, p := range pages {
		if by[p.kind.name] == nil {
			by[p.kind.name] = &latencies{}
		}
	}
	end := time.Now().Add(window)
	var wg sync.WaitGroup
	for _, p := range pages {
		l := by[p.kind.name]
		wg.Go(func() {
			at := time.Now().Add(next(p, true))
			for at.Before(end) {
				time.Sleep(time.Until(at))
				at = at.Add(next(p, false)) // the timer runs on while the answer comes
				status, took, err := p.refresh()
				switch {
				case err != nil:
					l.fail(err.Error())
				case status != http.StatusOK && status != http.StatusNoContent:
					l.fail(fmt.Sprintf("GET %s: %d", p.part.url, status))
				default:
					l.add(took)
				}
				if now := time.Now(); at.Before(now) {
					at = now // a page whose answer came late asks once, not twice
				}
			}
		})
	}
	wg.Wait()
	return by
}
