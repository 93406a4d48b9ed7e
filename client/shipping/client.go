// Package shipping is the typed client of the shipping API v1. Reads are retried
// with backoff; shipments/create and storno never are: their callers decide,
// because repeating them could order or cancel twice.
package shipping

import (
	"cmp"
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"

	"shipdesk/client/transport"
)

// Client calls the shipping API v1 of one account.
type Client struct {
	t *transport.Client
}

// New returns a client; cfg.BaseURL is the service root (…/api/v1 is appended).
func New(cfg transport.Config) (*Client, error) {
	if cfg.Interface == "" {
		cfg.Interface = "shipping"
	}
	t, err := transport.New(cfg)
	if err != nil {
		return nil, err
	}
	return &Client{t: t}, nil
}

// BaseURL is the root in use.
func (c *Client) BaseURL() string { return c.t.BaseURL() }

const prefix = "/api/v1/"

func (c *Client) post(ctx context.Context, op string, body any, idempotent bool, query url.Values) (*transport.Answer, error) {
	return c.t.Do(ctx, transport.Call{Op: op, Method: http.MethodPost, Path: prefix + op, JSON: body, Query: query, Idempotent: idempotent})
}

func (c *Client) get(ctx context.Context, op string, query url.Values) (*transport.Answer, error) {
	return c.t.Do(ctx, transport.Call{Op: op, Method: http.MethodGet, Path: prefix + op, Query: query, Idempotent: true})
}

// Rates asks for the offers for one shipment. The offers are a top-level
// "rates" list (public-evidence.md); an answer that puts them in data is read too.
func (c *Client) Rates(ctx context.Context, req RateRequest) ([]Rate, error) {
	ans, err := c.post(ctx, "rates/get", req, true, nil)
	if err != nil {
		return nil, err
	}
	var rates []Rate
	if err := ans.Field("rates/get", "rates", &rates); err != nil {
		if ans.Data("rates/get", &rates) != nil {
			return nil, err
		}
	}
	return rates, nil
}

// Create orders the shipments. Never retried: on an error for which
// transport.IsOutcomeUnknown holds, reconcile with List by reference first.
// Created shipments that the service names only by tracking number are
// followed by one shipments/detail call for their label mode and status; if
// that read fails, the order still stands and the shipments carry only their
// numbers (the label poller fills in the rest).
func (c *Client) Create(ctx context.Context, o Order) (*Created, error) {
	ans, err := c.post(ctx, "shipments/create", o, false, nil)
	if err != nil {
		return nil, err
	}
	var reply createdReply
	if err := ans.Data("shipments/create", &reply); err != nil {
		return nil, err
	}
	out := &Created{OrderToken: reply.Order.Token, OrderNumber: cmp.Or(reply.OrderNumber, reply.Order.Number)}
	var onlyNumbers []string
	for _, s := range reply.Shipments {
		out.Shipments = append(out.Shipments, s.ShipmentInfo)
		if s.onlyNumber {
			onlyNumbers = append(onlyNumbers, s.TrackingNumber)
		}
	}
	if len(out.Shipments) != len(o.Shipments) {
		return out, &transport.Error{Op: "shipments/create", Kind: transport.KindDecode, Status: ans.Status,
			Message: fmt.Sprintf("asked for %d shipments, the answer lists %d", len(o.Shipments), len(out.Shipments))}
	}
	if len(onlyNumbers) > 0 {
		req := DetailRequest{Shipments: onlyNumbers}
		if out.OrderToken != "" {
			req.Tokens = []string{out.OrderToken}
		}
		if details, err := c.Detail(ctx, req, false); err == nil {
			for i, s := range out.Shipments {
				if d, ok := details[s.TrackingNumber]; ok {
					out.Shipments[i] = d
				}
			}
		}
	}
	return out, nil
}

// Validate checks an order without creating it; nil means the service accepts it.
// It changes nothing upstream, so it is retried like a read.
func (c *Client) Validate(ctx context.Context, o Order) error {
	_, err := c.post(ctx, "shipments/validate", o, true, nil)
	return err
}

// DetailRequest names shipments and, optionally, order tokens that unlock
// owner-only fields for a non-owner.
type DetailRequest struct {
	Shipments []string `json:"shipments"`
	Tokens    []string `json:"tokens,omitempty"`
}

