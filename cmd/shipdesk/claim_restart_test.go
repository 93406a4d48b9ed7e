package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/client/returns"
	"shipdesk/clock"
	"shipdesk/mailcatch"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/upstream"
)

var openLink = regexp.MustCompile(`/claim/open/[A-Za-z0-9_-]{43}`)

// A `serve` killed outright while the returns API creates a claim's
// commission leaves it "ordering" with its attempt open. The next instance
// finds it at the service by our reference and adopts it: the service holds
// one commission, the customer has one intake confirmation and one mail of
// it, the claim is bound to it and no attempt stays open.
func TestClaimCommissionSurvivesAKilledServer(t *testing.T) {
	catcher, err := mailcatch.Start(clock.From(sandboxtest.Epoch)) // outlives both instances
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(catcher.Close)
	c := newCluster(t, "SMTP_URL="+catcher.URL())
	first := c.serve()
	db, sb := c.DB, c.SB
	customer := &http.Client{Timeout: 2 * time.Minute, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	if r := post(t, customer, first.URL, "/claim", "application/x-www-form-urlencoded",
		strings.NewReader(url.Values{"reference": {"DEMO-1"}, "contact": {"jana@example.cz"}}.Encode())); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("ask for a link: %d", r.StatusCode)
	}
	var link string
	waitFor(t, "the link's mail", func() bool {
		for _, m := range catcher.All() {
			if l := openLink.FindString(m.Text); l != "" {
				link = l
			}
		}
		return link != ""
	}, first.log)
	form := claimForm(t, bodyOf(send(t, customer, http.MethodGet, first.URL, link, "", nil)))

	// The create is held at the service; the instance dies while it waits.
	sb.Hold("/returns/api/v1/commissions/create")
	filed := make(chan struct{})
	go func() {
		defer close(filed)
		req, _ := http.NewRequest(http.MethodPost, first.URL+link, bytes.NewReader(form.body))
		req.Header.Set("Content-Type", form.contentType)
		req.Header.Set("Origin", first.URL)
		if resp, err := customer.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	var id int64
	waitFor(t, "the commission's create sent", func() bool {
		_ = db.Get(&id, `SELECT id FROM commissions WHERE reference LIKE 'RC-W%' AND state = 'ordering'`)
		return id != 0 && heldCreates(t, sb) > 0
	}, first.log)
	first.kill()
	<-filed
	sb.Release()
	var open int
	_ = db.Get(&open, `SELECT count(*) FROM create_attempts WHERE commission_id = $1 AND outcome = 'open'`, id)
	if open != 1 {
		t.Fatalf("%d open attempts after the kill, want the one cut off", open)
	}

	second := c.serve()
	var number, reference string
	waitFor(t, "the commission adopted, confirmed and mailed", func() bool {
		var sent int
		_ = db.QueryRow(`SELECT number, reference FROM commissions WHERE id = $1 AND state = 'created'`, id).Scan(&number, &reference)
		_ = db.Get(&sent, `SELECT count(*) FROM mail_outbox m JOIN commission_documents d ON m.event_key = 'confirmation:' || d.id
WHERE d.commission_id = $1 AND m.state = 'sent'`, id)
		return number != "" && sent > 0
	}, second.log)
	// A few more rounds of the pollers find nothing more to do.
	time.Sleep(3 * time.Second)

	var counts struct {
		Documents int `db:"documents"`
		Mails     int `db:"mails"`
		Open      int `db:"open"`
		Bound     int `db:"bound"`
	}
	if err := db.Get(&counts, `SELECT
    (SELECT count(*) FROM commission_documents WHERE commission_id = $1 AND kind = 'intake') AS documents,
    (SELECT count(*) FROM mail_outbox m JOIN commission_documents d ON m.event_key = 'confirmation:' || d.id WHERE d.commission_id = $1) AS mails,
    (SELECT count(*) FROM create_attempts WHERE commission_id = $1 AND outcome = 'open') AS open,
    (SELECT count(*) FROM claims WHERE commission_id = $1) AS bound`, id); err != nil {
		t.Fatal(err)
	}
	if counts.Documents != 1 || counts.Mails != 1 || counts.Open != 0 || counts.Bound != 1 {
		t.Errorf("after the restart: %+v, want one intake confirmation, one mail, no open attempt, the claim bound", counts)
	}
	caught := 0
	for _, m := range catcher.All() {
		if strings.Contains(m.Subject, number) {
			caught++
			if !strings.Contains(m.To, "jana@example.cz") || !strings.Contains(m.Text, "/claim/status/") || len(m.Attachments) != 1 {
				t.Errorf("the confirmation's mail to %q with %d attachments:\n%s", m.To, len(m.Attachments), m.Text)
			}
		}
	}
	if caught != 1 {
		t.Errorf("the mail server caught %d mails of commission %s, want 1", caught, number)
	}
	up, err := upstream.New(upstream.Config{ShippingURL: sb.URL, ShippingKey: sandboxtest.ShippingKey, ReturnsURL: sb.Returns,
		ReturnsKey: sandboxtest.ReturnsKey, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	list, err := up.Returns.List(context.Background(), returns.ListQuery{Customer: "jana@example.cz", PerPage: 100})
	if err != nil {
		t.Fatal(err)
	}
	held := 0
	for _, rc := range list.Commissions {
		if rc.Reference == reference {
			held++
		}
	}
	if held != 1 {
		t.Errorf("the service holds %d commissions of the claim, want 1", held)
	}
}

// postedForm is a multipart body ready to post.
type postedForm struct {
	body        []byte
	contentType string
}

// claimForm is the claim form a link opened, as drawn, filled as a customer
// claiming a defect, bringing the goods to the shop, with a proof of purchase.
func claimForm(t *testing.T, page string) postedForm {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	v := url.Values{}
	doc.Find(`[data-testid=claim-form] input[type=hidden], [data-testid=claim-form] input[type=text], [data-testid=claim-form] input[type=tel]`).
		Each(func(_ int, s *goquery.Selection) { v.Set(s.AttrOr("name", ""), s.AttrOr("value", "")) })
	v.Set("model_id", doc.Find(`#model_id optgroup option`).First().AttrOr("value", ""))
	for k, s := range map[string]string{"kind": "defect", "remedy": "repair", "transport": "shop", "description": "The lid cracked."} {
		v.Set(k, s)
	}
	if v.Get("key") == "" || v.Get("model_id") == "" {
		t.Fatalf("the claim form lacks its key or a model: %v", v)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k := range v {
		_ = mw.WriteField(k, v.Get(k))
	}
	fw, _ := mw.CreateFormFile("proof", "invoice.pdf")
	_, _ = fw.Write([]byte("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"))
	_ = mw.Close()
	return postedForm{body: body.Bytes(), contentType: mw.FormDataContentType()}
}

// heldCreates is how many commission creates the sandbox's hold has taken.
func heldCreates(t *testing.T, sb *sandboxtest.Env) int {
	t.Helper()
	resp, err := http.Get(sb.URL + "/sandbox/faults")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct {
		Data []struct {
			Path string `json:"path"`
			Used int    `json:"used"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		t.Fatal(fmt.Errorf("sandbox faults: %w", err))
	}
	n := 0
	for _, f := range env.Data {
		if f.Path == "/returns/api/v1/commissions/create" {
			n += f.Used
		}
	}
	return n
}
