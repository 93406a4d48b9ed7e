package shoptet

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Webhook is a registered notification URL for one event.
type Webhook struct {
	ID          int       `json:"id"`
	Event       string    `json:"event"`
	URL         string    `json:"url"`
	Created     time.Time `json:"created"`
	Updated     time.Time `json:"updated"`
	SendPayload *string   `json:"send_payload"`
}

// Events are the order events the simulated shop notifies.
var Events = []string{"order:create", "order:update", "order:cancel", "order:paid", "order:delete"}

// Webhook limits of Shoptet.
const (
	MaxWebhooksPerCall = 50
	MaxWebhookURL      = 2000
	WebhooksPerPage    = 20
	MaxWebhooksPerPage = 500
)

func (s *Service) webhookView(h *Webhook) m {
	var payload any
	if h.SendPayload != nil {
		payload = *h.SendPayload
	}
	return m{"id": h.ID, "event": h.Event, "url": text(h.URL), "created": stamp(h.Created), "updated": stamp(h.Updated), "sendPayload": payload}
}

func (s *Service) listWebhooks(w http.ResponseWriter, r *http.Request) *problem {
	page, per, p := paging(r.URL.Query(), WebhooksPerPage, MaxWebhooksPerPage)
	if p != nil {
		return p
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	lo, hi, paginator := pageOf(len(s.webhooks), page, per)
	list := []any{}
	for _, h := range s.webhooks[lo:hi] {
		list = append(list, s.webhookView(h))
	}
	writeData(w, r, http.StatusOK, m{"webhooks": list, "paginator": paginator})
	return nil
}

// addWebhooks is POST /api/webhooks: one URL per event; order:update and
// order:cancel may not be registered in one call (409, as Shoptet says).
func (s *Service) addWebhooks(w http.ResponseWriter, r *http.Request) *problem {
	body, _, p := readBody(w, r)
	if p != nil {
		return p
	}
	for k := range body {
		if k != "data" {
			return invalidData(k, "Unknown property \"%s\".", clip(k))
		}
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(body["data"], &list); err != nil || len(list) == 0 {
		return invalidData("data", "\"data\" must be a list of at least one {event, url}.")
	}
	if len(list) > MaxWebhooksPerCall {
		return fail(http.StatusRequestEntityTooLarge, "too-many-items", "data", "At most %d webhooks can be registered in one call.", MaxWebhooksPerCall)
	}
	type want struct {
		event, url string
		payload    *string
	}
	var wants []want
	seen := map[string]bool{}
	for i, item := range list {
		at := "data[" + strconv.Itoa(i) + "]"
		var x want
		for k := range item {
			if k != "event" && k != "url" && k != "sendPayload" {
				return invalidData(at+"."+k, "Unknown property \"%s\".", clip(k))
			}
		}
		if err := json.Unmarshal(item["event"], &x.event); err != nil || !known(x.event) {
			return invalidData(at+".event", "Unknown event. Events of orders: %s.", strings.Join(Events, ", "))
		}
		if err := json.Unmarshal(item["url"], &x.url); err != nil || len(x.url) > MaxWebhookURL || !s.webhookURL(x.url) {
			return invalidData(at+".url", "\"url\" must be an http or https URL of at most %d characters%s.", MaxWebhookURL, s.hostRule())
		}
		if raw, ok := item["sendPayload"]; ok && string(raw) != "null" {
			var v string
			if err := json.Unmarshal(raw, &v); err != nil || v != "full" {
				return invalidData(at+".sendPayload", "\"sendPayload\" must be \"full\" or null.")
			}
			x.payload = &v
		}
		if seen[x.event] {
			return invalidData(at+".event", "Webhook already exists for this event.")
		}
		seen[x.event] = true
		wants = append(wants, x)
	}
	if seen["order:update"] && seen["order:cancel"] {
		return fail(http.StatusConflict, "webhook-conflict", "data", "order:cancel cannot be registered together with order:update.")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.webhooks {
		if seen[h.Event] {
			return invalidData("data", "Webhook already exists for this event.")
		}
	}
	now := s.clock.Now()
	out := []any{}
	for _, x := range wants {
		s.nextHook++
		h := &Webhook{ID: s.nextHook, Event: x.event, URL: x.url, Created: now, SendPayload: x.payload}
		s.webhooks = append(s.webhooks, h)
		out = append(out, s.webhookView(h))
	}
	writeData(w, r, http.StatusCreated, m{"webhooks": out})
	return nil
}

func known(event string) bool {
	for _, e := range Events {
		if e == event {
			return true
		}
	}
	return false
}

// webhookURL accepts an http(s) URL; on this machine only, unless any host
// is allowed.
func (s *Service) webhookURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	if s.cfg.AnyWebhookHost {
		return true
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *Service) hostRule() string {
	if s.cfg.AnyWebhookHost {
		return ""
	}
	return " on this machine (localhost, 127.0.0.1 or ::1)"
}

func (s *Service) webhookByID(raw string) (int, *Webhook) {
	id, err := strconv.Atoi(raw)
	if err != nil {
		return -1, nil
	}
	for i, h := range s.webhooks {
		if h.ID == id {
			return i, h
		}
	}
	return -1, nil
}

func webhookNotFound(id string) *problem {
	return fail(http.StatusNotFound, "webhook-not-found", id, "Webhook with id \"%s\" not found.", clip(id))
}

func (s *Service) getWebhook(w http.ResponseWriter, r *http.Request) *problem {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, h := s.webhookByID(r.PathValue("id"))
	if h == nil {
		return webhookNotFound(r.PathValue("id"))
	}
	writeData(w, r, http.StatusOK, m{"webhook": s.webhookView(h)})
	return nil
}

func (s *Service) deleteWebhook(w http.ResponseWriter, r *http.Request) *problem {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, h := s.webhookByID(r.PathValue("id"))
	if h == nil {
		return webhookNotFound(r.PathValue("id"))
	}
	s.webhooks = append(s.webhooks[:i:i], s.webhooks[i+1:]...)
	writeData(w, r, http.StatusOK, nil)
	return nil
}

// renewKey is POST /api/webhooks/renew-signature-key: every notification
// from now on is signed with the new key.
func (s *Service) renewKey(w http.ResponseWriter, r *http.Request) *problem {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	s.mu.Lock()
	s.key = hex.EncodeToString(b)
	key := s.key
	s.mu.Unlock()
	writeData(w, r, http.StatusOK, m{"signatureKey": key})
	return nil
}

// emit queues the notification of an event to the URL registered for it,
// signed with the key of now. Called with s.mu held.
func (s *Service) emit(event, code string, at time.Time) {
	for _, h := range s.webhooks {
		if h.Event != event {
			continue
		}
		body, _ := json.Marshal(struct {
			EshopID       int    `json:"eshopId"`
			Event         string `json:"event"`
			EventCreated  any    `json:"eventCreated"`
			EventInstance text   `json:"eventInstance"`
		}{EshopID, event, stamp(at), text(code)})
		s.hooks.queue(Notification{Event: event, Instance: code, URL: h.URL, Body: body, Signature: Sign(s.key, body)})
	}
}

// Sign is Shoptet-Webhook-Signature: the lower-case hex HMAC-SHA1 of the raw
// body with the shop's signature key.
func Sign(key string, body []byte) string {
	mac := hmac.New(sha1.New, []byte(key))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// Notifications are the webhook notifications sent or being sent, oldest
// first, with their attempts (for tests and the sandbox's control).
func (s *Service) Notifications() []Notification {
	return s.hooks.list()
}
