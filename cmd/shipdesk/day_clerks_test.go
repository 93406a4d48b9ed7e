package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// The day's people: clerks going through compare → order → print at a
// person's pace, a manager moving the sandbox's clock on (so labels become
// ready to print and parcels move), and the file of a batch.

// browser is one person's browser: its cookies, over HTTP to base.
type browser struct {
	c    *http.Client
	base string
}

// signInBrowser signs in as username with a browser of its own.
func signInBrowser(tb testing.TB, base, username, password string) *browser {
	tb.Helper()
	jar, _ := cookiejar.New(nil)
	br := &browser{base: base, c: &http.Client{Jar: jar, Timeout: time.Minute,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport:     &http.Transport{MaxIdleConnsPerHost: 64}}}
	status, _, _, err := br.do(http.MethodPost, "/login", "application/x-www-form-urlencoded",
		strings.NewReader(url.Values{"username": {username}, "password": {password}}.Encode()))
	if err != nil || status != http.StatusSeeOther {
		tb.Fatalf("sign in as %s: %d %v", username, status, err)
	}
	return br
}

// do sends a request from the page's own origin and reads the answer; it
// returns the status, the body and the redirect's target.
func (br *browser) do(method, path, contentType string, body io.Reader) (int, string, string, error) {
	req, _ := http.NewRequest(method, br.base+path, body)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Origin", br.base)
	req.Header.Set("Referer", br.base+"/")
	req.Header.Set("Accept-Language", "en")
	resp, err := br.c.Do(req)
	if err != nil {
		return 0, "", "", err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, string(data), resp.Header.Get("Location"), err
}

func (br *browser) get(path string) (int, string, error) {
	status, body, _, err := br.do(http.MethodGet, path, "", nil)
	return status, body, err
}

func (br *browser) postForm(path string, v url.Values) (int, string, string, error) {
	return br.do(http.MethodPost, path, "application/x-www-form-urlencoded", strings.NewReader(v.Encode()))
}

// clerkSteps are the steps of a clerk's round, timed under these names.
var clerkSteps = []string{"new form", "compare", "order", "print queue", "print"}

// clerkRound is one shipment through compare → order → print: the form
// opened, offers compared, one chosen and ordered, its page opened, then the
// labels ready in the print queue printed (a few at a time). Think is the
// pause between steps. It returns the new shipment's page.
func clerkRound(br *browser, i int, steps map[string]*latencies, think func()) (string, error) {
	timed := func(step string, do func() error) error {
		start := time.Now()
		err := do()
		if err != nil {
			steps[step].fail(err.Error())
			return err
		}
		steps[step].add(time.Since(start))
		think()
		return nil
	}
	var form url.Values
	if err := timed("new form", func() error {
		status, body, err := br.get("/shipping/new")
		if err != nil || status != http.StatusOK {
			return fmt.Errorf("new shipment form: %d %v", status, err)
		}
		form, err = shipmentForm(body, i)
		return err
	}); err != nil {
		return "", err
	}
	var offers string
	if err := timed("compare", func() error {
		status, body, _, err := br.postForm("/shipping/new/compare", form)
		if err != nil || status != http.StatusOK {
			return fmt.Errorf("compare: %d %v", status, err)
		}
		offers = body
		return nil
	}); err != nil {
		return "", err
	}
	var page string
	if err := timed("order", func() error {
		service, err := firstOffer(offers)
		if err != nil {
			return err
		}
		chosen := cloneValues(form)
		chosen.Set("choose", service)
		status, body, _, err := br.postForm("/shipping/new/choose", chosen)
		if err != nil || status != http.StatusOK {
			return fmt.Errorf("choose: %d %v", status, err)
		}
		for k, v := range hiddenInputs(body) {
			chosen[k] = v
		}
		status, _, page, err = br.postForm("/shipping/new/order", chosen)
		if err != nil || status != http.StatusSeeOther {
			return fmt.Errorf("order: %d %v", status, err)
		}
		status, _, err = br.get(page)
		if err != nil || status != http.StatusOK {
			return fmt.Errorf("the new shipment's page %s: %d %v", page, status, err)
		}
		return nil
	}); err != nil {
		return "", err
	}
	var ready []string
	if err := timed("print queue", func() error {
		status, body, err := br.get("/shipping/print")
		if err != nil || status != http.StatusOK {
			return fmt.Errorf("print queue: %d %v", status, err)
		}
		for _, m := range readyLabel.FindAllStringSubmatch(body, 3) {
			ready = append(ready, m[1])
		}
		return nil
	}); err != nil || len(ready) == 0 {
		return page, err
	}
	return page, timed("print", func() error {
		status, _, _, err := br.postForm("/shipping/print", url.Values{"ids": ready})
		if err != nil || status != http.StatusOK {
			return fmt.Errorf("print %v: %d %v", ready, status, err)
		}
		return nil
	})
}

var readyLabel = regexp.MustCompile(`name="ids" value="(\d+)"`)

// shipmentForm fills the new-shipment form drawn in body (its request key
// and sender kept) with the i-th recipient.
func shipmentForm(body string, i int) (url.Values, error) {
	v := hiddenInputs(body)
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	sender := doc.Find(`select[name=sender] option`).First().AttrOr("value", "")
	if sender == "" {
		sender = doc.Find(`input[name=sender]`).First().AttrOr("value", "")
	}
	if v.Get("key") == "" || sender == "" {
		return nil, fmt.Errorf("the new shipment form has no request key or sender")
	}
	city := dayPlaces[i%len(dayPlaces)]
	for k, x := range map[string]string{"sender": sender, "handover": "ONDEMAND",
		"to_firstname": "Jana", "to_surname": fmt.Sprintf("Nováková %d", i), "to_street": fmt.Sprintf("%s %d", city[2], 1+i%200),
		"to_city": city[0], "to_zip": city[1], "to_country": "CZ", "to_phone": "+420 777 123 456", "to_email": "jana@example.cz",
		"pkg_weight": fmt.Sprint(1 + i%5), "pkg_length": "30", "pkg_width": "20", "pkg_height": "10"} {
		v.Set(k, x)
	}
	return v, nil
}

var dayPlaces = [][3]string{{"Brno", "602 00", "Masarykova"}, {"Praha 10", "100 00", "Vinohradská"},
	{"Ostrava", "702 00", "Nádražní"}, {"Plzeň", "301 00", "Americká"}, {"Olomouc", "779 00", "Třída Svobody"}}

// firstOffer is the service of the first offer that may be chosen without
// a delivery point.
func firstOffer(body string) (string, error) {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		return "", err
	}
	id := ""
	doc.Find(`[data-testid=offer][data-selectable=true]`).EachWithBreak(func(_ int, row *goquery.Selection) bool {
		toPoint := strings.TrimSpace(row.Find(`[data-testid=offer-delivery-point]`).Text()) == "required"
		if row.Find(`[data-testid=choose]`).Length() > 0 && !toPoint {
			id = row.AttrOr("data-service", "")
		}
		return id == ""
	})
	if id == "" {
		return "", fmt.Errorf("no offer to choose")
	}
	return id, nil
}

