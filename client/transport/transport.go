// Package transport is the one small HTTP layer the three upstream clients share:
// it sends the key and a User-Agent, bounds each attempt in time and size, retries
// only what is safe to repeat, decodes the {status, message, errors} envelope into
// one error type, and logs and counts every call without keys or personal data.
package transport

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"time"

	"shipdesk/clock"
)

// Config describes one upstream interface.
type Config struct {
	Interface string // "shipping", "cart", "returns": a label for logs and counters
	BaseURL   string // e.g. https://host (paths are appended)
	APIKey    string
	UserAgent string
	Timeout   time.Duration // per attempt; default 20s
	MaxBody   int64         // largest answer read; default 32 MiB (merged label PDFs)
	Retry     Retry
	HTTP      *http.Client // default: a client with sane dial and TLS timeouts
	Log       *slog.Logger
	Metrics   *Metrics
	// KeyHeader is the header that carries APIKey; default x-apikey.
	KeyHeader string
	// MediaType is the interface's JSON media type: sent as Content-Type with
	// every request and accepted in answers beside application/json; default
	// none (JSON bodies go as application/json). Shoptet picks its API
	// version by it.
	MediaType string
	// MaxInFlight bounds this client's requests in flight at once, for an
	// interface that limits connections per key (Shoptet: 3); 0 no bound.
	MaxInFlight int
	// Clock reads a Retry-After given as a date (the upstream's time, which
	// is the simulator's in sandbox mode); default the real clock.
	Clock *clock.Clock
	// Wait is how the client waits between attempts; default a timer that
	// ends early with ctx. A test passes one that moves its clock instead.
	Wait func(ctx context.Context, d time.Duration) error
}

// Retry is the backoff policy for calls that are safe to repeat.
type Retry struct {
	Attempts int           // total attempts; default 4
	Base     time.Duration // first wait; default 200ms
	Max      time.Duration // longest wait; default 5s
}

// Client calls one interface.
type Client struct {
	cfg  Config
	base *url.URL
	http *http.Client
	log  *slog.Logger
	rand func() float64
	wait func(ctx context.Context, d time.Duration) error
	// slots holds one token per request in flight (nil: no bound).
	slots chan struct{}
}

// New checks the configuration and returns a client.
// AnswerLanguage is the language asked of the service for its texts.
const AnswerLanguage = "cs"

func New(cfg Config) (*Client, error) {
	base, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("%s base URL %q: want http(s)://host[/path]", cfg.Interface, cfg.BaseURL)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 20 * time.Second
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = 32 << 20
	}
	if cfg.Retry.Attempts <= 0 {
		cfg.Retry.Attempts = 4
	}
	if cfg.Retry.Base <= 0 {
		cfg.Retry.Base = 200 * time.Millisecond
	}
	if cfg.Retry.Max <= 0 {
		cfg.Retry.Max = 5 * time.Second
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "shipdesk"
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.KeyHeader == "" {
		cfg.KeyHeader = "x-apikey"
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real()
	}
	if cfg.Wait == nil {
		cfg.Wait = sleep
	}
	hc := cfg.HTTP
	if hc == nil {
		hc = &http.Client{Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			TLSClientConfig:     &tls.Config{MinVersion: tls.VersionTLS12},
			TLSHandshakeTimeout: 10 * time.Second,
			MaxIdleConnsPerHost: 16,
			IdleConnTimeout:     90 * time.Second,
		}}
	}
	// Never follow redirects silently: a POST turned into a GET loses its body.
	hc2 := *hc
	hc2.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	c := &Client{cfg: cfg, base: base, http: &hc2, log: cfg.Log, rand: rand.Float64, wait: cfg.Wait}
	if cfg.MaxInFlight > 0 {
		c.slots = make(chan struct{}, cfg.MaxInFlight)
	}
	return c, nil
}

// BaseURL is the configured base, for display.
func (c *Client) BaseURL() string { return c.base.String() }

