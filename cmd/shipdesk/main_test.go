package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage/pgtest"
)

// shipdesk runs the command line as a terminal would and returns its exit code and output.
func shipdesk(t *testing.T, stdin string, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &out)
	return code, out.String()
}

func TestHelpOnEveryCommand(t *testing.T) {
	for _, c := range commands() {
		code, out := shipdesk(t, "", c.name, "--help")
		if code != 0 || !strings.Contains(out, "Usage") {
			t.Errorf("%s --help: exit %d, output %q", c.name, code, out)
		}
	}
	if code, _ := shipdesk(t, "", "nonsense"); code != 2 {
		t.Errorf("unknown command exits %d, want 2", code)
	}
}

// From an empty database: serve refuses, migrate applies, user add works from a
// terminal, and migrate up again is a no-op.
func TestTerminalWorkflow(t *testing.T) {
	url := pgtest.URL(t)
	t.Setenv("DATABASE_URL", url)

	code, out := shipdesk(t, "", "serve", "--addr", "127.0.0.1:0")
	if code == 0 || !strings.Contains(out, "migrate") {
		t.Fatalf("serve on an unmigrated database: exit %d, output %q; want a refusal that mentions migrate", code, out)
	}
	if code, out := shipdesk(t, "", "migrate", "up"); code != 0 {
		t.Fatalf("migrate up: exit %d: %s", code, out)
	}
	if code, out := shipdesk(t, "", "migrate", "up"); code != 0 {
		t.Fatalf("migrate up again: exit %d: %s", code, out)
	}
	if code, out := shipdesk(t, "", "migrate", "status"); code != 0 || !strings.Contains(out, "00001") {
		t.Fatalf("migrate status: exit %d: %s", code, out)
	}

	code, out = shipdesk(t, "a-strong-password-1\n", "user", "add", "--username", "ada", "--role", "clerk", "--password-stdin")
	if code != 0 {
		t.Fatalf("user add: exit %d: %s", code, out)
	}
	if code, out := shipdesk(t, "short\n", "user", "add", "--username", "bob", "--role", "clerk", "--password-stdin"); code == 0 {
		t.Errorf("user add with a short password succeeded: %s", out)
	}
	if code, out := shipdesk(t, "a-strong-password-1\n", "user", "add", "--username", "eve", "--role", "admin", "--password-stdin"); code == 0 {
		t.Errorf("user add with an unknown role succeeded: %s", out)
	}
	if code, out := shipdesk(t, "", "user", "disable", "--username", "ada"); code != 0 {
		t.Fatalf("user disable: exit %d: %s", code, out)
	}
	code, out = shipdesk(t, "", "user", "list")
	if code != 0 || !strings.Contains(out, "ada") || !strings.Contains(out, "disabled") {
		t.Errorf("user list: exit %d, output %q; want ada shown disabled", code, out)
	}
}

// With no SHIPPING_BASE_URL the in-process sandbox answers and both keys pass;
// a wrong key fails the command.
func TestCheckUpstream(t *testing.T) {
	t.Setenv("SHIPPING_BASE_URL", "")
	code, out := shipdesk(t, "", "check-upstream")
	if code != 0 || strings.Count(out, "ok  ") != 2 || !strings.Contains(out, "sandbox") {
		t.Fatalf("check-upstream against the sandbox: exit %d\n%s", code, out)
	}
	if strings.Contains(out, "sandbox-key-1") {
		t.Error("check-upstream prints the key")
	}
	env := sandboxtest.Start(t)
	code, out = shipdesk(t, "", "check-upstream", "--shipping-base-url", env.URL, "--shipping-api-key", "wrong",
		"--returns-base-url", env.Returns, "--returns-api-key", sandboxtest.ReturnsKey)
	if code == 0 || !strings.Contains(out, "FAIL shipping") || !strings.Contains(out, "401") {
		t.Errorf("check-upstream with a wrong key: exit %d\n%s", code, out)
	}
}
