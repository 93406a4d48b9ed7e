package main

import (
	"strings"
	"testing"
)

// The answer shapes of the sandbox come from --shapes / SANDBOX_SHAPES; an
// unknown mode is refused before serving, and the in-process sandbox of
// check-upstream (as of serve) honours SANDBOX_SHAPES.
func TestSandboxShapes(t *testing.T) {
	if code, out := shipdesk(t, "", "sandbox", "--shapes", "fancy", "--addr", "127.0.0.1:0"); code == 0 || !strings.Contains(out, "fancy") {
		t.Errorf("sandbox --shapes fancy: exit %d, output %q", code, out)
	}
	t.Setenv("SHIPPING_BASE_URL", "")
	t.Setenv("SANDBOX_SHAPES", "fancy")
	if code, out := shipdesk(t, "", "check-upstream"); code == 0 || !strings.Contains(out, "fancy") {
		t.Errorf("in-process sandbox with SANDBOX_SHAPES=fancy: exit %d, output %q", code, out)
	}
	t.Setenv("SANDBOX_SHAPES", "minimal")
	if code, out := shipdesk(t, "", "check-upstream"); code != 0 || strings.Count(out, "ok  ") != 2 {
		t.Errorf("in-process sandbox with SANDBOX_SHAPES=minimal: exit %d\n%s", code, out)
	}
}
