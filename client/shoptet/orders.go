package shoptet

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"

	"shipdesk/client/transport"
)

// OrderQuery filters GET /api/orders; zero fields are not sent.
type OrderQuery struct {
	StatusID     *int
	ShippingGUID string
	ChangedFrom  time.Time
	Page         int // from 1
}

// Orders is one page of the shop's orders, newest first, PerPage a page.
func (c *Client) Orders(ctx context.Context, q OrderQuery) (*OrderList, error) {
	v := pageQuery(q.Page)
	if q.StatusID != nil {
		v.Set("statusId", strconv.Itoa(*q.StatusID))
	}
	if q.ShippingGUID != "" {
		v.Set("shippingGuid", q.ShippingGUID)
	}
	if !q.ChangedFrom.IsZero() {
		v.Set("changeTimeFrom", q.ChangedFrom.Format(TimeLayout))
	}
	ans, err := c.get(ctx, "orders", "/api/orders", v)
	if err != nil {
		return nil, err
	}
	return data[OrderList](ans, "orders")
}

// Order is one order whole: with its notes (the tracking number) and the
// parcel point chosen at checkout.
func (c *Client) Order(ctx context.Context, code string) (*Order, error) {
	path, err := orderPath(code, "")
	if err != nil {
		return nil, err
	}
	ans, err := c.get(ctx, "orders/detail", path, url.Values{"include": {"notes,shippingDetails"}})
	if err != nil {
		return nil, err
	}
	d, err := data[struct {
		Order Order `json:"order"`
	}](ans, "orders/detail")
	if err != nil {
		return nil, err
	}
	return &d.Order, nil
}

// Changes is one page of the orders changed since from, oldest first,
// PerPage a page; each order is listed once, with its last change.
func (c *Client) Changes(ctx context.Context, from time.Time, page int) (*ChangeList, error) {
	v := pageQuery(page)
	v.Set("from", from.Format(TimeLayout))
	ans, err := c.get(ctx, "orders/changes", "/api/orders/changes", v)
	if err != nil {
		return nil, err
	}
	return data[ChangeList](ans, "orders/changes")
}

// SetTracking puts the tracking number into the order's notes, where the
// shop's mails and the customer's order page show it; "" clears it.
// Shoptet keeps at most MaxTrackingNumber characters and makes the
// tracking link itself, from the shipping method's tracking URL.
func (c *Client) SetTracking(ctx context.Context, code, number string) error {
	path, err := orderPath(code, "/notes")
	if err != nil {
		return err
	}
	if utf8.RuneCountInString(number) > MaxTrackingNumber {
		return ErrTrackingTooLong
	}
	var tn *string
	if number != "" {
		tn = &number
	}
	_, err = c.send(ctx, "orders/notes", http.MethodPatch, path, nil,
		map[string]any{"data": map[string]any{"trackingNumber": tn}})
	return err
}

// SetStatus moves the order to a status of the shop's; quiet asks Shoptet
// not to mail or text the customer about it. The warnings are what the
// shop could not do beside it (a document not generated): the status
// changed all the same.
func (c *Client) SetStatus(ctx context.Context, code string, statusID int, quiet bool) ([]transport.FieldError, error) {
	path, err := orderPath(code, "/status")
	if err != nil {
		return nil, err
	}
	q := url.Values{"suppressEmailSending": {strconv.FormatBool(quiet)}, "suppressSmsSending": {strconv.FormatBool(quiet)}}
	ans, err := c.send(ctx, "orders/status", http.MethodPatch, path, q,
		map[string]any{"data": map[string]any{"statusId": statusID}})
	if err != nil {
		return nil, err
	}
	if _, err := data[struct {
		Order Order `json:"order"`
	}](ans, "orders/status"); err != nil {
		return nil, err
	}
	return warnings(ans), nil
}
