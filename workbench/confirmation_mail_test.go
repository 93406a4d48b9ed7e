package workbench_test

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"shipdesk/i18n"
	"shipdesk/mail"
	"shipdesk/mailcatch"
	"shipdesk/storage"
	"shipdesk/workbench"
)

// mailEnv is confirmEnv with an outbox that sends to a catcher.
type mailEnv struct {
	*confirmEnv
	outbox *mail.Outbox
	catch  *mailcatch.Catcher
}

func startConfirmMail(t *testing.T) *mailEnv {
	e := startConfirm(t)
	c, err := mailcatch.Start(e.clock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	s, err := mail.NewSender(mail.Config{URL: c.URL(), From: "shop@example.cz", FromName: "Kávovary Říčany", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	e.w.Outbox = mail.NewOutbox(e.db, e.clock, s, "shop@example.cz", "test", nil)
	// The mails are signed in the shop's name, as its identity has it.
	if err := e.db.SaveShopIdentity(e.ctx, storage.ShopIdentity{Name: "Kávovary Říčany s.r.o."}); err != nil {
		t.Fatal(err)
	}
	return &mailEnv{confirmEnv: e, outbox: e.w.Outbox, catch: c}
}

// mails is the outbox, oldest first, with the attachments.
func (e *mailEnv) mails() []storage.OutMail {
	e.t.Helper()
	recent, err := e.db.RecentMail(e.ctx, 100)
	if err != nil {
		e.t.Fatal(err)
	}
	out := make([]storage.OutMail, 0, len(recent))
	for i := len(recent) - 1; i >= 0; i-- {
		m, err := e.db.MailByID(e.ctx, recent[i].ID)
		if err != nil {
			e.t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// carries checks that m is the mail of the kept document doc: its event,
// the customer, and the PDF exactly as kept.
func (e *mailEnv) carries(m storage.OutMail, c storage.Commission, doc storage.Document) {
	e.t.Helper()
	kept, err := e.db.DocumentByID(e.ctx, c.ID, doc.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	if m.EventKey != "confirmation:"+strconv.FormatInt(doc.ID, 10) || m.To != "jiri@example.cz" || m.ToName != "Jiří Žďárský" {
		e.t.Errorf("mail %q to %q <%s>", m.EventKey, m.ToName, m.To)
	}
	if len(m.Attachments) != 1 || m.Attachments[0].Name != kept.Filename || m.Attachments[0].ContentType != "application/pdf" ||
		!bytes.Equal(m.Attachments[0].Data, kept.PDF) {
		e.t.Errorf("attachments %d, want %s as kept", len(m.Attachments), kept.Filename)
	}
}

// A claim's confirmations reach the customer by mail in the language of the
// claim: the intake once, however often it is asked for, then the settlement.
func TestConfirmationsMailedInTheCustomersLanguage(t *testing.T) {
	for _, tc := range []struct {
		lang                                string
		intake, settlement, settled, closer string
	}{
		{"cs", "Potvrzení o přijetí reklamace, zakázka č. ", "Potvrzení o vyřízení reklamace, zakázka č. ",
			"opravou výrobku", "S pozdravem\nKávovary Říčany s.r.o."},
		{"en", "Your claim has been received – service order ", "Your claim has been settled – service order ",
			"by repairing the product", "Kind regards,\nKávovary Říčany s.r.o."},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			e := startConfirmMail(t)
			c := e.claimWith("Nehřeje.", func(f *workbench.Form) { f.Language = tc.lang })
			intake, err := e.db.LatestDocument(e.ctx, c.ID, storage.DocIntake)
			if err != nil {
				t.Fatal(err)
			}
			mails := e.mails()
			if len(mails) != 1 {
				t.Fatalf("%d mails after the claim, want 1", len(mails))
			}
			e.carries(mails[0], c, intake)
			if m := mails[0]; m.Subject != tc.intake+c.Number || m.Lang != tc.lang || !strings.Contains(m.Text, c.Number) ||
				!strings.HasSuffix(m.Text, tc.closer+"\n") {
				t.Errorf("intake mail %q (%s):\n%s", m.Subject, m.Lang, m.Text)
			}
			if _, err := e.w.IssueIntake(e.ctx, c.ID, 0); err != nil {
				t.Fatal(err)
			}
			if n := len(e.mails()); n != 1 {
				t.Errorf("%d mails after asking again, want 1", n)
			}
			for _, to := range []string{"processing", "closed"} {
				if _, err := e.w.Move(e.ctx, c.ID, to, workbench.Resolution{Code: "repaired"}, 0); err != nil {
					t.Fatal(err)
				}
			}
			settlement, err := e.db.LatestDocument(e.ctx, c.ID, storage.DocSettlement)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.w.IssueSettlement(e.ctx, c.ID, 0); err != nil {
				t.Fatal(err)
			}
			mails = e.mails()
			if len(mails) != 2 {
				t.Fatalf("%d mails after settling, want 2", len(mails))
			}
			e.carries(mails[1], c, settlement)
			if m := mails[1]; m.Subject != tc.settlement+c.Number || !strings.Contains(m.Text, tc.settled) {
				t.Errorf("settlement mail %q:\n%s", m.Subject, m.Text)
			}
		})
	}
}

// A rejection's mail says why; an extension's new intake confirmation says
// it replaces the earlier one.
func TestConfirmationMailSaysWhatChanged(t *testing.T) {
	e := startConfirmMail(t)
	c := e.claim("Nehřeje.")
	later := c.DeadlineAt.In(i18n.Prague).AddDate(0, 0, 14)
	v2, err := e.w.ExtendDeadline(e.ctx, c.ID, workbench.Extension{To: later.Format("2006-01-02"),
		AgreedOn: e.clock.Now().In(i18n.Prague).Format("2006-01-02")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, to := range []string{"processing", "closed"} {
		if _, err := e.w.Move(e.ctx, c.ID, to, workbench.Resolution{Code: "rejected", Reason: "Pád: prasklý kryt."}, 0); err != nil {
			t.Fatal(err)
		}
	}
	mails := e.mails()
	if len(mails) != 3 {
		t.Fatalf("%d mails, want the intake, its second version and the settlement", len(mails))
	}
	e.carries(mails[1], c, v2)
	if m := mails[1]; !strings.HasPrefix(m.Subject, "Nové potvrzení o přijetí reklamace") || !strings.Contains(m.Text, "nahrazuje potvrzení zaslané dříve") ||
		!strings.Contains(m.Text, later.Format("2. 1. 2006")) {
		t.Errorf("second version's mail %q:\n%s", m.Subject, m.Text)
	}
	if m := mails[2]; !strings.Contains(m.Text, "museli zamítnout") || !strings.Contains(m.Text, "Důvod zamítnutí: Pád: prasklý kryt.") {
		t.Errorf("rejection's mail:\n%s", m.Text)
	}
}

// A commission without the customer's e-mail (a record older than the rule
// that asks for one) is confirmed on paper only.
func TestNoConfirmationMailWithoutAddress(t *testing.T) {
	e := startConfirmMail(t)
	c := e.claim("Nehřeje.")
	if _, err := e.db.SQL().Exec(`UPDATE commissions SET customer_email = '' WHERE id = $1`, c.ID); err != nil {
		t.Fatal(err)
	}
	later := c.DeadlineAt.In(i18n.Prague).AddDate(0, 0, 14).Format("2006-01-02")
	if _, err := e.w.ExtendDeadline(e.ctx, c.ID, workbench.Extension{To: later, AgreedOn: sandboxDay(e).Format("2006-01-02")}, 0); err != nil {
		t.Fatal(err)
	}
	for _, to := range []string{"processing", "closed"} {
		if _, err := e.w.Move(e.ctx, c.ID, to, workbench.Resolution{Code: "refunded"}, 0); err != nil {
			t.Fatal(err)
		}
	}
	if docs, _ := e.db.DocumentsOf(e.ctx, c.ID); len(docs) != 3 {
		t.Fatalf("%d confirmations, want both intake versions and the settlement", len(docs))
	}
	if n := len(e.mails()); n != 1 {
		t.Errorf("%d mails, want only the one sent while the address was known", n)
	}
}

// A customer's address that would break the mail's header (a record older
// than the form's rules) keeps the confirmation and queues no mail; a name
// that would is cleaned, and the mail goes to the address (every mail to a
// valid address is sendable whatever its name holds).
func TestConfirmationKeptWhenTheAddressIsRefused(t *testing.T) {
	e := startConfirmMail(t)
	for _, bad := range []struct {
		email, name string
		mailed      int
	}{
		{"jiri@example.cz\r\nBcc: all@example.cz", "Jiří Žďárský", 0},
		{"jiri@example.cz, eva@example.cz", "Jiří Žďárský", 0},
		{"jiri@example.cz", "Jiří\nBcc: all@example.cz", 1},
		{"jiri@example.cz", "Jiří\x1b[2J", 1},
		{"jiri@example.cz", strings.Repeat("Ž", 300), 1},
	} {
		e.w.Outbox = nil
		c := e.claim("Nehřeje.")
		e.w.Outbox = e.outbox
		if _, err := e.db.SQL().Exec(`UPDATE commissions SET customer_email = $2, customer_name = $3 WHERE id = $1`, c.ID, bad.email, bad.name); err != nil {
			t.Fatal(err)
		}
		if err := e.db.ExtendDeadline(e.ctx, c.ID, c.DeadlineAt.AddDate(0, 0, 14), sandboxDay(e)); err != nil {
			t.Fatal(err)
		}
		before := len(e.mails())
		if doc, err := e.w.IssueIntake(e.ctx, c.ID, 0); err != nil || doc.Version != 2 {
			t.Errorf("%q %q: %+v %v", bad.email, bad.name, doc, err)
		}
		if n := len(e.mails()) - before; n != bad.mailed {
			t.Errorf("%q %q: %d mails, want %d", bad.email, bad.name, n, bad.mailed)
		}
	}
}

// Issued twice at once, a confirmation is kept once and mailed once: the
// loser of the race finds the winner's document and records no mail.
func TestConcurrentIssueMailsOnce(t *testing.T) {
	e := startConfirmMail(t)
	c := e.claim("Nehřeje.")
	// An extension recorded without its confirmation, so version 2 is
	// issued by the calls below, not by the extension.
	if err := e.db.ExtendDeadline(e.ctx, c.ID, c.DeadlineAt.AddDate(0, 0, 14), sandboxDay(e)); err != nil {
		t.Fatal(err)
	}
	const callers = 4
	docs := make([]storage.Document, callers)
	errs := make([]error, callers)
	var start, done sync.WaitGroup
	start.Add(1)
	for i := range callers {
		done.Add(1)
		go func() {
			defer done.Done()
			start.Wait()
			docs[i], errs[i] = e.w.IssueIntake(e.ctx, c.ID, 0)
		}()
	}
	start.Done()
	done.Wait()
	for i := range callers {
		if errs[i] != nil || docs[i].ID != docs[0].ID || docs[i].Version != 2 {
			t.Fatalf("caller %d: %+v %v", i, docs[i], errs[i])
		}
	}
	if kept, _ := e.db.DocumentsOf(e.ctx, c.ID); len(kept) != 2 {
		t.Errorf("%d documents, want versions 1 and 2", len(kept))
	}
	mails := e.mails()
	if len(mails) != 2 {
		t.Fatalf("%d mails, want one per version", len(mails))
	}
	e.carries(mails[1], c, docs[0])
}

// The mail goes out over SMTP with the PDF, and with the customer's status
// link when the hook gives one.
func TestConfirmationMailArrivesWithPDFAndLink(t *testing.T) {
	e := startConfirmMail(t)
	e.w.StatusLink = func(_ context.Context, _ *storage.DB, id int64) (string, time.Time) {
		return "https://shop.example/reklamace/" + strconv.FormatInt(id, 10), time.Time{}
	}
	c := e.claim("Nehřeje.")
	intake, err := e.db.LatestDocument(e.ctx, c.ID, storage.DocIntake)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := e.outbox.SendDue(e.ctx); err != nil || st.Sent != 1 {
		t.Fatalf("sent %+v, %v", st, err)
	}
	caught := e.catch.All()
	if len(caught) != 1 {
		t.Fatalf("caught %d mails", len(caught))
	}
	m := caught[0]
	link := "https://shop.example/reklamace/" + strconv.FormatInt(c.ID, 10)
	if !strings.Contains(m.To, "jiri@example.cz") || !strings.HasPrefix(m.Subject, "Potvrzení o přijetí reklamace") ||
		!strings.Contains(m.Text, "na této stránce:") || !strings.Contains(m.Text, link) {
		t.Errorf("caught %q to %q:\n%s", m.Subject, m.To, m.Text)
	}
	if len(m.Attachments) != 1 || m.Attachments[0].Name != intake.Filename || !bytes.Equal(m.Attachments[0].Data, intake.PDF) {
		t.Errorf("caught %d attachments, want %s as kept", len(m.Attachments), intake.Filename)
	}
	// Without a link for this commission the line is left out.
	e.w.StatusLink = func(context.Context, *storage.DB, int64) (string, time.Time) { return "", time.Time{} }
	other := e.claim("Netopí.")
	mails := e.mails()
	if len(mails) != 2 || strings.Contains(mails[1].Text, "na této stránce") {
		t.Errorf("mail of %s without a link:\n%s", other.Number, mails[len(mails)-1].Text)
	}
}

// Every way a claim ends has its sentence in the mail.
func TestEveryResolutionHasItsMailSentence(t *testing.T) {
	for _, r := range workbench.Resolutions {
		if !i18n.Has("confmail.settled." + r) {
			t.Errorf("no mail sentence for %s", r)
		}
	}
}

// sandboxDay is the test clock's day in the shop's zone, as an agreed day.
func sandboxDay(e *mailEnv) time.Time {
	y, m, d := e.clock.Now().In(i18n.Prague).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
