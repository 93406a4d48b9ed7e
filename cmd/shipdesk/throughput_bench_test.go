package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"shipdesk/storage/pgtest"
)

// benchConns is how many keep-alive connections the load generator keeps busy.
const benchConns = 64

// benchSeconds is how long each load runs in all, in three turns
// (SHIPDESK_BENCH_SECONDS, 6 by default).
func benchSeconds() time.Duration {
	if n, err := strconv.Atoi(os.Getenv("SHIPDESK_BENCH_SECONDS")); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 6 * time.Second
}

// BenchmarkSignedInThroughput serves the dashboard with the real `shipdesk
// serve` binary, built here and run as its own process, and a bare net/http
// process (testdata/bare), built and run the same way, and keeps each busy
// with 64 keep-alive connections for a fixed time, counting the answers: the
// sign-in page, and signed in a 404, the home page, a shipment's page and the
// shipments list, against the bare process's hello. The ratios to the bare
// handler are information, not goals: what the dashboard's pages cost beside
// a handler that does nothing. The targets take turns, so that a change in
// what else runs on the machine weighs on all of them alike.
func BenchmarkSignedInThroughput(b *testing.B) {
	bin := b.TempDir()
	shipdeskBin := goBuild(b, filepath.Join(bin, "shipdesk"), ".")
	bareBin := goBuild(b, filepath.Join(bin, "bare"), "./testdata/bare")

	dbURL := pgtest.URL(b)
	ctx := context.Background()
	if code := run(ctx, []string{"migrate", "up", "--database-url", dbURL}, nil, io.Discard, io.Discard); code != 0 {
		b.Fatalf("migrate: exit %d", code)
	}
	const password = "bench-password-long-enough"
	var out bytes.Buffer
	if code := run(ctx, []string{"user", "add", "--database-url", dbURL, "--username", "bench", "--role", "manager", "--password-stdin"},
		strings.NewReader(password+"\n"), &out, &out); code != 0 {
		b.Fatalf("user add: exit %d: %s", code, out.String())
	}
	env := []string{"SESSION_KEY=" + strings.Repeat("b", 40), "SHIPDESK_LANG=cs"}
	// The demo data orders a few shipments at the in-process sandbox, so the
	// list and a shipment's page show what they show at a desk.
	serve := startServer(b, shipdeskBin, env, "serve", "--addr", "127.0.0.1:0", "--database-url", dbURL, "--var-dir", b.TempDir(), "--seed-demo")
	cookie := signIn(b, serve.url, "bench", password)
	bare := startServer(b, bareBin, nil)

	type target struct {
		name, base, path, cookie string
		status                   int
		pid                      int
	}
	targets := []target{
		{"bare", bare.url, "/", "", http.StatusOK, bare.cmd.Process.Pid},
		{"signin", serve.url, "/login", "", http.StatusOK, serve.cmd.Process.Pid},
		{"404", serve.url, "/no-such-page", cookie, http.StatusNotFound, serve.cmd.Process.Pid},
		{"home", serve.url, "/", cookie, http.StatusOK, serve.cmd.Process.Pid},
		{"shipment", serve.url, firstShipment(b, serve.url, cookie), cookie, http.StatusOK, serve.cmd.Process.Pid},
		{"list", serve.url, "/tracking", cookie, http.StatusOK, serve.cmd.Process.Pid},
	}
	for _, t := range targets {
		checkPage(b, t.base, t.path, t.cookie, t.status)
		hammer(b, t.base, t.path, t.cookie, t.status, time.Second) // warm up
	}
	d := benchSeconds()
	const turns = 3
	done := map[string]float64{}
	cpu := map[string]time.Duration{}
	for range turns {
		for _, t := range targets {
			c := processCPU(b, t.pid)
			done[t.name] += hammer(b, t.base, t.path, t.cookie, t.status, d/turns) * (d / turns).Seconds()
			cpu[t.name] += processCPU(b, t.pid) - c
		}
	}
	rate := map[string]float64{}
	for _, t := range targets {
		rate[t.name] = done[t.name] / d.Seconds()
		b.ReportMetric(rate[t.name], t.name+"-req/s")
		// The server's own CPU time per answer varies less than the rate
		// when others share the machine.
		perReq := cpu[t.name] / time.Duration(done[t.name])
		b.ReportMetric(float64(perReq.Microseconds()), t.name+"-cpu-µs/req")
	}
	b.ReportMetric(rate["404"]/rate["bare"], "404/bare")
	b.ReportMetric(rate["home"]/rate["bare"], "home/bare")
	b.ReportMetric(float64(peakRSS(b, serve.cmd.Process.Pid))/(1<<20), "serve-peak-MiB")
}

// firstShipment is the path of the page of a shipment the list shows.
func firstShipment(tb testing.TB, base, cookie string) string {
	tb.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/tracking", nil)
	req.Header.Set("Cookie", cookie)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`href="(/shipping/shipments/[0-9]+)"`).FindSubmatch(body)
	if m == nil {
		tb.Fatalf("the shipments list links no shipment:\n%.2000s", body)
	}
	return string(m[1])
}

// goBuild builds the package at dir into out.
func goBuild(tb testing.TB, out, dir string) string {
	tb.Helper()
	cmd := exec.Command("go", "build", "-o", out, dir)
	if msg, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", dir, err, msg)
	}
	return out
}

// server is a process serving HTTP at url.
type server struct {
	cmd *exec.Cmd
	url string
}

