package web_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/shiprules"
)

// ruleForm is a valid rule form; with changes it.
func ruleForm(name string, kv ...string) url.Values {
	v := url.Values{"name": {name}, "cod": {"any"}, "delivery": {"any"}, "choice": {"cheapest"}}
	for i := 0; i+1 < len(kv); i += 2 {
		v[kv[i]] = append(v[kv[i]][:0:0], kv[i+1])
	}
	return v
}

// listedRules are the names of the rules as the list shows them, in order.
func listedRules(t *testing.T, body string) []string {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	doc.Find(`[data-testid=rule] [data-testid=rule-name]`).Each(func(_ int, s *goquery.Selection) {
		out = append(out, strings.TrimSpace(s.Text()))
	})
	return out
}

func storedRules(t *testing.T, env *apptest.Env) []shiprules.Rule {
	t.Helper()
	rules, err := env.App.DB.ShipRules(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

func TestRulesOnlyForManagers(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	manager := env.SignedIn(identity.Manager)
	if r := manager.PostForm("/shipping/rules", ruleForm("Kept")); r.StatusCode != 303 {
		t.Fatalf("manager adds: %d %s", r.StatusCode, r.Body)
	}
	id := fmt.Sprint(storedRules(t, env)[0].ID)
	anon := env.NewBrowser()
	gets := []string{"/shipping/rules", "/shipping/rules/" + id, "/shipping/rules/" + id + "/delete"}
	posts := map[string]url.Values{
		"/shipping/rules":                   ruleForm("Sneaky"),
		"/shipping/rules/" + id:             ruleForm("Renamed"),
		"/shipping/rules/" + id + "/move":   {"dir": {"up"}},
		"/shipping/rules/" + id + "/delete": {"confirm": {"yes"}},
	}
	var clerk *apptest.Browser
	for _, role := range []identity.Role{identity.Clerk, identity.Agent} {
		b := env.SignedIn(role)
		if role == identity.Clerk {
			clerk = b
		}
		for _, path := range gets {
			if r := b.Get(path); r.StatusCode != 403 {
				t.Errorf("%s reads %s: %d", role, path, r.StatusCode)
			}
		}
		for path, form := range posts {
			if r := b.PostForm(path, form); r.StatusCode != 403 {
				t.Errorf("%s posts %s: %d", role, path, r.StatusCode)
			}
		}
	}
	for _, path := range gets {
		if r := anon.Get(path); r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous reads %s: %d %s", path, r.StatusCode, r.Header.Get("Location"))
		}
	}
	for path, form := range posts {
		if r := anon.PostForm(path, form); r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous posts %s: %d %s", path, r.StatusCode, r.Header.Get("Location"))
		}
	}
	if rules := storedRules(t, env); len(rules) != 1 || rules[0].Name != "Kept" {
		t.Fatalf("others changed the rules: %+v", rules)
	}
	// Only managers are shown the way to the rules.
	if page := clerk.Get("/shipping"); strings.Contains(page.Body, `href="/shipping/rules"`) {
		t.Error("a clerk is shown the rules")
	}
	if page := manager.Get("/shipping"); !strings.Contains(page.Body, `href="/shipping/rules"`) {
		t.Error("a manager is not shown the rules")
	}
}

