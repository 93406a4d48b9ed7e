package e2e

import (
	"context"
	"strconv"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/mail"
)

// An agent follows the sandbox banner to the Sent mail page, opens the mail a
// customer got and follows its link, in English and in Czech.
func TestSentMailForADemo(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	ctx := context.Background()
	msg := mail.Message{EventKey: "claim-link:501", To: "jana.novakova@example.com", ToName: "Jana Nováková", Lang: "cs",
		Subject: "Vaše reklamace č. 501: odkaz pro zaslání zboží",
		Text: "Dobrý den,\n\nreklamaci jsme přijali. Štítek k odeslání zboží si stáhněte zde:\n" + env.URL + "/attention\n\n" +
			"Odkaz platí 14 dní.\nS pozdravem\nvaše prodejna",
		Attachments: []mail.Attachment{{Name: "potvrzení-příjmu.pdf", ContentType: "application/pdf", Data: []byte("%PDF-1.4 demo")}}}
	if _, err := env.App.Outbox.Enqueue(ctx, env.App.DB, msg); err != nil {
		t.Fatal(err)
	}
	if _, err := env.App.Outbox.Enqueue(ctx, env.App.DB, mail.Message{EventKey: "claim-link:502", To: "petr@example.com",
		Subject: "Vaše reklamace č. 502", Text: "Dobrý den"}); err != nil {
		t.Fatal(err)
	}
	if st, err := env.App.Outbox.SendDue(ctx); err != nil || st.Sent != 2 {
		t.Fatalf("%+v %v", st, err)
	}
	pw := env.AddUser("alena", identity.Agent)
	tab := newTab(t, env.URL)
	tab.SignIn("alena", pw)
	tab.Open("/returns")
	tab.Click(`[data-testid=sandbox-mail]`)
	tab.WaitText(`h1`, "Sent mail")
	tab.wantText(`[data-testid=sent-mail]`, "odkaz pro zaslání zboží")
	tab.shots("sent-mail-en")
	tab.Click(`[data-testid=sent-mail] tbody tr:last-child a`)
	tab.WaitText(`[data-testid=mail-text]`, "reklamaci jsme přijali")
	tab.wantText(`[data-testid=caught-mail]`, "potvrzení-příjmu.pdf")
	tab.shots("sent-mail-page-en")

	tab.toCzech()
	tab.wantText(`[data-testid=mail-state]`, "Odesláno")
	tab.shots("sent-mail-page-cs")
	tab.Click(`[data-testid=mail-text] a`)
	tab.WaitText(`h1`, "Vyžaduje pozornost") // the link in the mail leads where it says
	tab.Open("/sandbox/mail")
	tab.WaitText(`h1`, "Odeslaná pošta")
	tab.shots("sent-mail-cs")
}

// A manager asks for the daily summary by e-mail on her account's page; a
// wrong address comes back marked, with what she typed.
func TestManagerAsksForDailySummary(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pw := env.AddUser("marta", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("marta", pw)
	u, err := env.App.DB.UserByUsername(context.Background(), "marta")
	if err != nil {
		t.Fatal(err)
	}
	tab.Open("/users/" + strconv.FormatInt(u.ID, 10))
	tab.Fill(`#email`, "marta@example")
	tab.Click(`[data-testid=user-mail] input[name=daily_summary]`)
	tab.Submit(`[data-testid=user-mail] button`)
	tab.WaitText(`[data-testid=user-mail]`, "Enter one e-mail address")
	tab.shots("user-mail-error-en")
	tab.Fill(`#email`, "marta@example.com")
	tab.Submit(`[data-testid=user-mail] button`)
	tab.WaitText(`main`, "E-mail settings saved.")
	tab.toCzech()
	tab.wantText(`[data-testid=user-mail]`, "Posílat denní přehled")
	tab.shots("user-mail-cs")
}
