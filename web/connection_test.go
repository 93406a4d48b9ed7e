package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

func TestConnectionPageChecksBothKeys(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	body := env.SignedIn(identity.Manager).Get("/connection").Body
	for _, want := range []string{"Sandbox:", env.Sandbox.URL, env.Sandbox.Returns, "key accepted", "shipments/list", "product-type"} {
		if !strings.Contains(body, want) {
			t.Errorf("connection page lacks %q", want)
		}
	}
	if strings.Contains(body, "sandbox-key-1") || strings.Contains(body, "sandbox-returns-key") {
		t.Error("the connection page shows an API key")
	}
}

func TestConnectionPageShowsFailures(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	env.Sandbox.Fault("/api/v1/shipments/list", map[string]any{"error_rate": 1})
	body := env.SignedIn(identity.Manager).Get("/connection").Body
	if !strings.Contains(body, "Failed") || !strings.Contains(body, "503") {
		t.Errorf("a failing service is not shown: %s", body)
	}
}

func TestMetricsForScraperWithToken(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	env.SignedIn(identity.Manager).Get("/connection") // make some calls
	b := env.NewBrowser()
	req, _ := http.NewRequest(http.MethodGet, env.URL+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+apptest.MetricsToken)
	resp := b.Do(req)
	if resp.StatusCode != 200 || !strings.Contains(resp.Body, `shipdesk_upstream_calls_total{interface="shipping",op="shipments/list",outcome="200"} 1`) {
		t.Errorf("metrics: %d %s", resp.StatusCode, resp.Body)
	}
	req, _ = http.NewRequest(http.MethodGet, env.URL+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer wrong")
	if resp := b.Do(req); resp.StatusCode == 200 {
		t.Error("a wrong token reads the metrics")
	}
}

// In sandbox mode the Connection page shows the account's stored bank
// details, which a cash-on-delivery order without bank details is paid to.
func TestConnectionPageShowsTheAccountsStoredBank(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	bank, err := env.App.Upstream.StoredBank(context.Background())
	if err != nil || bank.Account == "" {
		t.Fatalf("stored bank: %+v %v", bank, err)
	}
	doc := htmlOf(t, env.SignedIn(identity.Manager).Get("/connection").Body)
	if got := doc.Find(`[data-testid=stored-bank]`).Text(); !strings.Contains(got, bank.Account+"/"+bank.Code) || !strings.Contains(got, bank.Currency) {
		t.Errorf("stored bank on the page: %q, want %+v", got, bank)
	}
}
