package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

func TestMessageTemplatesFillNameAndNumber(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	page := newCommission(t, env, b, nil)
	c, _ := env.App.DB.CommissionByID(context.Background(), idOf(page))
	message := func(q string) (string, *goquery.Document) {
		t.Helper()
		resp := b.Get(page + "?" + q)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", q, resp.StatusCode)
		}
		doc := htmlOf(t, resp.Body)
		return doc.Find(`textarea#message_text`).Text(), doc
	}
	for q, want := range map[string][]string{
		"template=received&tlang=cs":      {"Dobrý den", "převzali zboží", "č. " + c.Number, "na jméno Alena Veselá"},
		"template=received&tlang=en":      {"Hello Alena Veselá", "received the goods of commission " + c.Number},
		"template=refunded":               {"Hello Alena Veselá", "refunded you for commission " + c.Number}, // the agent's language
		"template=waiting_parts&tlang=cs": {"náhradní díly", c.Number, "Alena Veselá"},
		"template=rejected&tlang=en":      {"rejected the claim of commission " + c.Number, "[add the reason]"},
	} {
		t.Run(q, func(t *testing.T) {
			text, doc := message(q)
			for _, w := range want {
				if !strings.Contains(text, w) {
					t.Errorf("the message lacks %q: %q", w, text)
				}
			}
			if strings.Contains(text, "%!") || strings.Contains(text, "%[") {
				t.Errorf("unfilled: %q", text)
			}
			if key := doc.Find(`[data-testid=message-form] input[name=key]`).AttrOr("value", ""); key == "" {
				t.Error("the filled form has no request key")
			}
		})
	}
	t.Run("each template in each language for the script", func(t *testing.T) {
		_, doc := message("")
		options := doc.Find(`select[data-template-pick] option[value!=""]`)
		if options.Length() != 6 {
			t.Fatalf("%d templates", options.Length())
		}
		options.Each(func(_ int, o *goquery.Selection) {
			for _, lang := range []string{"cs", "en"} {
				if text := o.AttrOr("data-text-"+lang, ""); !strings.Contains(text, c.Number) || !strings.Contains(text, "Alena Veselá") {
					t.Errorf("%s in %s: %q", o.AttrOr("value", ""), lang, text)
				}
			}
		})
	})
	for _, q := range []string{"template=nope", "template=%3Cscript%3Ealert(1)%3C%2Fscript%3E", "template=received&tlang=%00", "template=received&tlang=xx"} {
		t.Run("hostile "+q, func(t *testing.T) {
			resp := b.Get(page + "?" + q)
			if resp.StatusCode != 200 || strings.Contains(resp.Body, "<script>alert(1)</script>") {
				t.Errorf("%d", resp.StatusCode)
			}
			if strings.HasPrefix(q, "template=received") && !strings.Contains(htmlOf(t, resp.Body).Find(`#message_text`).Text(), "Hello Alena") {
				t.Error("an unknown language does not fall back to the agent's")
			}
			if !strings.HasPrefix(q, "template=received") && !strings.Contains(resp.Body, "Choose a template from the list") {
				t.Errorf("an unknown template is not refused: %s", problemsOf(resp.Body))
			}
		})
	}
	t.Run("the rejection carries the recorded reason and is sent", func(t *testing.T) {
		moveTo(b, page, "processing")
		if r := moveTo(b, page, "closed", "resolution", "rejected", "reason", "The seal is broken."); r.StatusCode != 303 {
			t.Fatalf("close: %d %s", r.StatusCode, problemsOf(r.Body))
		}
		text, doc := message("template=rejected&tlang=cs")
		if !strings.Contains(text, "Důvod: The seal is broken.") || !strings.Contains(text, c.Number) {
			t.Errorf("%q", text)
		}
		key := doc.Find(`[data-testid=message-form] input[name=key]`).AttrOr("value", "")
		if r := b.PostForm(page+"/messages", url.Values{"message_text": {text}, "confirm": {"yes"}, "key": {key}}); r.StatusCode != 303 {
			t.Fatalf("send: %d %s", r.StatusCode, problemsOf(r.Body))
		}
		sent := htmlOf(t, b.Get(page).Body).Find(`[data-testid=activities] [data-kind=message] p`).Text()
		if !strings.Contains(sent, "na jméno Alena Veselá") || !strings.Contains(sent, "The seal is broken.") {
			t.Errorf("sent %q", sent)
		}
	})
}
