package textin

import (
	"encoding/json"
	"strings"
	"testing"
)

type answer struct {
	Name     string
	Note     *string
	History  []struct{ Text string }
	Extra    map[string]any
	Keyed    map[string]string
	Raw      json.RawMessage
	Number   int
	hidden   string
	Activity [2]string
}

func TestFromServiceCleansEveryString(t *testing.T) {
	note := "a\x00b"
	var a answer
	if err := json.Unmarshal([]byte(`{"Name":"Jana\u0000 \u001bNová","History":[{"Text":"line\nnext\u0000"}],
		"Extra":{"k\u0000":["x\u0000",{"y":"z\u0000"}]},"Keyed":{"1":"\u0000"},"Raw":{"a":1},"Number":3,"Activity":["\u0000","ok"]}`), &a); err != nil {
		t.Fatal(err)
	}
	a.Note = &note
	a.hidden = "\x00"
	a.Name += "\xff"
	FromService(&a)
	got, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), `\u0000`) || strings.Contains(string(got), `\u001b`) {
		t.Errorf("NUL or control characters kept: %s", got)
	}
	if a.Name != "Jana Nová\uFFFD" || *a.Note != "ab" || a.History[0].Text != "line\nnext" || a.Keyed["1"] != "" || a.Activity[0] != "" {
		t.Errorf("cleaned wrong: %+v %q", a, *a.Note)
	}
	if _, ok := a.Extra["k"]; !ok {
		t.Errorf("map keys not cleaned: %v", a.Extra)
	}
	if string(a.Raw) != `{"a":1}` || a.Number != 3 || a.hidden != "\x00" {
		t.Errorf("touched what is not text: %+v", a)
	}
	FromService(nil)
	FromService(answer{}) // not a pointer: nothing to change, no panic
}

func TestServiceTextKeepsCleanTextAsIs(t *testing.T) {
	for _, s := range []string{"", "Příliš žluťoučký kůň", "a\tb\nc", "\uFFFD"} {
		if got := ServiceText(s); got != s {
			t.Errorf("ServiceText(%q) = %q", s, got)
		}
	}
	if got := ServiceText("bad \xff\x00 byte"); got != "bad \uFFFD byte" {
		t.Errorf("got %q", got)
	}
}
