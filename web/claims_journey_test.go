package web_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/storage"
)

var jpegBytes = string(jpegOf(32, 24)) // a photo that decodes: kept photos are drawn again

// fileClaim asks for a link and files a claim of a defect with a proof and
// a photo, brought to the shop; it returns the status page's path.
func fileClaim(t *testing.T, env *apptest.Env, kv ...string) string {
	t.Helper()
	_, link := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	if link == "" {
		t.Fatal("no link mailed")
	}
	b := env.NewBrowser()
	fields := claimFields(t, b.Get(link).Body, append([]string{"kind", "defect", "remedy", "repair", "transport", "shop",
		"description", "The lid cracked."}, kv...)...)
	resp := claimPost(t, env, b, link, fields, map[string][][2]string{"proof": {{"invoice.pdf", string(pdfBytes)}},
		"photos": {{"lid.jpg", jpegBytes}}})
	if resp.StatusCode != 303 || !strings.HasPrefix(resp.Header.Get("Location"), "/claim/status/") {
		t.Fatalf("file the claim: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	return resp.Header.Get("Location")
}

// A claim filed on the page reaches the returns desk as a commission with
// its origin, the customer's files and replies; the status page shows its
// state and the shop's public messages, never the internal notes; the
// intake confirmation is kept and listed for the customer.
func TestClaimBecomesACommissionAndTalksBack(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	status := fileClaim(t, env)
	customer := env.NewBrowser()
	page := customer.Get(status)
	if page.StatusCode != 200 || !strings.Contains(page.Body, "DEMO-1") || !strings.Contains(page.Body, "lid.jpg") {
		t.Fatalf("status page: %d", page.StatusCode)
	}
	token := strings.TrimPrefix(status, "/claim/status/")
	c, err := env.ClaimByStatus(token)
	if err != nil || c.CommissionID == nil {
		t.Fatalf("claim %+v %v", c, err)
	}
	com, err := env.App.DB.CommissionByID(ctx, *c.CommissionID)
	if err != nil || com.State != storage.StateCreated || com.Type != "warranty" || com.Remedy != "repair" || com.CustomerEmail != "jana@example.cz" {
		t.Fatalf("commission %+v %v", com, err)
	}
	agent := env.SignedIn(identity.Agent)
	cpage := agent.Get("/returns/commissions/" + itoa(com.ID))
	for _, want := range []string{"from the claim page", "DEMO-1", "lid.jpg", "invoice.pdf"} {
		if !strings.Contains(cpage.Body, want) {
			t.Errorf("the commission page lacks %q", want)
		}
	}
	// A note stays inside; a message reaches the customer's page.
	if r := agent.PostForm("/returns/commissions/"+itoa(com.ID)+"/notes", with(nil, "key", requestkey.New(), "note_text", "Internal: check the supplier")); r.StatusCode != 303 {
		t.Fatalf("note: %d", r.StatusCode)
	}
	if r := agent.PostForm("/returns/commissions/"+itoa(com.ID)+"/messages", with(nil, "key", requestkey.New(), "message_text", "We have your claim.", "confirm", "yes")); r.StatusCode != 303 {
		t.Fatalf("message: %d", r.StatusCode)
	}
	page = customer.Get(status)
	if !strings.Contains(page.Body, "We have your claim.") || strings.Contains(page.Body, "Internal: check the supplier") {
		t.Errorf("messages on the status page: public %v, internal %v", strings.Contains(page.Body, "We have your claim."),
			strings.Contains(page.Body, "Internal"))
	}
	if !strings.Contains(page.Body, "Confirmation of the claim received") {
		t.Error("the intake confirmation is not listed for the customer")
	}
	// The customer replies with a photo; the agent reads both.
	reply := formKey(t, page.Body, "claim-reply")
	r := claimPost(t, env, customer, status+"/reply", with(nil, "key", reply, "text", "It happened on the first day."),
		map[string][][2]string{"photos": {{"second.png", string(pngBytes)}}})
	if r.StatusCode != 303 {
		t.Fatalf("reply: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	claimPost(t, env, customer, status+"/reply", with(nil, "key", reply, "text", "It happened on the first day."), nil) // sent twice
	if msgs, _ := env.App.DB.ClaimMessages(ctx, c.ID); len(msgs) != 1 {
		t.Errorf("%d replies kept for one posted twice", len(msgs))
	}
	cpage = agent.Get("/returns/commissions/" + itoa(com.ID))
	if !strings.Contains(cpage.Body, "It happened on the first day.") || !strings.Contains(cpage.Body, "second.png") {
		t.Error("the agent does not see the reply and its photo")
	}
	// The reply's photo goes with the reply, not again among the claim's files.
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(cpage.Body))
	if own := doc.Find(`[data-testid=commission-claim] ul.plain`).Text(); strings.Contains(own, "second.png") || !strings.Contains(own, "lid.jpg") {
		t.Errorf("the claim's own files: %q", own)
	}
	// The reply waits in the agents' queue until a message answers it.
	if q := agent.Get("/attention?kind=claim_reply").Body; !strings.Contains(q, "Customer wrote") || !strings.Contains(q, "/returns/commissions/"+itoa(com.ID)) {
		t.Errorf("the reply is not in the agents' queue: %s", problemsOf(q))
	}
	if r := agent.PostForm("/returns/commissions/"+itoa(com.ID)+"/messages", with(nil, "key", requestkey.New(), "message_text", "Thank you, noted.", "confirm", "yes")); r.StatusCode != 303 {
		t.Fatalf("answer: %d", r.StatusCode)
	}
	if q := agent.Get("/attention?kind=claim_reply").Body; strings.Contains(q, "/returns/commissions/"+itoa(com.ID)) {
		t.Error("the answered reply stays in the queue")
	}
	// The intake confirmation went by mail with the PDF and a link to the
	// page: a key of its own (the keys are kept as hashes, none read back),
	// which opens the same claim.
	conf := claimMails(t, env, "confirmation")
	mailed := ""
	if len(conf) > 0 {
		mailed = claimPathIn.FindString(conf[0].Text)
	}
	if len(conf) != 1 || !strings.HasPrefix(mailed, "/claim/status/") || conf[0].To != "jana@example.cz" {
		t.Errorf("%d confirmation mails, the first with the status link %q", len(conf), mailed)
	}
	if mc, err := env.ClaimByStatus(mailed); err != nil || mc.ID != c.ID || mailed == status {
		t.Errorf("the mailed link opens claim %d (%v), want %d by a key of its own", mc.ID, err, c.ID)
	}
	if r := customer.Get(mailed); r.StatusCode != 200 || !strings.Contains(r.Body, "DEMO-1") {
		t.Errorf("the mailed link's page: %d", r.StatusCode)
	}
	// The kept confirmation opens from the customer's page.
	docs, _ := env.App.DB.DocumentsOf(ctx, com.ID)
	if len(docs) != 1 {
		t.Fatalf("%d confirmations", len(docs))
	}
	if d := customer.Get(status + "/documents/" + itoa(docs[0].ID)); d.StatusCode != 200 || !strings.HasPrefix(d.Body, "%PDF") {
		t.Errorf("confirmation: %d", d.StatusCode)
	}
}

// Nothing of one claim is reachable from another's link; a used link opens
// nothing but says where the claim is; a guessed link is refused, and a
// client that guesses many is throttled.
func TestClaimLinksOpenOnlyTheirOwnClaim(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	a, b := fileClaim(t, env), fileClaim(t, env)
	ca, _ := env.ClaimByStatus(a)
	cb, _ := env.ClaimByStatus(b)
	filesB, _ := env.App.DB.ClaimUploads(ctx, cb.ID)
	docsB, _ := env.App.DB.DocumentsOf(ctx, *cb.CommissionID)
	if len(filesB) == 0 || len(docsB) == 0 {
		t.Fatalf("claim B has %d files, %d documents", len(filesB), len(docsB))
	}
	customerA := env.NewBrowser()
	for _, p := range []string{a + "/files/" + itoa(filesB[0].ID), a + "/documents/" + itoa(docsB[0].ID), a + "/label.pdf"} {
		if r := customerA.Get(p); r.StatusCode != 404 {
			t.Errorf("%s from A's link: %d", p, r.StatusCode)
		}
	}
	pageA := customerA.Get(a).Body
	for _, f := range filesB {
		if strings.Contains(pageA, "/files/"+itoa(f.ID)+`"`) {
			t.Errorf("A's page links B's file %s", f.Filename)
		}
	}
	if filesA, _ := env.App.DB.ClaimUploads(ctx, ca.ID); len(filesA) == 0 || !strings.Contains(pageA, a+"/files/"+itoa(filesA[0].ID)) {
		t.Error("A's page does not link its own file")
	}
	// The link that made A opens nothing more.
	links := claimMails(t, env, "claim-link")
	used := claimPathIn.FindString(links[len(links)-1].Text)
	if r := env.NewBrowser().Get(used); r.StatusCode != 409 || !strings.Contains(r.Body, "filed through this link already") {
		t.Errorf("a used link: %d", r.StatusCode)
	}
	guesser := env.NewBrowser()
	codes := map[int]int{}
	for i := 0; i < 25; i++ {
		codes[guesser.Get("/claim/status/"+strings.Repeat("A", 42)+string(rune('a'+i))).StatusCode]++
	}
	if codes[404] != 20 || codes[429] != 5 {
		t.Errorf("guessing: %v", codes)
	}
}

// Files of the wrong type (by content, whatever the name), too big or too
// many are refused with the form's problem, and nothing is stored.
func TestClaimUploadsRefusedWithNothingStored(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	_, link := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	b := env.NewBrowser()
	fields := claimFields(t, b.Get(link).Body, "kind", "defect", "remedy", "repair", "transport", "shop", "description", "Cracked.")
	count := func() (n int) {
		_ = env.App.DB.SQL().QueryRowContext(ctx, `SELECT (SELECT count(*) FROM claims) + (SELECT count(*) FROM uploads)`).Scan(&n)
		return n
	}
	before := count()
	tooMany := make([][2]string, 7)
	for i := range tooMany {
		tooMany[i] = [2]string{"p.jpg", jpegBytes}
	}
	for name, files := range map[string]map[string][][2]string{
		"html as jpg":  {"proof": {{"invoice.pdf", string(pdfBytes)}}, "photos": {{"lid.jpg", "<html><script>alert(1)</script>"}}},
		"exe as pdf":   {"proof": {{"invoice.pdf", "MZ\x90\x00binary"}}},
		"pdf as png":   {"proof": {{"invoice.png", string(pdfBytes)}}},
		"empty photo":  {"proof": {{"invoice.pdf", string(pdfBytes)}}, "photos": {{"empty.jpg", ""}}},
		"seven photos": {"proof": {{"invoice.pdf", string(pdfBytes)}}, "photos": tooMany},
		"huge photo":   {"proof": {{"invoice.pdf", string(pdfBytes)}}, "photos": {{"big.jpg", "\xff\xd8\xff" + strings.Repeat("x", 11<<20)}}},
		"no proof":     {"photos": {{"lid.jpg", jpegBytes}}},
	} {
		r := claimPost(t, env, b, link, fields, files)
		if r.StatusCode != 422 && r.StatusCode != 413 {
			t.Errorf("%s: %d", name, r.StatusCode)
		}
	}
	if n := count(); n != before {
		t.Errorf("%d claims and files stored by refused posts", n-before)
	}
	if r := b.Get(link); r.StatusCode != 200 {
		t.Errorf("the link no longer opens after refusals: %d", r.StatusCode)
	}
}

// A withdrawal filed after its 14 days is taken and marked late for the
// agent; its refund (the amount on delivery) is due 14 days after it came,
// on the managers' list.
func TestLateWithdrawalFromTheClaimPage(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	env.Sandbox.Advance(16 * 24 * time.Hour)
	_, link := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	b := env.NewBrowser()
	form := b.Get(link)
	if !strings.Contains(form.Body, `data-testid="claim-late"`) {
		t.Error("the form does not say the 14 days are over")
	}
	fields := claimFields(t, form.Body, "kind", "withdrawal", "transport", "shop", "refund_account", "19-2000145399/0800")
	if fields.Get("refund_amount") != "1250" {
		t.Errorf("refund offered: %q", fields.Get("refund_amount"))
	}
	r := claimPost(t, env, b, link, fields, nil)
	if r.StatusCode != 303 {
		t.Fatalf("withdrawal: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	c, _ := env.ClaimByStatus(r.Header.Get("Location"))
	if !c.Late || c.CommissionID == nil {
		t.Fatalf("claim late %v, commission %v", c.Late, c.CommissionID)
	}
	w, err := env.App.DB.WithdrawalOfCommission(ctx, *c.CommissionID)
	if err != nil || !w.Late || w.Amount != 1250 {
		t.Fatalf("withdrawal %+v %v", w, err)
	}
	if !strings.Contains(env.SignedIn(identity.Agent).Get("/returns/commissions/"+itoa(*c.CommissionID)).Body, "after the 14 days") {
		t.Error("the agent is not told it came late")
	}
	if body := env.SignedIn(identity.Manager).Get("/returns/refunds").Body; !strings.Contains(page(t, body).Find("main").Text(), "1,250.00") {
		t.Error("the refund is not on the managers' list")
	}
}

// A claim sent with a hand-over code orders the return parcel label-free to
// the return address once; the code shows on the status page and goes by
// mail once the service exports it; the parcel's delivery to the shop moves
// the commission on to processing.
func TestClaimWithHandOverCode(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	carrier, point := codePoint(t, env)
	status := fileClaim(t, env, "transport", "code", "point_carrier", carrier, "point_code", point)
	c, _ := env.ClaimByStatus(status)
	if c.ReturnShipmentID == nil || c.CommissionID == nil {
		t.Fatalf("claim: parcel %v, commission %v, problem %v", c.ReturnShipmentID, c.CommissionID, c.Problem)
	}
	parcel, _ := env.App.DB.ShipmentByID(ctx, *c.ReturnShipmentID)
	if !parcel.LabelLess || parcel.Carrier != carrier {
		t.Errorf("return parcel: label-less %v, carrier %q", parcel.LabelLess, parcel.Carrier)
	}
	customer := env.NewBrowser()
	if body := customer.Get(status).Body; !strings.Contains(body, `data-testid="claim-code-waiting"`) {
		t.Error("the page does not say the code is coming")
	}
	env.Sandbox.Advance(10 * time.Minute)
	env.App.Jobs.Cycle(ctx)
	env.App.Jobs.Cycle(ctx)
	mails := claimMails(t, env, "claim-handover")
	if len(mails) != 1 {
		t.Fatalf("%d hand-over mails", len(mails))
	}
	code := page(t, customer.Get(status).Body).Find(`[data-testid=claim-code]`).Text()
	if len(code) != 6 || !strings.Contains(mails[0].Text, code) || mails[0].To != "jana@example.cz" {
		t.Fatalf("code %q, mail %q", code, mails[0].Subject)
	}
	// The customer writes the shop's name on the parcel, never a staff
	// member of the return address (the parcel is addressed there all the same).
	shop, _ := env.App.DB.ShopIdentity(ctx)
	writeOn := page(t, customer.Get(status).Body).Find(`[data-testid=claim-write-on]`).Text() + "\n" + mails[0].Text
	if shop.Name == "" || !strings.Contains(writeOn, shop.Name) || strings.Contains(writeOn, parcel.RecipientName) {
		t.Errorf("the customer writes %q on the parcel (the shop is %q):\n%s", parcel.RecipientName, shop.Name, mails[0].Text)
	}
	env.Sandbox.Advance(2 * time.Hour)
	env.App.Jobs.Cycle(ctx)
	env.App.Jobs.Cycle(ctx)
	if n := len(claimMails(t, env, "claim-handover")); n != 1 {
		t.Errorf("%d hand-over mails after more cycles", n)
	}
	com, _ := env.App.DB.CommissionByID(ctx, *c.CommissionID)
	if com.Status != "processing" {
		t.Errorf("the commission is %q after its parcel arrived", com.Status)
	}
	if body := customer.Get(status).Body; !strings.Contains(body, "reached us") {
		t.Error("the page does not say the parcel arrived")
	}
}

// When the carrier refuses the label-free export (the spec's fallback),
// the customer gets the label as a PDF: attached to the mail, and from the
// status page.
func TestClaimLabelWhenTheCarrierRefusesACode(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	carrier, point := codePoint(t, env)
	env.Sandbox.Control("POST", "/sandbox/carriers/"+strings.ToLower(carrier)+"/behaviour", map[string]any{"refuse_label_less": true})
	status := fileClaim(t, env, "transport", "code", "point_carrier", carrier, "point_code", point)
	env.Sandbox.Advance(10 * time.Minute)
	env.App.Jobs.Cycle(ctx)
	env.App.Jobs.Cycle(ctx)
	mails := claimMails(t, env, "claim-handover")
	if len(mails) != 1 {
		t.Fatalf("%d hand-over mails", len(mails))
	}
	full, err := env.App.DB.MailByID(ctx, mails[0].ID)
	if err != nil || len(full.Attachments) != 1 || !bytes.HasPrefix(full.Attachments[0].Data, []byte("%PDF")) {
		t.Fatalf("the label mail's attachments: %v", err)
	}
	customer := env.NewBrowser()
	body := customer.Get(status).Body
	if !strings.Contains(body, `data-testid="claim-label"`) || strings.Contains(body, `data-testid="claim-code"`) {
		t.Error("the status page does not offer the label")
	}
	if r := customer.Get(status + "/label.pdf"); r.StatusCode != 200 || !strings.HasPrefix(r.Body, "%PDF") {
		t.Errorf("label: %d", r.StatusCode)
	}
}

// A link works for 24 hours on the dashboard's clock; a post from another
// site is refused, as on the staff pages.
func TestClaimLinkExpiresAndRefusesOtherSites(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	_, link := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	if r := env.NewBrowser().Get(link); r.StatusCode != 200 {
		t.Fatalf("fresh link: %d", r.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodPost, env.URL+"/claim", strings.NewReader("reference=DEMO-1&contact=jana%40example.cz"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	if r := env.NewBrowser().Do(req); r.StatusCode != 403 {
		t.Errorf("a cross-site post: %d", r.StatusCode)
	}
	env.Sandbox.Advance(25 * time.Hour)
	if r := env.NewBrowser().Get(link); r.StatusCode != 409 || !strings.Contains(r.Body, "expired") {
		t.Errorf("a link after 25 hours: %d", r.StatusCode)
	}
}

// A claim whose commission the service keeps refusing is kept and tried
// again with growing waits; after three tries it is in the agents' queue,
// and it leaves the queue once the service takes it.
func TestClaimThatCannotReachTheServiceNeedsAttention(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	env.Sandbox.Fault("/returns/", map[string]any{"error_rate": 1})
	status := fileClaim(t, env)
	c, _ := env.ClaimByStatus(status)
	if c.CommissionID != nil || c.Tries != 1 || c.Problem.IsZero() {
		t.Fatalf("claim after a failed create: commission %v, tries %d", c.CommissionID, c.Tries)
	}
	if body := env.NewBrowser().Get(status).Body; !strings.Contains(body, `data-state="received"`) {
		t.Error("the customer's page does not say the claim is received")
	}
	agent := env.SignedIn(identity.Agent)
	for _, wait := range []time.Duration{time.Minute, 2 * time.Minute} {
		env.Sandbox.Advance(wait)
		env.App.Jobs.Cycle(ctx)
	}
	// The queue links the returns desk's view of the claim, by its id: no
	// staff page holds the customer's key (it used to link the status page).
	queue := agent.Get("/attention?kind=claim_stuck").Body
	staffView := "/returns/claims/" + itoa(c.ID)
	if !strings.Contains(queue, "Claim from the page not through") || !strings.Contains(queue, staffView) {
		t.Fatalf("the stuck claim is not in the agents' queue: %s", problemsOf(queue))
	}
	if strings.Contains(queue, tokenOf(status)) {
		t.Error("the queue holds the customer's key")
	}
	if v := agent.Get(staffView); v.StatusCode != 200 || !strings.Contains(v.Body, `data-state="received"`) ||
		!strings.Contains(v.Body, `data-testid="claim-as-staff"`) || strings.Contains(v.Body, `data-testid="claim-reply"`) {
		t.Errorf("the returns desk's view of the claim: %d %s", v.StatusCode, problemsOf(v.Body))
	}
	env.AddUser("clerk2", identity.Clerk)
	clerk := signInWithPassword(t, env, "clerk2")
	if r := clerk.Get("/attention?kind=claim_stuck"); strings.Contains(r.Body, staffView) {
		t.Error("a clerk sees the returns desk's item")
	}
	if r := clerk.Get(staffView); r.StatusCode != 403 {
		t.Errorf("a clerk opens the returns desk's view of a claim: %d", r.StatusCode)
	}
	env.Sandbox.Control("DELETE", "/sandbox/faults", nil)
	env.Sandbox.Advance(5 * time.Minute)
	env.App.Jobs.Cycle(ctx)
	c, _ = env.App.DB.ClaimByID(ctx, c.ID)
	if c.CommissionID == nil || c.Tries != 0 {
		t.Fatalf("after the service is back: commission %v, tries %d", c.CommissionID, c.Tries)
	}
	if strings.Contains(agent.Get("/attention?kind=claim_stuck").Body, staffView) {
		t.Error("the claim stays in the queue once its commission exists")
	}
}

// codePoint is a carrier that takes label-free parcels and one of its
// points in Brno.
func codePoint(t *testing.T, env *apptest.Env) (carrier, point string) {
	t.Helper()
	ctx := context.Background()
	carriers, err := env.App.Desk.ReturnCarriers(ctx)
	if err != nil || len(carriers) == 0 {
		t.Fatalf("no carrier takes label-free parcels: %v", err)
	}
	points, err := env.App.Desk.ReturnPoints(ctx, carriers[0].Code, "CZ", "Brno")
	if err != nil || len(points.Points) == 0 {
		t.Fatalf("no points: %v", err)
	}
	return carriers[0].Code, points.Points[0].Code
}