// A manager adds, edits, moves and removes rules; the list says each one's
// conditions and choice in words, in Czech and in English.
func TestManagerEditsRules(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	m := env.SignedIn(identity.Manager)
	if page := m.Get("/shipping/rules"); page.StatusCode != 200 || !strings.Contains(page.Body, "There are no rules yet.") {
		t.Fatalf("empty list: %d", page.StatusCode)
	}
	heavy := ruleForm("Heavy to Slovakia", "weight_min_kg", "10,5", "weight_max_kg", "1 000", "cod", "yes", "delivery", "door", "choice", "fastest")
	heavy["countries"] = []string{"SK", "CZ"}
	heavy["carriers"] = []string{"UPS", "ZASILKOVNA"}
	for _, form := range []url.Values{heavy, ruleForm("Cheap", "longest_side_max_cm", "120", "dims_sum_max_cm", "300,25"),
		ruleForm("Express", "choice", "service", "carrier", "UPS", "service", "Express", "service_id", "")} {
		if r := m.PostForm("/shipping/rules", form); r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/shipping/rules#rule-") {
			t.Fatalf("add %s: %d %s", form.Get("name"), r.StatusCode, problemsOf(r.Body))
		}
	}
	page := m.Get("/shipping/rules")
	if got := fmt.Sprint(listedRules(t, page.Body)); got != "[Heavy to Slovakia Cheap Express]" {
		t.Fatalf("listed %s", got)
	}
	for _, words := range []string{"Rule Express saved.", "To: Slovakia, Czech Republic", "With cash on delivery", "Weight 10.5 to 1,000 kg",
		"To the door", "The fastest offer among UPS, Zásilkovna", "Longest side at most 120 cm", "Length + width + height at most 300.25 cm",
		"The cheapest offer", "Service Express of UPS"} {
		if !strings.Contains(page.Body, words) {
			t.Errorf("the list does not say %q", words)
		}
	}
	rules := storedRules(t, env)
	h := rules[0]
	if *h.WeightMinKg != 10.5 || *h.WeightMaxKg != 1000 || h.COD != "yes" || fmt.Sprint(h.Countries) != "[SK CZ]" || fmt.Sprint(h.Carriers) != "[UPS ZASILKOVNA]" {
		t.Fatalf("stored %+v", h)
	}
	if r := rules[2]; r.Carrier != "UPS" || r.Service != "Express" || len(r.Carriers) != 0 {
		t.Fatalf("named stored %+v", r)
	}

	// Move Express to the top, then Cheap down (it is last: stays).
	express, cheap := fmt.Sprint(rules[2].ID), fmt.Sprint(rules[1].ID)
	for _, step := range [][2]string{{express, "up"}, {express, "up"}, {express, "up"}, {cheap, "down"}} {
		if r := m.PostForm("/shipping/rules/"+step[0]+"/move", url.Values{"dir": {step[1]}}); r.StatusCode != 303 {
			t.Fatalf("move: %d", r.StatusCode)
		}
	}
	if got := fmt.Sprint(listedRules(t, m.Get("/shipping/rules").Body)); got != "[Express Heavy to Slovakia Cheap]" {
		t.Fatalf("after moves %s", got)
	}

	// Edit: the form shows the stored rule in the reader's numbers; a save keeps the place.
	m.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/shipping/rules"}})
	edit := m.Get("/shipping/rules/" + fmt.Sprint(h.ID))
	if !strings.Contains(edit.Body, `value="10,5"`) || !strings.Contains(edit.Body, "Úprava pravidla Heavy to Slovakia") {
		t.Fatalf("edit form: %s", edit.Body)
	}
	changed := ruleForm("Těžké na Slovensko", "weight_min_kg", "10,5", "choice", "cheapest", "cod", "no")
	changed["countries"] = []string{"SK"}
	if r := m.PostForm("/shipping/rules/"+fmt.Sprint(h.ID), changed); r.StatusCode != 303 {
		t.Fatalf("edit: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	page = m.Get("/shipping/rules")
	if got := fmt.Sprint(listedRules(t, page.Body)); got != "[Express Těžké na Slovensko Cheap]" {
		t.Fatalf("after the edit %s", got)
	}
	for _, words := range []string{"Pravidlo Těžké na Slovensko je uloženo.", "Do zemí: Slovensko", "Bez dobírky", "Hmotnost od 10,5 kg",
		"Nejlevnější nabídku", "Službu Express dopravce UPS", "Délka + šířka + výška nejvýše 300,25 cm"} {
		if !strings.Contains(page.Body, words) {
			t.Errorf("the Czech list does not say %q", words)
		}
	}

	// Remove: first the confirm step, then the confirmed post.
	path := "/shipping/rules/" + cheap + "/delete"
	if r := m.PostForm(path, url.Values{}); r.StatusCode != 303 || r.Header.Get("Location") != path {
		t.Fatalf("unconfirmed removal: %d %s", r.StatusCode, r.Header.Get("Location"))
	}
	if conf := m.Get(path); !strings.Contains(conf.Body, "Odebrat pravidlo Cheap?") || !strings.Contains(conf.Body, `data-testid="confirm-yes"`) {
		t.Fatalf("confirm step: %d", conf.StatusCode)
	}
	if len(storedRules(t, env)) != 3 {
		t.Fatal("removed before confirmation")
	}
	if r := m.PostForm(path, url.Values{"confirm": {"yes"}}); r.StatusCode != 303 {
		t.Fatalf("removal: %d", r.StatusCode)
	}
	if got := fmt.Sprint(listedRules(t, m.Get("/shipping/rules").Body)); got != "[Express Těžké na Slovensko]" {
		t.Fatalf("after the removal %s", got)
	}
	// Gone: a clear not-found, for every way in.
	if r := m.Get(path); r.StatusCode != 404 {
		t.Errorf("confirm of a removed rule: %d", r.StatusCode)
	}
	if r := m.PostForm(path, url.Values{"confirm": {"yes"}}); r.StatusCode != 303 || !strings.Contains(m.Get("/shipping/rules").Body, "neexistuje") {
		t.Errorf("removed twice: %d", r.StatusCode)
	}
	if r := m.Get("/shipping/rules/" + cheap); r.StatusCode != 404 {
		t.Errorf("edit of a removed rule: %d", r.StatusCode)
	}
}

// Hostile and malformed input gets a clear message on its field, stores
// nothing and keeps the server up.
func TestRuleFormRefusesBadInput(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	m := env.SignedIn(identity.Manager)
	for name, c := range map[string]struct {
		form  url.Values
		field string
		says  string
	}{
		"no name":          {ruleForm(""), "name", "Type a name for the rule."},
		"long name":        {ruleForm(strings.Repeat("ř", 101)), "name", "At most 100 characters."},
		"NUL in the name":  {ruleForm("a\x00b"), "name", ""},
		"NaN weight":       {ruleForm("x", "weight_max_kg", "NaN"), "weight_max_kg", "Type a number"},
		"infinite weight":  {ruleForm("x", "weight_max_kg", "Inf"), "weight_max_kg", "Type a number"},
		"exponent":         {ruleForm("x", "weight_max_kg", "1e3"), "weight_max_kg", "Type a number"},
		"negative weight":  {ruleForm("x", "weight_min_kg", "-1"), "weight_min_kg", "at least 0"},
		"huge weight":      {ruleForm("x", "weight_max_kg", "99999999999999999999"), "weight_max_kg", "1000 kg"},
		"min over max":     {ruleForm("x", "weight_min_kg", "5", "weight_max_kg", "2"), "weight_min_kg", "The lowest weight must not be more than the highest."},
		"huge side":        {ruleForm("x", "longest_side_max_cm", "501"), "longest_side_max_cm", "500 cm"},
		"unknown country":  {ruleForm("x", "countries", "BR"), "countries", "We do not ship to BR."},
		"hostile country":  {ruleForm("x", "countries", "<script>"), "countries", ""},
		"unknown choice":   {ruleForm("x", "choice", "random"), "choice", "Choose one of the options offered."},
		"no choice":        {ruleForm("x", "choice", ""), "choice", "Choose which offer the rule picks."},
		"unknown COD":      {ruleForm("x", "cod", "maybe"), "cod", "Choose one of the options offered."},
		"named, nothing":   {ruleForm("x", "choice", "service"), "carrier", "Type the carrier's code."},
		"bad service id":   {ruleForm("x", "choice", "service", "carrier", "ZASILKOVNA", "service_id", "-3"), "service_id", "A service number is a positive whole number."},
		"NUL in a carrier": {ruleForm("x", "carriers", "ZASILKOVNA\x00"), "carriers", ""},
	} {
		t.Run(name, func(t *testing.T) {
			r := m.PostForm("/shipping/rules", c.form)
			if r.StatusCode != 422 {
				t.Fatalf("%d", r.StatusCode)
			}
			doc, err := goquery.NewDocumentFromReader(strings.NewReader(r.Body))
			if err != nil {
				t.Fatal(err)
			}
			msg := strings.TrimSpace(doc.Find("#" + c.field + "-error").Text())
			if msg == "" || !strings.Contains(msg, c.says) {
				t.Errorf("%s says %q, want %q", c.field, msg, c.says)
			}
			if strings.Contains(r.Body, "%!") || strings.Contains(r.Body, "[shiprules.") || strings.Contains(r.Body, "[rules.") {
				t.Error("a message does not read")
			}
		})
	}
	// Too big to read at all: refused with a message.
	if r := m.PostForm("/shipping/rules", ruleForm(strings.Repeat("x", 100_000))); r.StatusCode != 413 {
		t.Errorf("100 kB name: %d", r.StatusCode)
	}
	for _, bad := range []string{"/shipping/rules/abc/move", "/shipping/rules/-1/move", "/shipping/rules/99999999999999999999/move"} {
		if r := m.PostForm(bad, url.Values{"dir": {"up"}}); r.StatusCode != 404 {
			t.Errorf("%s: %d", bad, r.StatusCode)
		}
	}
	if r := m.PostForm("/shipping/rules", ruleForm("Ok")); r.StatusCode != 303 {
		t.Fatalf("a good rule after the bad ones: %d", r.StatusCode)
	}
	id := fmt.Sprint(storedRules(t, env)[0].ID)
	if r := m.PostForm("/shipping/rules/"+id+"/move", url.Values{"dir": {"sideways"}}); r.StatusCode != 400 {
		t.Errorf("move sideways: %d", r.StatusCode)
	}
	if r := m.PostForm("/shipping/rules/424242/move", url.Values{"dir": {"up"}}); r.StatusCode != 303 {
		t.Errorf("move an unknown rule: %d", r.StatusCode)
	}
	if r := m.PostForm("/shipping/rules/424242", ruleForm("Ghost")); r.StatusCode != 404 {
		t.Errorf("save an unknown rule: %d", r.StatusCode)
	}
	if rules := storedRules(t, env); len(rules) != 1 || rules[0].Name != "Ok" {
		t.Fatalf("stored %+v", rules)
	}
	if r := m.Get("/shipping/rules"); r.StatusCode != 200 {
		t.Fatalf("the server: %d", r.StatusCode)
	}
}
