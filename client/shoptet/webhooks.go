package shoptet

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
)

// SignatureHeader carries a notification's signature.
const SignatureHeader = "Shoptet-Webhook-Signature"

// NewWebhook asks for the notifications of one event at a URL.
type NewWebhook struct {
	Event string `json:"event"`
	URL   string `json:"url"`
}

// Webhooks are the webhooks registered for the shop, every page.
func (c *Client) Webhooks(ctx context.Context) ([]Webhook, error) {
	var all []Webhook
	for page := 1; ; page++ {
		ans, err := c.get(ctx, "webhooks", "/api/webhooks", pageQuery(page))
		if err != nil {
			return nil, err
		}
		d, err := data[struct {
			Webhooks  []Webhook `json:"webhooks"`
			Paginator Paginator `json:"paginator"`
		}](ans, "webhooks")
		if err != nil {
			return nil, err
		}
		all = append(all, d.Webhooks...)
		if page >= d.Paginator.PageCount || len(d.Webhooks) == 0 {
			return all, nil
		}
	}
}

// AddWebhooks registers webhooks; Shoptet keeps one URL per event and
// refuses a second with 422, so a repeated request adds nothing.
func (c *Client) AddWebhooks(ctx context.Context, hooks []NewWebhook) ([]Webhook, error) {
	ans, err := c.send(ctx, "webhooks/add", http.MethodPost, "/api/webhooks", nil, map[string]any{"data": hooks})
	if err != nil {
		return nil, err
	}
	d, err := data[struct {
		Webhooks []Webhook `json:"webhooks"`
	}](ans, "webhooks/add")
	if err != nil {
		return nil, err
	}
	return d.Webhooks, nil
}

// DeleteWebhook removes a registered webhook.
func (c *Client) DeleteWebhook(ctx context.Context, id int) error {
	_, err := c.send(ctx, "webhooks/delete", http.MethodDelete, "/api/webhooks/"+strconv.Itoa(id), nil, nil)
	return err
}

// RenewSignatureKey makes the shop sign its notifications with a new key
// and returns it. A repeat makes yet another key, and its answer is the key
// in force, so it is retried like the other writes.
func (c *Client) RenewSignatureKey(ctx context.Context) (string, error) {
	ans, err := c.send(ctx, "webhooks/renew-signature-key", http.MethodPost, "/api/webhooks/renew-signature-key", nil, nil)
	if err != nil {
		return "", err
	}
	d, err := data[struct {
		SignatureKey string `json:"signatureKey"`
	}](ans, "webhooks/renew-signature-key")
	if err != nil {
		return "", err
	}
	return d.SignatureKey, nil
}

// Notification is what a webhook posts: an event about one entity (for
// orders, the order's code); the order itself is then read from the API.
type Notification struct {
	EshopID       int64  `json:"eshopId"`
	Event         string `json:"event"`
	EventCreated  *Time  `json:"eventCreated"`
	EventInstance string `json:"eventInstance"`
}

// Sign is the signature of a notification's body: the lower-case hex
// HMAC-SHA1 of the raw body with the shop's signature key.
func Sign(key string, body []byte) string {
	m := hmac.New(sha1.New, []byte(key))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// ReadNotification checks the signature of a posted body against the key,
// in constant time, and only then reads it; ok is false for a body the key
// did not sign (or an empty key).
func ReadNotification(key string, body []byte, signature string) (n Notification, ok bool, err error) {
	want, werr := hex.DecodeString(Sign(key, body))
	got, gerr := hex.DecodeString(strings.ToLower(strings.TrimSpace(signature)))
	if key == "" || werr != nil || gerr != nil || !hmac.Equal(want, got) {
		return Notification{}, false, nil
	}
	if err := decode(body, &n); err != nil {
		return Notification{}, true, err
	}
	return n, true, nil
}
