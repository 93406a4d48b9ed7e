package e2e

import (
	"context"
	"slices"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// Each demo role signs in through the form, sees exactly the areas it may use,
// is refused another role's page, and signs out.
func TestShellPerDemoRole(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	demo, err := env.App.Staff.SeedDemo(context.Background())
	if err != nil {
		t.Fatalf("seed demo users: %v", err)
	}
	wantNav := map[identity.Role][]string{
		identity.Clerk:   {"Shipping", "Tracking", "Attention"},
		identity.Agent:   {"Returns", "Attention"},
		identity.Manager: {"Shipping", "Tracking", "Returns", "Attention", "Reports", "Users", "Connection"},
	}
	forbidden := map[identity.Role]string{
		identity.Clerk:   "/users",
		identity.Agent:   "/shipping",
		identity.Manager: "",
	}
	for _, u := range demo {
		t.Run(string(u.Role), func(t *testing.T) {
			tab := newTab(t, env.URL)
			tab.Open("/")
			if got := tab.Path(); got != "/login?next=%2F" && got != "/login" {
				t.Fatalf("anonymous home went to %q, want the sign-in page", got)
			}
			tab.Fill("#username", u.Username)
			tab.Fill("#password", u.Password)
			tab.Submit(`form[action="/login"] button[type=submit]`)
			if got := tab.Path(); got != "/" {
				t.Fatalf("after sign-in at %q, want /", got)
			}
			nav := tab.Texts(`[data-testid=nav] a`)
			if !slices.Equal(nav, wantNav[u.Role]) {
				t.Errorf("%s sees navigation %q, want %q", u.Role, nav, wantNav[u.Role])
			}
			tab.look("home")

			if path := forbidden[u.Role]; path != "" {
				tab.Open(path)
				if h := tab.Text("h1"); h != "Not for your role" {
					t.Errorf("%s opening %s sees %q, want the 403 page", u.Role, path, h)
				}
			}

			tab.Open("/")
			tab.Submit(`form[action="/logout"] button[type=submit]`)
			tab.Open("/")
			if got := tab.Path(); got == "/" {
				t.Errorf("after sign-out the home page is still shown")
			}
		})
	}
}