// Call is one operation.
type Call struct {
	Op         string     // operation name for errors, logs and counters
	Method     string     // GET or POST
	Path       string     // appended to the base URL, e.g. /api/v1/rates/get
	Query      url.Values // optional
	JSON       any        // request body, sent as JSON when not nil
	Form       *Multipart // request body, sent as multipart/form-data when not nil
	Idempotent bool       // repeating it is harmless: retried on 429, 5xx and transport errors
}

// Answer is a successful answer: its HTTP status and the raw JSON object.
type Answer struct {
	Status  int
	Message string
	Body    json.RawMessage
}

// Do performs the call with retries when allowed and returns the answer of a 2xx
// status; any other outcome is an *Error.
func (c *Client) Do(ctx context.Context, call Call) (*Answer, error) {
	body, contentType, err := call.encode()
	if c.cfg.MediaType != "" && (contentType == "application/json" || contentType == "") {
		contentType = c.cfg.MediaType
	}
	if err != nil {
		return nil, &Error{Op: call.Op, Kind: KindDecode, Message: "cannot encode the request", Err: err}
	}
	attempts := 1
	if call.Idempotent {
		attempts = c.cfg.Retry.Attempts
	}
	var last error
	for attempt := 1; attempt <= attempts; attempt++ {
		ans, err, retryAfter := c.attempt(ctx, call, body, contentType, attempt)
		if err == nil {
			return ans, nil
		}
		last = err
		if attempt == attempts || !IsTemporary(err) || ctx.Err() != nil {
			break
		}
		if werr := c.wait(ctx, c.backoff(attempt, retryAfter)); werr != nil {
			break
		}
	}
	return nil, last
}

// backoff is exponential with full jitter, at least what Retry-After asks (capped).
func (c *Client) backoff(attempt int, retryAfter time.Duration) time.Duration {
	d := c.cfg.Retry.Base << (attempt - 1)
	if d > c.cfg.Retry.Max || d <= 0 {
		d = c.cfg.Retry.Max
	}
	d = time.Duration(float64(d) * (0.5 + c.rand()/2))
	if retryAfter > d {
		d = min(retryAfter, c.cfg.Retry.Max)
	}
	return d
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (c *Client) attempt(ctx context.Context, call Call, body []byte, contentType string, attempt int) (*Answer, error, time.Duration) {
	if c.slots != nil {
		select {
		case c.slots <- struct{}{}:
			defer func() { <-c.slots }()
		case <-ctx.Done():
			return nil, &Error{Op: call.Op, Kind: KindTransport, Message: "gave up waiting for a free connection", Err: ctx.Err()}, 0
		}
	}
	watch := clock.Start()
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var sent bool
	actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{
		WroteRequest: func(httptrace.WroteRequestInfo) { sent = true },
	})
	u := *c.base
	u.Path = c.base.Path + call.Path
	if len(call.Query) > 0 {
		u.RawQuery = call.Query.Encode()
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(actx, call.Method, u.String(), rd)
	if err != nil {
		return nil, &Error{Op: call.Op, Kind: KindDecode, Message: "cannot build the request", Err: err}, 0
	}
	req.Header.Set(c.cfg.KeyHeader, c.cfg.APIKey)
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	req.Header.Set("Accept", "application/json")
	// The shop's people are Czech: ask for the service's Czech texts on
	// purpose. Its data (tracking events) is Czech anyway; its messages are
	// documented in English, and serviceerr.Known reads them in either.
	req.Header.Set("Accept-Language", AnswerLanguage)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}

	resp, err := c.http.Do(req)
	if err != nil {
		e := &Error{Op: call.Op, Kind: KindTransport, Sent: sent, Message: "no answer from the service", Err: cleanURLError(err)}
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			e.Message = fmt.Sprintf("no answer within %s", c.cfg.Timeout)
		}
		c.record(ctx, call, attempt, 0, watch, e)
		return nil, e, 0
	}
	defer resp.Body.Close()
	ans, err := c.read(call, resp, sent)
	c.record(ctx, call, attempt, resp.StatusCode, watch, err)
	return ans, err, c.retryAfter(resp.Header.Get("Retry-After"))
}

