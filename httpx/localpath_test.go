package httpx

import (
	"strings"
	"testing"
)

func TestLocalPathRefusesEverythingButACleanLocalPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/", "/"},
		{"/shipping/shipments/12", "/shipping/shipments/12"},
		{"/tracking?status=UNKNOWN&recipient=Jan+Nov%C3%A1k", "/tracking?status=UNKNOWN&recipient=Jan+Nov%C3%A1k"},
		{"/returns#top", "/returns#top"},
		{"", "/"},
		{"shipping", "/"},
		{"//evil.example", "/"},
		{"///evil.example", "/"},
		{"/\\evil.example", "/"},
		{"/\\/evil.example", "/"},
		{"/x\\y", "/"},
		{"/\t/evil.example", "/"},
		{"/\n/evil.example", "/"},
		{"/\r\nLocation: https://evil.example", "/"},
		{"/ /evil.example", "/"},
		{"/\u00a0/evil.example", "/"},
		{"/\u2028/evil.example", "/"},
		{"/\u200b/evil.example", "/"},
		{"/%09/evil.example", "/"},
		{"/%0a/evil.example", "/"},
		{"/%0D%0ALocation:x", "/"},
		{"/%2509/evil.example", "/"},
		{"/%2F/evil.example", "/"},
		{"/%2f%2fevil.example", "/"},
		{"/%5Cevil.example", "/"},
		{"/%5cevil.example", "/"},
		{"/%20/evil.example", "/"},
		{"/%zz", "/"},
		{"/%ff", "/"},
		{"https://evil.example", "/"},
		{"https:/evil.example", "/"},
		{"javascript:alert(1)", "/"},
		{"/javascript:alert(1)", "/javascript:alert(1)"}, // a path of ours, harmless
		{"\t/shipping", "/"},
		{" /shipping", "/"},
		{"/" + strings.Repeat("a", 3000), "/"},
	} {
		if got := LocalPath(tc.in); got != tc.want {
			t.Errorf("LocalPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The quick answer for a plain path is the one the full check gives.
func TestPlainPathAgreesWithTheFullCheck(t *testing.T) {
	for _, p := range []string{"/", "/no-such-page", "/tracking?status=ACTIVE&page=2", "/a/../b", "/./x", "/x.y~z_w-v",
		"//evil.example", "/.//evil", "/?next=//evil", "/a?b=c=d&&", "/" + strings.Repeat("a", maxLocalPath), "/" + strings.Repeat("a", maxLocalPath-1), "", "a"} {
		if got, want := LocalPath(p), checkedLocalPath(p); got != want {
			t.Errorf("LocalPath(%q) = %q, the full check says %q", p, got, want)
		}
	}
}
