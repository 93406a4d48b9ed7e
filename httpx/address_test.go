package httpx

import (
	"net/http"
	"testing"
)

func TestClientAddressTakesWhatOurProxyAdded(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		trust bool
		want  string
	}{
		{"no proxy trusted: the header is ignored", []string{"203.0.113.9"}, false, "10.0.0.1"},
		{"one entry", []string{"203.0.113.9"}, true, "203.0.113.9"},
		{"spoofed first value on the proxy's line", []string{"6.6.6.6, 203.0.113.9"}, true, "203.0.113.9"},
		{"spoofed line before the proxy's own line", []string{"6.6.6.6", "203.0.113.9"}, true, "203.0.113.9"},
		{"spaces trimmed", []string{"6.6.6.6 ,  203.0.113.9  "}, true, "203.0.113.9"},
		{"IPv6", []string{"6.6.6.6, 2001:db8::1"}, true, "2001:db8::1"},
		{"last entry not an address: the peer", []string{"203.0.113.9, unknown"}, true, "10.0.0.1"},
		{"spoofed address after a bad last line", []string{"6.6.6.6", "garbage"}, true, "10.0.0.1"},
		{"empty last entry", []string{"6.6.6.6,"}, true, "10.0.0.1"},
		{"no header", nil, true, "10.0.0.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := http.NewRequest(http.MethodGet, "/", nil)
			r.RemoteAddr = "10.0.0.1:5555"
			for _, l := range tc.lines {
				r.Header.Add("X-Forwarded-For", l)
			}
			if got := ClientAddress(r, tc.trust); got != tc.want {
				t.Errorf("ClientAddress = %q, want %q", got, tc.want)
			}
		})
	}
}