// startServer runs bin with args until tb ends and waits for the address it
// prints ("… http://ADDR/"). Its log goes to a file beside the binary, as a
// log would go to a file or journal.
func startServer(tb testing.TB, bin string, env []string, args ...string) server {
	tb.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	logFile, err := os.Create(bin + ".log")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { logFile.Close() })
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatalf("start %s: %v", bin, err)
	}
	exited := make(chan struct{})
	tb.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if _, u, ok := strings.Cut(sc.Text(), "http://"); ok {
				select {
				case found <- "http://" + strings.TrimSuffix(strings.Fields(u)[0], "/"):
				default:
				}
			}
		}
		_ = cmd.Wait()
		close(exited)
	}()
	select {
	case u := <-found:
		return server{cmd: cmd, url: u}
	case <-exited:
		log, _ := os.ReadFile(bin + ".log")
		tb.Fatalf("%s exited before serving:\n%s", bin, log)
	case <-time.After(60 * time.Second):
		tb.Fatalf("%s did not start serving within a minute", bin)
	}
	return server{}
}

// signIn posts the sign-in form as a browser does and returns the session
// cookie as a Cookie header's value.
func signIn(tb testing.TB, base, username, password string) string {
	tb.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := url.Values{"username": {username}, "password": {password}}
	req, _ := http.NewRequest(http.MethodPost, base+"/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", base)
	resp, err := c.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		tb.Fatalf("sign in: status %d", resp.StatusCode)
	}
	for _, ck := range resp.Cookies() {
		if ck.Name == "shipdesk" {
			return ck.Name + "=" + ck.Value
		}
	}
	tb.Fatal("sign in set no session cookie")
	return ""
}

// checkPage fetches one page with net/http's client before the load, so a
// load of wrong answers (a sign-in redirect instead of the page) fails loudly.
func checkPage(tb testing.TB, base, path, cookie string, status int) {
	tb.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != status {
		tb.Fatalf("GET %s: status %d, want %d", path, resp.StatusCode, status)
	}
	if cookie != "" && !bytes.Contains(body, []byte("bench")) {
		tb.Fatalf("GET %s: the page does not name the signed-in user:\n%.2000s", path, body)
	}
	if resp.Header.Get("Set-Cookie") != "" {
		tb.Fatalf("GET %s sets a cookie: %s", path, resp.Header.Get("Set-Cookie"))
	}
}

// hammer keeps benchConns keep-alive connections sending GET path for d, each
// sending its next request when the answer to its last has been read, and
// returns the answers with the wanted status per second. It speaks HTTP/1.1
// itself (a request written once, the answer's head and body read without
// copies), so the load generator costs little of the shared CPU.
func hammer(tb testing.TB, base, path, cookie string, status int, d time.Duration) float64 {
	tb.Helper()
	host := strings.TrimPrefix(base, "http://")
	req := "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: shipdesk-bench\r\nAccept: text/html\r\nAccept-Language: cs,en;q=0.8\r\n"
	if cookie != "" {
		req += "Cookie: " + cookie + "\r\n"
	}
	raw := []byte(req + "\r\n")
	var stop atomic.Bool
	var done atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, benchConns)
	for range benchConns {
		wg.Go(func() {
			conn, err := net.Dial("tcp", host)
			if err != nil {
				errs <- err
				return
			}
			defer conn.Close()
			br := bufio.NewReaderSize(conn, 32<<10)
			n := int64(0)
			for !stop.Load() {
				if _, err := conn.Write(raw); err != nil {
					errs <- err
					return
				}
				got, err := readAnswer(br)
				if err != nil {
					errs <- err
					return
				}
				if got != status {
					errs <- fmt.Errorf("GET %s: status %d, want %d", path, got, status)
					return
				}
				if !stop.Load() {
					n++
				}
			}
			done.Add(n)
		})
	}
	time.Sleep(d)
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		tb.Fatalf("load on %s%s: %v", base, path, err)
	}
	return float64(done.Load()) / d.Seconds()
}

// readAnswer reads one HTTP/1.1 answer and returns its status; its body
// (by Content-Length or chunked) is skipped.
func readAnswer(br *bufio.Reader) (int, error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return 0, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, fmt.Errorf("bad status line %q", line)
	}
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, fmt.Errorf("bad status line %q", line)
	}
	length, chunked := -1, false
	for {
		line, err = br.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		if len(line) <= 2 {
			break
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil {
				return 0, fmt.Errorf("bad Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.Contains(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")) && bytes.EqualFold(value, []byte("close")):
			return 0, errors.New("the server closes the connection")
		}
	}
	switch {
	case chunked:
		for {
			line, err = br.ReadSlice('\n')
			if err != nil {
				return 0, err
			}
			hex, _, _ := bytes.Cut(bytes.TrimSpace(line), []byte(";"))
			size, err := strconv.ParseInt(string(hex), 16, 64)
			if err != nil {
				return 0, fmt.Errorf("bad chunk size %q", line)
			}
			if size == 0 {
				for { // trailers, then the empty line
					if line, err = br.ReadSlice('\n'); err != nil || len(line) <= 2 {
						return status, err
					}
				}
			}
			if _, err := br.Discard(int(size) + 2); err != nil {
				return 0, err
			}
		}
	case length >= 0:
		_, err = br.Discard(length)
		return status, err
	}
	return 0, errors.New("an answer without a length")
}
