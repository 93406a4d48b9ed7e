package handlers

import (
	"context"
	"net/http"
	"slices"

	"golang.org/x/text/collate"

	"shipdesk/countries"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/views"
)

// countryOptions are the countries the shop ships to, by their names in the
// reader's language: home and Slovakia first, the rest in the language's
// alphabetical order.
func countryOptions(ctx context.Context) []views.Option {
	first := countries.Served[:2]
	out := make([]views.Option, 0, len(countries.Served))
	for _, code := range countries.Served {
		out = append(out, views.Option{Value: code, Label: i18n.T(ctx, countries.NameKey(code))})
	}
	c := collate.New(i18n.LangOf(ctx).Tag())
	slices.SortStableFunc(out[len(first):], func(a, b views.Option) int { return c.CompareString(a.Label, b.Label) })
	return out
}

// customsView is the customs part of the new-shipment form: shown only for a
// recipient outside the EU customs territory.
func customsView(ctx context.Context, f desk.Form) views.CustomsView {
	if !f.NeedsCustoms() {
		return views.CustomsView{}
	}
	v := views.CustomsView{Shown: true, Reasons: []views.Option{{Value: "", Label: i18n.T(ctx, "ship.f.customs_reason_none")}}}
	for _, r := range desk.CustomsReasons {
		v.Reasons = append(v.Reasons, views.Option{Value: r, Label: i18n.T(ctx, "ship.customs.reason."+r)})
	}
	for _, c := range desk.CustomsCurrencies {
		v.Currencies = append(v.Currencies, views.Option{Value: c, Label: c})
	}
	return v
}

// countryStep redraws the form for the chosen country: its customs fields
// appear or go, and offers asked for another country no longer hold.
var countryStep = formStep{lenient: true, run: func(h *Handlers, r *http.Request, f *desk.Form, st *shipmentState) (string, error) {
	f.Offer = desk.Offer{}
	st.focus = "to_country"
	return "", nil
}}

// ChooseCountry redraws the new-shipment form when the recipient's country changes.
func (h *Handlers) ChooseCountry(w http.ResponseWriter, r *http.Request) {
	h.runStep(w, r, countryStep)
}
