package handlers

import (
	"context"
	"errors"
	"io"
	"net/http"

	"shipdesk/apperr"
	"shipdesk/i18n"
)

// ShopHooks take the connected shop's webhooks (shoptet.Hooks): a post is
// taken only when its signature checks, and then only says which order to
// read again.
type ShopHooks interface {
	Notified(ctx context.Context, body []byte, signature string) error
}

// maxHookBody is far beyond a notification's hundred bytes.
const maxHookBody = 16 << 10

// ShopHook is POST /hooks/shoptet: the signature of the raw body checked
// (401 when it does not), the order read, and a quick 204.
func (h *Handlers) ShopHook(w http.ResponseWriter, r *http.Request) {
	if h.ShopHooks == nil {
		h.ErrorStatus(w, r, http.StatusNotFound, "")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxHookBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			h.ErrorStatus(w, r, http.StatusRequestEntityTooLarge, i18n.T(r.Context(), "shop.hook.too_big"))
			return
		}
		h.ErrorStatus(w, r, http.StatusBadRequest, "")
		return
	}
	if err := h.ShopHooks.Notified(r.Context(), body, r.Header.Get("Shoptet-Webhook-Signature")); err != nil {
		if apperr.Is(err, apperr.Unauthorized) {
			h.ErrorStatus(w, r, http.StatusUnauthorized, apperr.MessageOf(r.Context(), err, ""))
			return
		}
		h.Fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
