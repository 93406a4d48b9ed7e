package web_test

import (
	"net/url"
	"strings"
	"testing"
)

// The scan box finds a number typed in groups of digits or with dashes, as
// people read one out from a label.
func TestScanFindsANumberTypedWithSpacesOrDashes(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	page := place(t, b, shipmentForm(t, env), "UPS")
	s := shipmentAt(t, env, page)
	tn := s.Tracking()
	if len(tn) < 9 {
		t.Fatalf("tracking number %q", tn)
	}
	for _, typed := range []string{tn[:3] + " " + tn[3:6] + " " + tn[6:], tn[:3] + "-" + tn[3:], strings.ToLower(tn[:3]) + " " + tn[3:]} {
		resp := b.Get("/scan?q=" + url.QueryEscape(typed))
		if resp.StatusCode != 303 || resp.Header.Get("Location") != page {
			t.Errorf("scan %q: %d %s, want %s", typed, resp.StatusCode, resp.Header.Get("Location"), page)
		}
	}
}