// Detail returns shipments keyed by tracking number; withTracking adds their
// tracking information.
func (c *Client) Detail(ctx context.Context, req DetailRequest, withTracking bool) (map[string]ShipmentInfo, error) {
	var q url.Values
	if withTracking {
		q = url.Values{"tracking": {"1"}}
	}
	ans, err := c.post(ctx, "shipments/detail", req, true, q)
	if err != nil {
		return nil, err
	}
	list, err := dataCollection(ans, "shipments/detail", func(s *ShipmentInfo, key string) { s.TrackingNumber = cmp.Or(s.TrackingNumber, key) })
	if err != nil {
		return nil, err
	}
	out := make(map[string]ShipmentInfo, len(list))
	for _, s := range list {
		out[s.TrackingNumber] = s
	}
	return out, nil
}

// Tracking returns the tracking of up to one batch of shipments, keyed by
// tracking number; unknown numbers are absent. Use TrackAll for any number.
func (c *Client) Tracking(ctx context.Context, numbers []string) (map[string]Tracking, error) {
	ans, err := c.post(ctx, "shipments/tracking", map[string]any{"shipments": numbers}, true, nil)
	if err != nil {
		return nil, err
	}
	out := map[string]Tracking{}
	return out, ans.Data("shipments/tracking", &out)
}

// Label returns one PDF with the labels of the shipments.
func (c *Client) Label(ctx context.Context, numbers []string) ([]byte, error) {
	return c.pdf(ctx, "shipments/label", numbers, true)
}

// Manifest returns the hand-over protocol of the shipments as a PDF.
func (c *Client) Manifest(ctx context.Context, numbers []string) ([]byte, error) {
	return c.pdf(ctx, "shipments/manifest", numbers, true)
}

func (c *Client) pdf(ctx context.Context, op string, numbers []string, idempotent bool) ([]byte, error) {
	ans, err := c.post(ctx, op, map[string]any{"shipments": numbers}, idempotent, nil)
	if err != nil {
		return nil, err
	}
	var b64 string
	if err := ans.Data(op, &b64); err != nil {
		return nil, err
	}
	pdf, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(pdf) < 5 || string(pdf[:5]) != "%PDF-" {
		return nil, &transport.Error{Op: op, Kind: transport.KindDecode, Status: ans.Status, Message: "data is not a base64 PDF", Err: err}
	}
	return pdf, nil
}

// Storno cancels shipments. Not retried automatically.
func (c *Client) Storno(ctx context.Context, numbers []string) error {
	_, err := c.post(ctx, "shipments/storno", map[string]any{"shipments": numbers}, false, nil)
	return err
}

// PointQuery filters parcelpoints/list. Zero fields are not sent.
type PointQuery struct {
	Carrier string
	Country string
	City    string
	Zip     string
	Text    string
	Page    int
	PerPage int
}

// PointPage is one page of parcel points. Without Page and PerPage the service
// answers every matching point at once and Pages is 1.
type PointPage struct {
	Points  []ParcelPoint
	Page    int `json:"page"`
	PerPage int `json:"per_page"`
	Total   int `json:"total"`
	Pages   int `json:"pages"`
}

// ParcelPoints returns pickup and delivery points in id order: one page when
// q names one, else every matching point.
func (c *Client) ParcelPoints(ctx context.Context, q PointQuery) (*PointPage, error) {
	v := url.Values{}
	for k, s := range map[string]string{"carrier": q.Carrier, "country": q.Country, "city": q.City, "zip": q.Zip, "q": q.Text} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if q.Page > 0 {
		v.Set("page", strconv.Itoa(q.Page))
	}
	if q.PerPage > 0 {
		v.Set("per_page", strconv.Itoa(q.PerPage))
	}
	ans, err := c.get(ctx, "parcelpoints/list", v)
	if err != nil {
		return nil, err
	}
	points, err := dataCollection(ans, "parcelpoints/list", func(p *ParcelPoint, key string) { p.ID, _ = strconv.ParseInt(key, 10, 64) })
	if err != nil {
		return nil, err
	}
	page := &PointPage{}
	if ans.Field("parcelpoints/list", "paging", page) != nil {
		// No paging in the answer: it holds every matching point.
		page = &PointPage{Page: 1, PerPage: len(points), Total: len(points), Pages: 1}
	}
	page.Points = points
	sort.Slice(page.Points, func(i, j int) bool { return page.Points[i].ID < page.Points[j].ID })
	return page, nil
}
