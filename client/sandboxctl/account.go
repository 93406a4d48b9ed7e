package sandboxctl

import (
	"context"
	"net/http"

	"shipdesk/client/transport"
)

// Bank is the account's stored bank details: where cash on delivery sent
// without bank details is paid.
type Bank struct {
	Account  string `json:"bank_account"`
	Code     string `json:"bank_code"`
	Currency string `json:"bank_currency"`
}

// Account reads the stored bank details of the account of key (the shipping
// API key); the one control that needs the key, so the only one sent with it.
func (c *Client) Account(ctx context.Context, key string) (Bank, error) {
	cfg := c.cfg
	cfg.APIKey = key
	t, err := transport.New(cfg)
	if err != nil {
		return Bank{}, err
	}
	call := transport.Call{Op: "account", Method: http.MethodGet, Path: "/sandbox/account", Idempotent: true}
	ans, err := t.Do(ctx, call)
	if err != nil {
		return Bank{}, err
	}
	var out struct {
		Bank Bank `json:"bank"`
	}
	if err := ans.Data(call.Op, &out); err != nil {
		return Bank{}, err
	}
	return out.Bank, nil
}
