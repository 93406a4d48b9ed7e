package views

import (
	"context"
	"strings"
	"testing"

	"github.com/a-h/templ"
)

// The live attributes draw as a map of them would: the same names, values
// and order.
func TestLiveAttrsDrawAsAMap(t *testing.T) {
	for _, live := range []bool{true, false} {
		var got, want strings.Builder
		if err := templ.RenderAttributes(context.Background(), &got, liveAttrs(live, "/a?b=<c>", "x", LiveHome)); err != nil {
			t.Fatal(err)
		}
		m := templ.Attributes{}
		for _, kv := range liveAttrs(live, "/a?b=<c>", "x", LiveHome) {
			m[kv.Key] = kv.Value
		}
		if err := templ.RenderAttributes(context.Background(), &want, m); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("live %v: drawn %s, want %s", live, got.String(), want.String())
		}
	}
}
