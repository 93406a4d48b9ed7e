package shoptet

import (
	"strings"
	"testing"
)

// A notification is read only when the shop's key signed its very bytes
// (Shoptet's lower-case hex HMAC-SHA1); anything else is not read at all.
func TestNotificationSignature(t *testing.T) {
	const key = "8a5e881b19ad6cc0bc986587b22e30be"
	body := []byte(`{"eshopId":222651,"event":"order:create","eventCreated":"2019-01-08T15:13:39+0100","eventInstance":"2018000057"}`)
	sig := Sign(key, body)
	if sig != strings.ToLower(sig) || len(sig) != 40 {
		t.Fatalf("signature %q: want 40 lower-case hex digits", sig)
	}
	n, ok, err := ReadNotification(key, body, sig)
	if !ok || err != nil || n.EventInstance != "2018000057" || n.Event != "order:create" || n.EshopID != 222651 || n.EventCreated.At().IsZero() {
		t.Fatalf("signed notification: %+v %v %v", n, ok, err)
	}
	if _, ok, _ := ReadNotification(key, body, strings.ToUpper(sig)); !ok {
		t.Error("the same digits in upper case are the same signature")
	}
	tampered := []byte(strings.Replace(string(body), "2018000057", "2018000058", 1))
	for name, c := range map[string]struct {
		key, sig string
		body     []byte
	}{
		"another body":  {key, sig, tampered},
		"another key":   {"other", sig, body},
		"no key":        {"", Sign("", body), body},
		"no signature":  {key, "", body},
		"not hex":       {key, "zz" + sig[2:], body},
		"cut signature": {key, sig[:38], body},
	} {
		if n, ok, err := ReadNotification(c.key, c.body, c.sig); ok || err != nil || n != (Notification{}) {
			t.Errorf("%s: read %+v %v %v", name, n, ok, err)
		}
	}
	if _, ok, err := ReadNotification(key, []byte(`{"event":1}`), Sign(key, []byte(`{"event":1}`))); !ok || err == nil {
		t.Errorf("a signed body of the wrong shape: %v %v", ok, err)
	}
}
