package pagecache

import (
	"strings"
	"testing"

	"shipdesk/requestkey"
)

// A kept page's request keys are found where its render wrote them and
// replaced by fresh ones (the same fresh key where one was written twice);
// a page holding a key its render did not note is not kept.
func TestKeySpots(t *testing.T) {
	k1, k2, other := requestkey.New(), requestkey.New(), requestkey.New()
	body := []byte(`<div class="a-b-c" id="x-1"><input name="key" value="` + k1 + `"><input value="` + k2 +
		`"><a data-k="` + k1 + `">-` + "12345678-zz" + `</a></div>`)
	spots, ok := KeySpots(body, []string{k1, k2})
	if !ok || len(spots) != 3 || spots[0].Key != 0 || spots[1].Key != 1 || spots[2].Key != 0 {
		t.Fatalf("spots %v ok %v", spots, ok)
	}
	out := string(AppendFresh(nil, body, spots))
	if strings.Contains(out, k1) || strings.Contains(out, k2) || len(out) != len(body) {
		t.Fatalf("the noted keys are still there: %s", out)
	}
	s2, _ := KeySpots([]byte(out), []string{out[spots[0].At : spots[0].At+keyLen], out[spots[1].At : spots[1].At+keyLen]})
	if len(s2) != 3 || s2[2].Key != 0 {
		t.Errorf("a key written twice got two fresh ones: %s", out)
	}
	if !strings.Contains(string(body), k1) {
		t.Error("the kept body was changed")
	}
	if _, ok := KeySpots([]byte(`<input value="`+other+`">`), []string{k1}); ok {
		t.Error("a page with a key its render did not note is kept")
	}
	if spots, ok := KeySpots([]byte(`<p>no keys - here</p>`), nil); !ok || len(spots) != 0 {
		t.Errorf("a page without keys: %v %v", spots, ok)
	}
}
