package handlers

import (
	"cmp"
	"context"
	"net/url"
	"slices"
	"strconv"

	"shipdesk/i18n"
	"shipdesk/views"
	"shipdesk/workbench"
)

// templateNames are the common answers to a customer, kept in the catalog
// (ret.tpl.<name>) where a translator edits them.
var templateNames = []string{"received", "waiting_parts", "repaired", "replaced", "refunded", "rejected"}

// templateText is a template in a language with the customer's name, the
// commission's number and, for a rejection, the reason filled in.
func templateText(ctx context.Context, name string, lang i18n.Lang, d workbench.Detail) string {
	lctx := i18n.WithLang(ctx, lang)
	reason := i18n.T(lctx, "ret.tpl.reason")
	if d.Resolution == "rejected" && d.ResolutionReason != "" {
		reason = d.ResolutionReason
	}
	return i18n.T(lctx, "ret.tpl."+name, d.Customer.Name, cmp.Or(d.Number, "#"+strconv.FormatInt(d.ID, 10)), reason)
}

// messageTemplates are the templates for the commission's message form, each
// filled in every language (the script picks one without reloading the page).
func messageTemplates(ctx context.Context, d workbench.Detail) []views.MessageTemplate {
	out := make([]views.MessageTemplate, 0, len(templateNames))
	for _, name := range templateNames {
		if !workbench.TemplateFits(name, d.Status) {
			continue
		}
		t := views.MessageTemplate{Name: name, Label: i18n.T(ctx, "ret.tpl.label."+name), Texts: map[string]string{}}
		for _, l := range i18n.Langs {
			t.Texts[string(l)] = templateText(ctx, name, l, d)
		}
		out = append(out, t)
	}
	return out
}

// templateLangs are the languages a message may be written in.
func templateLangs(ctx context.Context) []views.Option {
	var out []views.Option
	for _, l := range i18n.Langs {
		out = append(out, views.Option{Value: string(l), Label: i18n.T(ctx, "ret.tpl.lang."+string(l))})
	}
	return out
}

// chosenTemplate fills the message form with the template the query names
// (template, tlang: the customer's language, the agent's by default); an
// unknown one is the form's problem. Without a template the form is as given.
func chosenTemplate(ctx context.Context, q url.Values, d workbench.Detail, form views.Form) views.Form {
	name := q.Get("template")
	if name == "" {
		return form
	}
	lang := i18n.LangOf(ctx)
	if l, ok := i18n.Parse(q.Get("tlang")); ok && len(q.Get("tlang")) <= 5 {
		lang = l
	}
	values := map[string]string{"tlang": string(lang)}
	if !slices.Contains(templateNames, name) || !workbench.TemplateFits(name, d.Status) {
		return views.Form{Values: values, Errors: map[string]string{"template": i18n.T(ctx, "ret.tpl.err.unknown")}}
	}
	values["template"], values["message_text"] = name, templateText(ctx, name, lang, d)
	return views.Form{Values: values}
}
