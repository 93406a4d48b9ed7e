package handlers

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/shiprules"
	"shipdesk/views"
)

// The managers' rules that choose an offer for each row of a batch: the list
// in order, moving, editing and removing a rule (the writes through the desk).

// ruleDesk writes the rules.
type ruleDesk interface {
	SaveRule(ctx context.Context, r shiprules.Rule) (int64, error)
	DeleteRule(ctx context.Context, id int64) error
	MoveRule(ctx context.Context, id int64, up bool) error
}

// ruleReads reads the rules (storage.DB).
type ruleReads interface {
	ShipRules(ctx context.Context) ([]shiprules.Rule, error)
	ShipRule(ctx context.Context, id int64) (shiprules.Rule, error)
}

const rulesPath = "/shipping/rules"

// Rules lists the rules with the form of a new one.
func (h *Handlers) Rules(w http.ResponseWriter, r *http.Request) {
	form := views.Form{Values: map[string]string{"cod": shiprules.CODAny, "delivery": shiprules.DeliveryAny, "choice": shiprules.Cheapest}}
	h.rulesPage(w, r, http.StatusOK, views.RulesPage{Form: form.FocusOn("name"), Action: rulesPath, Ticked: map[string]bool{}})
}

// RuleEdit shows the rules with the form filled with one of them.
func (h *Handlers) RuleEdit(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	rule, ok := h.ruleOf(w, r)
	if !ok {
		return
	}
	id := rule.ID
	v := ruleValues(ctx, rule)
	v.Form = v.Form.FocusOn("name")
	v.EditID, v.EditName, v.Action = id, rule.Name, views.RulePath(id)
	h.rulesPage(w, r, http.StatusOK, v)
}

// AddRule saves a new rule after the others.
func (h *Handlers) AddRule(w http.ResponseWriter, r *http.Request) { h.saveRule(w, r, 0) }

// SaveRule saves an edited rule in its place.
func (h *Handlers) SaveRule(w http.ResponseWriter, r *http.Request) {
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	h.saveRule(w, r, id)
}

func (h *Handlers) saveRule(w http.ResponseWriter, r *http.Request, id int64) {
	if !h.readForm(w, r) {
		return
	}
	ctx := r.Context()
	rule, problems := desk.ParseRule(r.PostForm, id)
	var err error
	if len(problems) == 0 {
		id, err = h.ShipDesk.SaveRule(ctx, rule)
		if err == nil {
			h.Sessions.AddFlash(w, r, views.Flash{Kind: "ok", Text: i18n.T(ctx, "shiprules.saved", rule.Normalized().Name)})
			redirect(w, r, rulesPath+"#rule-"+strconv.FormatInt(id, 10))
			return
		}
		if !apperr.Is(err, apperr.Invalid) {
			h.Fail(w, r, err)
			return
		}
	} else {
		// Every problem at once: what could not be read, then the rule's own.
		for field, t := range desk.CheckRule(rule) {
			problems.Put(field, t)
		}
		err = problems.Err("form.see_fields")
	}
	v := views.RulesPage{Form: views.Form{Values: typedRule(r.PostForm), Errors: apperr.FieldsOf(ctx, err), Message: apperr.MessageOf(ctx, err, "")},
		Action: rulesPath, Ticked: ticked(r.PostForm)}
	if id != 0 {
		v.Action, v.EditID, v.EditName = views.RulePath(id), id, rule.Name
		if stored, err := h.ShipReads.ShipRule(ctx, id); err == nil {
			v.EditName = stored.Name
		}
	}
	v.Form = v.Form.FocusOn(firstRuleProblem(v.Form.Errors))
	h.rulesPage(w, r, http.StatusUnprocessableEntity, v)
}

// ruleFields are the form's fields in the order they are drawn.
var ruleFields = []string{"name", "countries", "cod", "weight_min_kg", "weight_max_kg", "longest_side_max_cm", "dims_sum_max_cm",
	"delivery", "choice", "carriers", "carrier", "service", "service_id"}

func firstRuleProblem(errors map[string]string) string {
	for _, f := range ruleFields {
		if errors[f] != "" {
			return f
		}
	}
	return "name"
}

// typedRule is the form as it was typed, to draw it again.
func typedRule(v url.Values) map[string]string {
	out := map[string]string{}
	for _, f := range ruleFields {
		if f != "countries" && f != "carriers" {
			out[f] = v.Get(f)
		}
	}
	return out
}

