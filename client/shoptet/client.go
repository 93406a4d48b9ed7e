// Package shoptet is the typed client of a Shoptet shop's private API: the
// shop, its order statuses, shipping and payment methods, orders and their
// changes, the tracking number and status written back, and webhooks. It
// keeps Shoptet's rules: the token in Shoptet-Private-Api-Token, its media
// type, pages of 50, at most 3 requests at once per token (one limiter per
// client), 429 waited out by its Retry-After, 423 (the same write still
// locked) and 5xx retried with the transport's back-off. Every answer is
// read as the official SDK reads it (see decode); a failure is a
// *transport.Error carrying Shoptet's errorCode and message for the log.
package shoptet

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"shipdesk/client/transport"
)

// Shoptet's constants (shoptet-evidence.md, shoptet-api.yaml).
const (
	Production        = "https://api.myshoptet.com"
	MediaType         = "application/vnd.shoptet.v1.0"
	TokenHeader       = "Shoptet-Private-Api-Token"
	PerPage           = 50 // the most GET /api/orders gives; changes are read the same way
	MaxConnections    = 3  // per token; a fourth is refused with 429
	MaxTrackingNumber = 32 // characters
)

// Refusals made before asking the shop.
var (
	// ErrBadCode: the order code cannot be put into a URL as one path segment.
	ErrBadCode = errors.New("not an order code the shop can be asked about")
	// ErrTrackingTooLong: Shoptet keeps at most MaxTrackingNumber characters.
	ErrTrackingTooLong = errors.New("the tracking number is longer than the shop keeps")
)

// Client calls one shop's API with one private token.
type Client struct {
	t *transport.Client
}

// New returns a client; cfg.BaseURL is the API's root (Production, or the
// sandbox's http://<sandbox>/shoptet) and cfg.APIKey the private token.
func New(cfg transport.Config) (*Client, error) {
	if cfg.Interface == "" {
		cfg.Interface = "shoptet"
	}
	cfg.KeyHeader, cfg.MediaType = TokenHeader, MediaType
	if cfg.MaxInFlight <= 0 || cfg.MaxInFlight > MaxConnections {
		cfg.MaxInFlight = MaxConnections
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = 8 << 20
	}
	if cfg.Retry == (transport.Retry{}) {
		// Six attempts outlast a 5-second lock (the waits add up to at
		// least 7.75 s); a Retry-After is waited out up to a minute.
		cfg.Retry = transport.Retry{Attempts: 6, Base: 500 * time.Millisecond, Max: time.Minute}
	}
	t, err := transport.New(cfg)
	if err != nil {
		return nil, err
	}
	return &Client{t: t}, nil
}

// BaseURL is the root in use.
func (c *Client) BaseURL() string { return c.t.BaseURL() }

// get reads path; every read is safe to repeat.
func (c *Client) get(ctx context.Context, op, path string, q url.Values) (*transport.Answer, error) {
	return c.t.Do(ctx, transport.Call{Op: op, Method: http.MethodGet, Path: path, Query: q, Idempotent: true})
}

// send writes; the writes used here set a value (a tracking number, a
// status, a webhook per event), so a repeat changes nothing and is retried.
func (c *Client) send(ctx context.Context, op, method, path string, q url.Values, body any) (*transport.Answer, error) {
	return c.t.Do(ctx, transport.Call{Op: op, Method: method, Path: path, Query: q, JSON: body, Idempotent: true})
}

// data reads an answer's data member strictly into T.
func data[T any](ans *transport.Answer, op string) (*T, error) {
	var env struct {
		Data T `json:"data"`
	}
	if err := decode(ans.Body, &env); err != nil {
		return nil, &transport.Error{Op: op, Kind: transport.KindDecode, Status: ans.Status, Message: err.Error()}
	}
	return &env.Data, nil
}

// warnings are the errors of a 2xx answer: what Shoptet skipped or could
// not do beside the change it made.
func warnings(ans *transport.Answer) []transport.FieldError {
	env, err := transport.DecodeEnvelope(ans.Body)
	if err != nil {
		return nil
	}
	return env.Errors
}

// orderPath is the path of an order's resource, or ErrBadCode for a code
// that would be another path (a slash, a dot segment, a query).
func orderPath(code string, rest string) (string, error) {
	if code == "" || code == "." || code == ".." || len(code) > 64 || !utf8.ValidString(code) ||
		strings.ContainsFunc(code, func(r rune) bool {
			return r == '/' || r == '\\' || r == '?' || r == '#' || r == '%' || !unicode.IsPrint(r) || unicode.IsSpace(r)
		}) {
		return "", ErrBadCode
	}
	return "/api/orders/" + code + rest, nil
}

// Eshop is the shop the token opens: the check of a connection.
func (c *Client) Eshop(ctx context.Context) (*Eshop, error) {
	ans, err := c.get(ctx, "eshop", "/api/eshop", nil)
	if err != nil {
		return nil, err
	}
	return data[Eshop](ans, "eshop")
}

// Statuses are the shop's order statuses.
func (c *Client) Statuses(ctx context.Context) (*Statuses, error) {
	ans, err := c.get(ctx, "orders/statuses", "/api/orders/statuses", nil)
	if err != nil {
		return nil, err
	}
	return data[Statuses](ans, "orders/statuses")
}

// ShippingMethods are all the shop's shipping methods (one answer, no pages).
func (c *Client) ShippingMethods(ctx context.Context) ([]ShippingMethod, error) {
	ans, err := c.get(ctx, "shipping-methods", "/api/shipping-methods", nil)
	if err != nil {
		return nil, err
	}
	d, err := data[struct {
		ShippingMethods []ShippingMethod `json:"shippingMethods"`
	}](ans, "shipping-methods")
	if err != nil {
		return nil, err
	}
	return d.ShippingMethods, nil
}

// PaymentMethods are all the shop's payment methods (one answer, no pages).
func (c *Client) PaymentMethods(ctx context.Context) ([]PaymentMethod, error) {
	ans, err := c.get(ctx, "payment-methods", "/api/payment-methods", nil)
	if err != nil {
		return nil, err
	}
	d, err := data[struct {
		PaymentMethods []PaymentMethod `json:"paymentMethods"`
	}](ans, "payment-methods")
	if err != nil {
		return nil, err
	}
	return d.PaymentMethods, nil
}

// pageQuery is a page of PerPage.
func pageQuery(page int) url.Values {
	return url.Values{"page": {strconv.Itoa(max(page, 1))}, "itemsPerPage": {strconv.Itoa(PerPage)}}
}
