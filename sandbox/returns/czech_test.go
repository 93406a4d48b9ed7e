package returns

import (
	"strings"
	"testing"
)

// The returns service writes its data in Czech by default (history notes,
// product types and models) and its messages in English, as the provider
// documents them; each in the other language when the client asks for it.
func TestCommissionsAndProductsAreCzechUnlessEnglishIsAskedFor(t *testing.T) {
	e := newEnv(t)
	id := e.create(commissionReq("paid_repair", true, ""))["id"]
	cases := []struct {
		lang, note, transport, coffee, found string
	}{
		{"", "Zakázka vytvořena", "Objednána doprava od zákazníka", "Kávovar", "Commission found"},
		{"cs-CZ", "Zakázka vytvořena", "Objednána doprava od zákazníka", "Kávovar", "Zakázka nalezena"},
		{"en-US,en;q=0.9", "Order created", "Transport from the customer ordered", "Coffee machine", "Commission found"},
	}
	for _, c := range cases {
		e.api.Lang = c.lang
		a := e.api.Call("GET", Prefix+"/commissions/"+jsonNum(id), key, nil)
		var notes []string
		for _, h := range a.Data()["history"].([]any) {
			notes = append(notes, h.(map[string]any)["note"].(string))
		}
		if got := strings.Join(notes, "; "); got != c.note+"; "+c.transport || a.Body["message"] != c.found {
			t.Errorf("Accept-Language %q: history %q, message %v", c.lang, got, a.Body["message"])
		}
		types := e.api.Call("GET", Prefix+"/product-type", key, nil)
		if !strings.Contains(string(types.Raw), `"name":"`+c.coffee+`"`) {
			t.Errorf("Accept-Language %q: product types %s", c.lang, types.Raw)
		}
		models := e.api.Call("GET", Prefix+"/product-model?type_id=5", key, nil)
		if !strings.Contains(string(models.Raw), " "+c.coffee+" ") {
			t.Errorf("Accept-Language %q: models of type 5 %.300s", c.lang, models.Raw)
		}
	}
	e.api.Lang = "en"
}