func ticked(v url.Values) map[string]bool {
	out := map[string]bool{}
	for _, list := range []string{"countries", "carriers"} {
		for _, x := range v[list] {
			out[list+":"+x] = true
		}
	}
	return out
}

// ruleValues is a stored rule as the form shows it, numbers in the reader's language.
func ruleValues(ctx context.Context, rule shiprules.Rule) views.RulesPage {
	rule = rule.Normalized()
	values := map[string]string{"name": rule.Name, "cod": rule.COD, "delivery": rule.Delivery, "choice": rule.Choice,
		"carrier": rule.Carrier, "service": rule.Service}
	if rule.ServiceID > 0 {
		values["service_id"] = strconv.Itoa(rule.ServiceID)
	}
	for field, x := range map[string]*float64{"weight_min_kg": rule.WeightMinKg, "weight_max_kg": rule.WeightMaxKg,
		"longest_side_max_cm": rule.LongestMaxCm, "dims_sum_max_cm": rule.DimsSumMaxCm} {
		if x != nil {
			values[field] = number(ctx, *x)
		}
	}
	box := map[string]bool{}
	for _, c := range rule.Countries {
		box["countries:"+c] = true
	}
	for _, c := range rule.Carriers {
		box["carriers:"+c] = true
	}
	return views.RulesPage{Form: views.Form{Values: values}, Ticked: box}
}

func number(ctx context.Context, x float64) string { return i18n.Number(ctx, x, shiprules.Decimals(x)) }

