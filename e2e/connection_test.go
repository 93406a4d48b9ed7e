package e2e

import (
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// The manager opens Connection from the navigation and sees both keys accepted.
func TestManagerSeesTheConnection(t *testing.T) {
	env := apptest.Start(t)
	pw := env.AddUser("boss", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("boss", pw)
	tab.Submit(`[data-testid=nav] a[href="/connection"]`)
	checks := tab.Texts(`[data-testid=checks] tbody tr`)
	if len(checks) != 2 {
		t.Fatalf("checks %q", checks)
	}
	for _, c := range checks {
		if !strings.Contains(c, "OK") || !strings.Contains(c, "key accepted") {
			t.Errorf("check row %q", c)
		}
	}
	tab.screenshot("connection")
}
