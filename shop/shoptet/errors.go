package shoptet

import (
	"errors"
	"net/http"
	"unicode/utf8"

	"shipdesk/apperr"
	api "shipdesk/client/shoptet"
	"shipdesk/client/transport"
	"shipdesk/textin"
)

// fail maps a failed call to the shop onto apperr, once for every call:
// what retrying may fix is Unavailable, a refused token Unauthorized, the
// rest Invalid or NotFound. A person reads the shop's own message (cleaned,
// without Shoptet's errorCode); the whole error stays in Err for the log.
func fail(err error) error {
	if err == nil {
		return nil
	}
	with := func(code apperr.Code, key string, args ...any) error {
		return &apperr.Error{Code: code, Message: apperr.Msg(key, args...), Err: err}
	}
	switch {
	case errors.Is(err, api.ErrBadCode):
		return with(apperr.Invalid, "shoptet.err.bad_code")
	case errors.Is(err, api.ErrTrackingTooLong):
		return with(apperr.Invalid, "shoptet.err.tracking_too_long", api.MaxTrackingNumber)
	}
	var te *transport.Error
	if !errors.As(err, &te) {
		return &apperr.Error{Code: apperr.Internal, Message: apperr.Msg("shoptet.err.unreadable"), Err: err}
	}
	switch {
	case te.Kind == transport.KindTransport:
		return with(apperr.Unavailable, "shoptet.err.no_answer")
	case te.Kind == transport.KindDecode:
		return with(apperr.Invalid, "shoptet.err.unreadable")
	case te.Status == http.StatusTooManyRequests || te.Status == http.StatusLocked:
		return with(apperr.Unavailable, "shoptet.err.busy")
	case te.Status >= 500:
		return with(apperr.Unavailable, "shoptet.err.down", te.Status)
	case te.Status == http.StatusUnauthorized:
		return with(apperr.Unauthorized, "shoptet.err.token")
	case te.Status == http.StatusForbidden:
		return with(apperr.Unauthorized, "shoptet.err.rights")
	case te.Status == http.StatusNotFound:
		return &apperr.Error{Code: apperr.NotFound, Message: apperr.Msg("shoptet.err.not_found", said(te)), Err: err}
	}
	return &apperr.Error{Code: apperr.Invalid, Message: apperr.Msg("shoptet.err.refused", said(te)), Err: err}
}

// said is what the shop said, as a person may read it: its first message,
// cleaned and cut short; its status when it said nothing.
func said(te *transport.Error) apperr.Text {
	msg := ""
	if len(te.Fields) > 0 {
		msg = te.Fields[0].Message
	}
	msg = textin.ServiceText(msg)
	if utf8.RuneCountInString(msg) > 300 {
		msg = string([]rune(msg)[:300]) + "…"
	}
	if msg == "" {
		return apperr.Msg("svc.status", te.Status)
	}
	return apperr.Literal(msg)
}

// moving is the walk over the changes given up: the shop's orders changed
// faster than their pages could be read; the next sync reads them.
func moving() error {
	return apperr.New(apperr.Unavailable, "shoptet.err.moving")
}
