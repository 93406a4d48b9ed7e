package workbench

import (
	"context"
	"strings"
	"testing"

	"shipdesk/i18n"
)

func TestResolutionCheck(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.English)
	for _, c := range []struct {
		name       string
		to         string
		res        Resolution
		field, msg string // "" : accepted
	}{
		{"repaired, no reason", "outgoing", Resolution{Code: "repaired"}, "", ""},
		{"refunded on closing", "closed", Resolution{Code: "refunded", Reason: " Paid back. "}, "", ""},
		{"rejected with a reason", "outgoing", Resolution{Code: "rejected", Reason: "Water damage."}, "", ""},
		{"none", "outgoing", Resolution{}, "resolution", "Choose how the order ends"},
		{"unknown", "closed", Resolution{Code: "lost"}, "resolution", "from the list"},
		{"rejected without a reason", "closed", Resolution{Code: "rejected", Reason: " \n "}, "reason", "Write the reason"},
		{"reason too long", "outgoing", Resolution{Code: "repaired", Reason: strings.Repeat("á", MaxReason+1)}, "reason", "at most 1000"},
		{"reason with NUL", "outgoing", Resolution{Code: "rejected", Reason: "a\x00b"}, "reason", "cannot be read"},
		{"reason not UTF-8", "outgoing", Resolution{Code: "repaired", Reason: "\xff\xfe"}, "reason", "cannot be read"},
		{"a move that settles nothing takes none", "cancelled", Resolution{Code: "lost", Reason: "\x00"}, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := c.res
			p := res.Check(ctx, c.to)
			if c.field == "" {
				if len(p) != 0 {
					t.Errorf("refused: %v", p)
				}
				return
			}
			if !strings.Contains(p[c.field].In(ctx), c.msg) {
				t.Errorf("%s: %q, want %q (%v)", c.field, p[c.field], c.msg, p)
			}
		})
	}
	res := Resolution{Code: "rejected", Reason: "  Dropped.\r\nTwice. "}
	if p := res.Check(ctx, "outgoing"); len(p) != 0 || res.Reason != "Dropped.\nTwice." {
		t.Errorf("the reason is kept as %q (%v)", res.Reason, p)
	}
	res = Resolution{Code: "repaired", Reason: "x"}
	if res.Check(ctx, "processing"); res != (Resolution{}) {
		t.Errorf("a move that settles nothing keeps %+v", res)
	}
}
