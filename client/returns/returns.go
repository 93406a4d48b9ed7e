// Package returns is the typed client of the returns API v1 (service orders,
// "commissions"). Reads are retried; creating, editing, uploading and adding
// activities never are: the callers keep what they obtained (an upload token)
// and decide.
package returns

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"shipdesk/client/transport"
)

// Client calls the returns API v1 of one account.
type Client struct {
	t *transport.Client
}

// New returns a client; cfg.BaseURL is the returns base ({base}/api/v1 is appended).
func New(cfg transport.Config) (*Client, error) {
	if cfg.Interface == "" {
		cfg.Interface = "returns"
	}
	t, err := transport.New(cfg)
	if err != nil {
		return nil, err
	}
	return &Client{t: t}, nil
}

// BaseURL is the base in use.
func (c *Client) BaseURL() string { return c.t.BaseURL() }

const prefix = "/api/v1/"

// States of a commission, in the order they usually happen.
var States = []string{"new", "waiting_for_goods", "processing", "outgoing", "closed", "cancelled"}

// Types of commissions.
var Types = []string{"warranty", "paid_repair", "withdrawal"}

// Customer is the person the order is for.
type Customer struct {
	Name    string `json:"name"`
	Email   string `json:"email"`
	Phone   string `json:"phone,omitempty"`
	Street  string `json:"street,omitempty"`
	City    string `json:"city,omitempty"`
	Zip     string `json:"zip,omitempty"`
	Country string `json:"country,omitempty"`
}

// Product is the goods and its fault.
type Product struct {
	TypeID       int64  `json:"type_id"`
	ModelID      int64  `json:"model_id"`
	SerialNumber string `json:"serial_number,omitempty"`
	PurchaseDate string `json:"purchase_date,omitempty"` // YYYY-MM-DD
	Fault        string `json:"fault"`
}

// File is an uploaded proof of purchase.
type File struct {
	Token       string `json:"token"`
	Name        string `json:"filename"`
	ContentType string `json:"content_type"`
	Size        int64  `json:"size"`
	Uploaded    string `json:"uploaded"`
}

// HistoryEntry is one state change.
type HistoryEntry struct {
	Status string `json:"status"`
	At     string `json:"at"` // YYYY-MM-DD HH:MM:SS
	Note   string `json:"note,omitempty"`
}

// Activity is a public message to the customer or an internal note.
type Activity struct {
	ID      int64  `json:"id"`
	Type    string `json:"type"` // message or note
	Public  bool   `json:"public"`
	Text    string `json:"text"`
	Created string `json:"created"`
}

// Transport is a shipment from or to the customer.
type Transport struct {
	Direction      string `json:"direction"` // from_customer or to_customer
	TrackingNumber string `json:"tracking_number"`
	Ordered        string `json:"ordered"`
	Delivered      string `json:"delivered,omitempty"`
}

// Commission is a service order.
type Commission struct {
	ID                   int64          `json:"id"`
	Number               string         `json:"number"`
	Type                 string         `json:"type"`
	Status               string         `json:"status"`
	Reference            string         `json:"reference,omitempty"`
	Customer             Customer       `json:"customer"`
	Product              Product        `json:"product"`
	ShipmentFromCustomer bool           `json:"shipment_from_customer"`
	ShipmentToCustomer   bool           `json:"shipment_to_customer"`
	InvoiceFileToken     string         `json:"invoice_file_token,omitempty"`
	Files                []File         `json:"files"`
	History              []HistoryEntry `json:"history"`
	Activities           []Activity     `json:"activities"`
	Shipments            []Transport    `json:"shipments"`
	Created              string         `json:"created"`
	Updated              string         `json:"updated"`
}

// CreateRequest creates a commission; warranty orders need InvoiceFileToken.
type CreateRequest struct {
	Type                 string   `json:"type"`
	Customer             Customer `json:"customer"`
	Product              Product  `json:"product"`
	ShipmentFromCustomer bool     `json:"shipment_from_customer"`
	InvoiceFileToken     string   `json:"invoice_file_token,omitempty"`
	Reference            string   `json:"reference,omitempty"`
}

// EditRequest changes a commission; ordering the outgoing shipment is
// Status "outgoing" with ShipmentToCustomer true.
type EditRequest struct {
	ID                 int64     `json:"id"`
	Status             string    `json:"status,omitempty"`
	ShipmentToCustomer *bool     `json:"shipment_to_customer,omitempty"`
	Customer           *Customer `json:"customer,omitempty"`
	Reference          *string   `json:"reference,omitempty"`
	Note               string    `json:"note,omitempty"`
}

