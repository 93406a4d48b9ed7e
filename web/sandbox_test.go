package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

func simulatedNow(t *testing.T, env *apptest.Env) time.Time {
	t.Helper()
	c, err := env.App.Upstream.Controls.Now(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c.Now
}

func TestEveryRoleMovesTheSandboxClock(t *testing.T) {
	env := apptest.Start(t)
	for _, role := range identity.Roles {
		b := env.SignedIn(role)
		if !strings.Contains(b.Get("/").Body, `data-testid="sandbox-clock"`) {
			t.Errorf("%s: no clock control in sandbox mode", role)
		}
		before := simulatedNow(t, env)
		resp := b.PostForm("/sandbox-clock", url.Values{"minutes": {"60"}, "back": {"/?x=1"}})
		if resp.StatusCode != 303 || resp.Header.Get("Location") != "/?x=1" {
			t.Fatalf("%s: advance: %d %s", role, resp.StatusCode, resp.Header.Get("Location"))
		}
		if d := simulatedNow(t, env).Sub(before); d != time.Hour {
			t.Errorf("%s: clock moved %s", role, d)
		}
		if body := b.Get("/").Body; !strings.Contains(body, "moved on by 60 minutes") {
			t.Errorf("%s: no confirmation", role)
		}
	}
}

func TestClockControlRefusesBadInput(t *testing.T) {
	env := apptest.Start(t)
	anon := env.NewBrowser()
	before := simulatedNow(t, env)
	if resp := anon.PostForm("/sandbox-clock", url.Values{"minutes": {"60"}}); resp.StatusCode != 303 || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
		t.Errorf("anonymous: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	b := env.SignedIn(identity.Clerk)
	for _, bad := range []string{"", "0", "-5", "abc", "1.5", "<script>alert(1)</script>", "99999999", "1; DROP TABLE users"} {
		resp := b.PostForm("/sandbox-clock", url.Values{"minutes": {bad}, "back": {"/shipping"}})
		if resp.StatusCode != 303 || resp.Header.Get("Location") != "/shipping" {
			t.Errorf("%q: %d %s", bad, resp.StatusCode, resp.Header.Get("Location"))
		}
		if body := b.Get("/").Body; !strings.Contains(body, "whole number of minutes") {
			t.Errorf("%q: no error shown", bad)
		}
	}
	for _, hostile := range []string{"//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "/\t/evil.example", "/%09/evil.example"} {
		resp := b.PostForm("/sandbox-clock", url.Values{"minutes": {"1"}, "back": {hostile}})
		if resp.Header.Get("Location") != "/" {
			t.Errorf("back %q redirected to %q", hostile, resp.Header.Get("Location"))
		}
	}
	if d := simulatedNow(t, env).Sub(before); d != 6*time.Minute {
		t.Errorf("clock moved %s, want only the 6 valid minutes", d)
	}
}
