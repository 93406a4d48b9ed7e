// Package cart is the typed client of the cart API v2: drafts of shipments that a
// person reviews and sends later in the provider's manager. Creating a draft is
// never retried automatically: a repeat would make a second draft.
package cart

import (
	"context"
	"net/http"

	"shipdesk/client/shipping"
	"shipdesk/client/transport"
)

// Client calls the cart API v2 of one account (same base URL and key as shipping).
type Client struct {
	t *transport.Client
}

// New returns a client.
func New(cfg transport.Config) (*Client, error) {
	if cfg.Interface == "" {
		cfg.Interface = "cart"
	}
	t, err := transport.New(cfg)
	if err != nil {
		return nil, err
	}
	return &Client{t: t}, nil
}

// Package is a parcel of a draft (kilograms, centimetres).
type Package struct {
	Weight float64 `json:"weight"`
	Width  float64 `json:"width,omitempty"`
	Height float64 `json:"height,omitempty"`
	Length float64 `json:"length,omitempty"`
}

// Request is a draft to create. Omitted From, Packages and ServiceID take the
// account's defaults; PickupBranch "1" the default pickup point.
type Request struct {
	From            *shipping.Address `json:"from,omitempty"`
	To              shipping.Address  `json:"to"`
	Packages        []Package         `json:"packages,omitempty"`
	ServiceID       int               `json:"serviceId,omitempty"`
	PickupBranch    string            `json:"pickupBranch,omitempty"`
	ReferenceNumber string            `json:"referenceNumber,omitempty"`
}

// Warning is something a person must complete or check in the draft.
type Warning = transport.FieldError

// Draft is a created draft.
type Draft struct {
	ID              int64            `json:"id"`
	Source          string           `json:"source"`
	ReferenceNumber string           `json:"referenceNumber"`
	Warnings        []Warning        `json:"errors"` // null: the draft is valid
	Rates           []any            `json:"rates"`  // null at creation: computed in the background
	Modified        string           `json:"modified"`
	From            shipping.Address `json:"from"`
	Packages        []Package        `json:"packages"`
	ServiceID       int              `json:"serviceId"`
	PickupBranch    string           `json:"pickupBranch"`
	Defaults        []string         `json:"defaults"` // fields the service filled from the account's defaults
}

// Create makes a draft. Nothing is dispatched.
func (c *Client) Create(ctx context.Context, r Request) (*Draft, error) {
	ans, err := c.t.Do(ctx, transport.Call{Op: "cart/create", Method: http.MethodPost, Path: "/api/v2/public/cart/create", JSON: r})
	if err != nil {
		return nil, err
	}
	var d Draft
	if err := ans.Whole("cart/create", &d); err != nil {
		return nil, err
	}
	if d.ID == 0 {
		return nil, &transport.Error{Op: "cart/create", Kind: transport.KindDecode, Status: ans.Status, Message: `expected a draft with an "id"`}
	}
	return &d, nil
}
