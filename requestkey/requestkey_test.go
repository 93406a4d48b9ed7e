package requestkey

import "testing"

// Keys are version-4 UUIDs in lower-case hex, each new.
func TestNewKeysAreValidAndNew(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		k := New()
		if !Valid(k) || k[14] != '4' || (k[19] != '8' && k[19] != '9' && k[19] != 'a' && k[19] != 'b') || seen[k] {
			t.Fatalf("key %q", k)
		}
		seen[k] = true
	}
}