func (c *Client) call(ctx context.Context, op, method, path string, body any, q url.Values, idempotent bool, out any) error {
	ans, err := c.t.Do(ctx, transport.Call{Op: op, Method: method, Path: prefix + path, JSON: body, Query: q, Idempotent: idempotent})
	if err != nil {
		return err
	}
	return ans.Data(op, out)
}

// Upload sends a proof of purchase and returns its token. Keep the token: a
// failed create can reuse it.
func (c *Client) Upload(ctx context.Context, name, contentType string, data []byte) (*File, error) {
	ans, err := c.t.Do(ctx, transport.Call{Op: "commissions/upload-file", Method: http.MethodPost, Path: prefix + "commissions/upload-file",
		Form: &transport.Multipart{FileField: "file", FileName: name, ContentType: contentType, File: data}})
	if err != nil {
		return nil, err
	}
	var f File
	return &f, ans.Data("commissions/upload-file", &f)
}

// Create makes a commission.
func (c *Client) Create(ctx context.Context, r CreateRequest) (*Commission, error) {
	var out Commission
	return &out, c.call(ctx, "commissions/create", http.MethodPost, "commissions/create", r, nil, false, &out)
}

// Edit changes a commission or moves it.
func (c *Client) Edit(ctx context.Context, r EditRequest) (*Commission, error) {
	var out Commission
	return &out, c.call(ctx, "commissions/edit", http.MethodPost, "commissions/edit", r, nil, false, &out)
}

// Get reads one commission with its history and activities.
func (c *Client) Get(ctx context.Context, id int64) (*Commission, error) {
	var out Commission
	return &out, c.call(ctx, "commissions/get", http.MethodGet, "commissions/"+strconv.FormatInt(id, 10), nil, nil, true, &out)
}

// ListQuery filters the list; zero fields are not sent.
type ListQuery struct {
	Status, Type      string
	DateFrom, DateTo  string // YYYY-MM-DD
	Customer, Product string
	Page, PerPage     int
}

// ListPage is one page of commissions.
type ListPage struct {
	Commissions []Commission `json:"commissions"`
	Page        int          `json:"page"`
	PerPage     int          `json:"per_page"`
	Total       int          `json:"total"`
	Pages       int          `json:"pages"`
}

// List returns one page, newest first.
func (c *Client) List(ctx context.Context, q ListQuery) (*ListPage, error) {
	v := url.Values{}
	for k, s := range map[string]string{"status": q.Status, "type": q.Type, "date_from": q.DateFrom, "date_to": q.DateTo, "customer": q.Customer, "product": q.Product} {
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
	var out ListPage
	return &out, c.call(ctx, "commissions/list", http.MethodGet, "commissions", nil, v, true, &out)
}

// AddActivity adds a public message (public true: the customer receives it) or
// an internal note. The caller chooses explicitly; there is no default.
func (c *Client) AddActivity(ctx context.Context, commissionID int64, public bool, text string) (*Activity, error) {
	typ := "note"
	if public {
		typ = "message"
	}
	var out Activity
	return &out, c.call(ctx, "activity/create", http.MethodPost, "activity/create",
		map[string]any{"commission_id": commissionID, "type": typ, "text": text}, nil, false, &out)
}

// ProductType is a product category.
type ProductType struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// ProductModel is a model of a type.
type ProductModel struct {
	ID     int64  `json:"id"`
	TypeID int64  `json:"type_id"`
	Brand  string `json:"brand"`
	Name   string `json:"name"`
}

// ProductTypes lists the product categories (also a cheap key check).
func (c *Client) ProductTypes(ctx context.Context) ([]ProductType, error) {
	var out []ProductType
	return out, c.call(ctx, "product-type", http.MethodGet, "product-type", nil, nil, true, &out)
}

// ProductModels lists models, of one type when typeID is not 0.
func (c *Client) ProductModels(ctx context.Context, typeID int64) ([]ProductModel, error) {
	var q url.Values
	if typeID != 0 {
		q = url.Values{"type_id": {strconv.FormatInt(typeID, 10)}}
	}
	var out []ProductModel
	return out, c.call(ctx, "product-model", http.MethodGet, "product-model", nil, q, true, &out)
}