func hiddenInputs(body string) url.Values {
	v := url.Values{}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		return v
	}
	doc.Find(`input[type=hidden][name]`).Each(func(_ int, in *goquery.Selection) {
		v.Set(in.AttrOr("name", ""), in.AttrOr("value", ""))
	})
	return v
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, x := range v {
		out[k] = append([]string(nil), x...)
	}
	return out
}

// thinking is a person's pause between two steps: 1–2 s.
func thinking() { time.Sleep(time.Second + rand.N(time.Second)) }

// advanceClock moves the sandbox's clock on by minutes, as the banner's
// button does: exported labels become ready, parcels move.
func advanceClock(br *browser, minutes int) error {
	status, _, _, err := br.postForm("/sandbox-clock", url.Values{"minutes": {fmt.Sprint(minutes)}})
	if err != nil || status != http.StatusSeeOther {
		return fmt.Errorf("advance the sandbox clock: %d %v", status, err)
	}
	return nil
}

// uploadBatch imports a day's file of n orders (our template's columns, as
// examples/orders.csv has them) and returns the batch's page.
func uploadBatch(tb testing.TB, br *browser, n int) string {
	tb.Helper()
	example, err := os.ReadFile("../../examples/orders.csv")
	if err != nil {
		tb.Fatal(err)
	}
	header, _, _ := strings.Cut(string(example), "\n")
	columns := len(strings.Split(header, ";"))
	var file bytes.Buffer
	file.WriteString(strings.TrimRight(header, "\r") + "\r\n")
	for i := range n {
		p := dayPlaces[i%len(dayPlaces)]
		row := []string{fmt.Sprintf("DAY-%05d", i+1), "Petr", fmt.Sprintf("Dvořák %d", i), "", fmt.Sprintf("%s %d", p[2], 1+i%300),
			p[0], p[1], "CZ", "+420 604 887 312", fmt.Sprintf("zakaznik%d@example.cz", i), fmt.Sprint(1 + i%8), "30", "20", "10"}
		for len(row) < columns {
			row = append(row, "")
		}
		file.WriteString(strings.Join(row, ";") + "\r\n")
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("handover", "ONDEMAND")
	fw, _ := mw.CreateFormFile("file", "day.csv")
	_, _ = fw.Write(file.Bytes())
	_ = mw.Close()
	status, _, page, err := br.do(http.MethodPost, "/shipping/batches", mw.FormDataContentType(), &body)
	if err != nil || status != http.StatusSeeOther || !strings.HasPrefix(page, "/shipping/batches/") {
		tb.Fatalf("import %d orders: %d %q %v", n, status, page, err)
	}
	return page
}