// rulesPage draws the list of rules around the form v.
func (h *Handlers) rulesPage(w http.ResponseWriter, r *http.Request, status int, v views.RulesPage) {
	ctx := r.Context()
	rules, err := h.ShipReads.ShipRules(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	carriers, err := h.ShipReads.Carriers(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	names := h.carrierNames(ctx)
	for i, rule := range rules {
		v.Rows = append(v.Rows, views.RuleRow{ID: rule.ID, Place: i + 1, Name: rule.Name, Conditions: ruleConditions(ctx, rule),
			Choice: ruleChoice(ctx, rule, names), First: i == 0, Last: i == len(rules)-1})
	}
	for _, c := range desk.Countries {
		v.Countries = append(v.Countries, views.Option{Value: c, Label: i18n.T(ctx, "ship.country."+strings.ToLower(c))})
	}
	for _, c := range carriers {
		v.Carriers = append(v.Carriers, views.Option{Value: c.Code, Label: names.of(c.Code)})
	}
	// A rule may name a carrier the table does not know (any more): it stays offered.
	for _, code := range append(slices.Clone(ruleCodesTicked(v.Ticked)), v.Form.Value("carrier")) {
		if code != "" && !slices.ContainsFunc(v.Carriers, func(o views.Option) bool { return o.Value == code }) {
			v.Carriers = append(v.Carriers, views.Option{Value: code, Label: code})
		}
	}
	h.render(w, r, status, views.Rules(h.page(w, r, i18n.T(ctx, "shiprules.title"), identity.Shipping), v))
}

func ruleCodesTicked(box map[string]bool) []string {
	var out []string
	for k, on := range box {
		if code, ok := strings.CutPrefix(k, "carriers:"); ok && on {
			out = append(out, code)
		}
	}
	slices.Sort(out)
	return out
}

// ruleConditions says a rule's conditions in words, one a line.
func ruleConditions(ctx context.Context, rule shiprules.Rule) []string {
	var out []string
	if len(rule.Countries) > 0 {
		names := make([]string, 0, len(rule.Countries))
		for _, c := range rule.Countries {
			key := "ship.country." + strings.ToLower(c)
			if i18n.Has(key) {
				names = append(names, i18n.T(ctx, key))
			} else {
				names = append(names, c)
			}
		}
		out = append(out, i18n.T(ctx, "shiprules.when.countries", strings.Join(names, ", ")))
	}
	switch rule.COD {
	case shiprules.CODYes:
		out = append(out, i18n.T(ctx, "shiprules.when.cod_yes"))
	case shiprules.CODNo:
		out = append(out, i18n.T(ctx, "shiprules.when.cod_no"))
	}
	switch lo, hi := rule.WeightMinKg, rule.WeightMaxKg; {
	case lo != nil && hi != nil:
		out = append(out, i18n.T(ctx, "shiprules.when.weight_range", number(ctx, *lo), number(ctx, *hi)))
	case lo != nil:
		out = append(out, i18n.T(ctx, "shiprules.when.weight_from", number(ctx, *lo)))
	case hi != nil:
		out = append(out, i18n.T(ctx, "shiprules.when.weight_to", number(ctx, *hi)))
	}
	if rule.LongestMaxCm != nil {
		out = append(out, i18n.T(ctx, "shiprules.when.longest", number(ctx, *rule.LongestMaxCm)))
	}
	if rule.DimsSumMaxCm != nil {
		out = append(out, i18n.T(ctx, "shiprules.when.dims_sum", number(ctx, *rule.DimsSumMaxCm)))
	}
	switch rule.Delivery {
	case shiprules.DeliveryPoint:
		out = append(out, i18n.T(ctx, "shiprules.when.point"))
	case shiprules.DeliveryDoor:
		out = append(out, i18n.T(ctx, "shiprules.when.door"))
	}
	if len(out) == 0 {
		out = append(out, i18n.T(ctx, "shiprules.when.any"))
	}
	return out
}

// ruleChoice says what a rule chooses.
func ruleChoice(ctx context.Context, rule shiprules.Rule, names carrierNames) string {
	var named []string
	for _, c := range rule.Carriers {
		named = append(named, names.of(c))
	}
	carriers := strings.Join(named, ", ")
	switch rule.Choice {
	case shiprules.Cheapest:
		if carriers != "" {
			return i18n.T(ctx, "shiprules.chooses.cheapest_of", carriers)
		}
		return i18n.T(ctx, "shiprules.chooses.cheapest")
	case shiprules.Fastest:
		if carriers != "" {
			return i18n.T(ctx, "shiprules.chooses.fastest_of", carriers)
		}
		return i18n.T(ctx, "shiprules.chooses.fastest")
	case shiprules.Named:
		if rule.ServiceID > 0 {
			return i18n.T(ctx, "shiprules.chooses.named_id", strconv.Itoa(rule.ServiceID), names.of(rule.Carrier))
		}
		return i18n.T(ctx, "shiprules.chooses.named", rule.Service, names.of(rule.Carrier))
	}
	return rule.Choice
}

// MoveRule moves a rule one place up or down.
func (h *Handlers) MoveRule(w http.ResponseWriter, r *http.Request) {
	id, ok := h.postedID(w, r)
	if !ok {
		return
	}
	dir := r.PostFormValue("dir")
	if dir != "up" && dir != "down" {
		h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(r.Context(), "error.form_unreadable"))
		return
	}
	err := h.ShipDesk.MoveRule(r.Context(), id, dir == "up")
	h.finish(w, r, err, i18n.T(r.Context(), "shiprules.moved"), rulesPath+"#rule-"+strconv.FormatInt(id, 10))
}

// RuleDeleteConfirm asks before a rule is removed.
func (h *Handlers) RuleDeleteConfirm(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	rule, ok := h.ruleOf(w, r)
	if !ok {
		return
	}
	id := rule.ID
	text := append(ruleConditions(ctx, rule), ruleChoice(ctx, rule, h.carrierNames(ctx)), i18n.T(ctx, "shiprules.conf.text"))
	h.confirmPage(w, r, identity.Shipping, views.Confirm{Heading: i18n.T(ctx, "shiprules.conf.heading", rule.Name), Text: text,
		Action: views.RulePath(id) + "/delete", Button: i18n.T(ctx, "shiprules.delete"), Keep: i18n.T(ctx, "shiprules.conf.keep"), Back: rulesPath})
}

// DeleteRule removes a rule once confirmed.
func (h *Handlers) DeleteRule(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	if h.unconfirmed(w, r, views.RulePath(id)+"/delete") {
		return
	}
	rule, err := h.ShipReads.ShipRule(ctx, id)
	if err == nil {
		err = h.ShipDesk.DeleteRule(ctx, id)
	}
	h.finish(w, r, err, i18n.T(ctx, "shiprules.deleted", rule.Name), rulesPath)
}

// ruleOf is the rule the path names; when there is none, the answer has been
// written and ok is false.
func (h *Handlers) ruleOf(w http.ResponseWriter, r *http.Request) (shiprules.Rule, bool) {
	id, ok := pathID(r)
	if !ok {
		h.NotFound(w, r)
		return shiprules.Rule{}, false
	}
	rule, err := h.ShipReads.ShipRule(r.Context(), id)
	if err != nil {
		h.Fail(w, r, err)
		return shiprules.Rule{}, false
	}
	return rule, true
}