// cleanURLError drops the URL from a transport error: it may carry a query
// with personal data, and the operation name already says what failed.
func cleanURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// retryAfter reads Retry-After as seconds or as an HTTP date, the latter
// against the upstream's clock.
func (c *Client) retryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, c.cfg.Clock.Until(t))
	}
	return 0
}

// read bounds the answer, checks it is a JSON object and turns an error status
// into an *Error with the service's message and field errors.
func (c *Client) read(call Call, resp *http.Response, sent bool) (*Answer, error) {
	fail := func(msg string, err error) error {
		return &Error{Op: call.Op, Kind: KindDecode, Status: resp.StatusCode, Message: msg, Err: err}
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, c.cfg.MaxBody+1))
	if err != nil {
		e := &Error{Op: call.Op, Kind: KindTransport, Sent: sent, Status: 0, Message: "the answer was cut off", Err: cleanURLError(err)}
		return nil, e
	}
	if int64(len(raw)) > c.cfg.MaxBody {
		return nil, fail(fmt.Sprintf("answer larger than %d bytes", c.cfg.MaxBody), nil)
	}
	env, derr := DecodeEnvelope(raw)
	ok := resp.StatusCode >= 200 && resp.StatusCode < 300
	if derr != nil {
		if !ok {
			// An error page of a proxy or a crash: keep the status, say what came.
			return nil, &Error{Op: call.Op, Kind: KindStatus, Status: resp.StatusCode,
				Message: describeNonJSON(resp, raw)}
		}
		return nil, fail("expected a JSON object with status and message, got "+describeNonJSON(resp, raw), derr)
	}
	if !c.jsonContentType(resp.Header.Get("Content-Type")) && ok {
		return nil, fail("expected application/json, got "+strconv.Quote(resp.Header.Get("Content-Type")), nil)
	}
	if !ok {
		msg := env.Message
		if msg == "" {
			msg = http.StatusText(resp.StatusCode)
		}
		return nil, &Error{Op: call.Op, Kind: KindStatus, Status: resp.StatusCode, Message: msg, Fields: env.Errors}
	}
	return &Answer{Status: resp.StatusCode, Message: env.Message, Body: raw}, nil
}

func (c *Client) jsonContentType(v string) bool {
	mt, _, err := mime.ParseMediaType(v)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json") || (c.cfg.MediaType != "" && mt == c.cfg.MediaType))
}

// describeNonJSON says briefly what arrived instead of JSON.
func describeNonJSON(resp *http.Response, raw []byte) string {
	ct := resp.Header.Get("Content-Type")
	if ct == "" {
		ct = "no content type"
	}
	if len(raw) == 0 {
		return fmt.Sprintf("an empty body (%s)", ct)
	}
	return fmt.Sprintf("%d bytes of %s", len(raw), ct)
}

func (c *Client) record(ctx context.Context, call Call, attempt, status int, watch clock.Stopwatch, err error) {
	d := watch.Elapsed()
	outcome := strconv.Itoa(status)
	level := slog.LevelInfo
	if err != nil {
		level = slog.LevelWarn
		if e, ok := asError(err); ok && e.Kind != KindStatus {
			outcome = map[Kind]string{KindTransport: "transport_error", KindDecode: "bad_answer"}[e.Kind]
		}
	}
	c.cfg.Metrics.observe(c.cfg.Interface, call.Op, outcome, d, err)
	attrs := []slog.Attr{
		slog.String("interface", c.cfg.Interface),
		slog.String("op", call.Op),
		slog.String("outcome", outcome),
		slog.Int("attempt", attempt),
		slog.Duration("duration", d),
	}
	if err != nil {
		// The error holds the operation and the service's message, never the key
		// or the body we sent.
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	c.log.LogAttrs(ctx, level, "upstream call", attrs...)
}
