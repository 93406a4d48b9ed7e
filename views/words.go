package views

import (
	"context"

	"shipdesk/i18n"
)

// The words of a shipment's codes: one function for each kind of code, each
// over one catalog family. A code the catalog does not know (one the service
// added later) reads as an unknown state, never as the code itself.

// ParcelState is a parcel's state at the service in words (the catalog's
// ship.status family): the state line, the lists, the timeline's badges, the
// reports, the exports and the customers' tracking page all say a state
// with it, so one state reads the same everywhere.
func ParcelState(ctx context.Context, status string) string {
	return wordOf(ctx, "ship.status.", status, "ship.status.UNKNOWN")
}

// ShipmentStateWords is a shipment's current state in words: our order's
// own state until the service has it, then the parcel's state there.
func ShipmentStateWords(ctx context.Context, state, status string) string {
	switch state {
	case "created":
		return ParcelState(ctx, status)
	case "ordering":
		return T(ctx, "ship.state.ordering")
	case "unknown":
		return T(ctx, Uncertain)
	case "missing":
		return T(ctx, "ship.state.missing")
	}
	return T(ctx, "ship.status.UNKNOWN")
}

// LabelState is the state of a shipment's label in words, or of its
// hand-over code when the shipment goes without a label (codeOnly): the
// catalog's ship.label and ship.code families. NOT_APPLICABLE (the courier
// brings the label) has words of its own.
func LabelState(ctx context.Context, status string, codeOnly bool) string {
	if codeOnly {
		return wordOf(ctx, "ship.code.", status, "ship.code.UNKNOWN")
	}
	return wordOf(ctx, "ship.label.", status, "ship.label.UNKNOWN")
}

// LabelModeText is how the label comes, in the clerk's words (the catalog's
// ship.mode family).
func LabelModeText(ctx context.Context, mode string) string {
	return wordOf(ctx, "ship.mode.", mode, "ship.mode.UNKNOWN")
}

// wordOf is the catalog's text of code in the family prefix, or the text of
// unknown when the family has none for it; no code reads as nothing.
func wordOf(ctx context.Context, prefix, code, unknown string) string {
	switch {
	case code == "":
		return ""
	case i18n.Has(prefix + code):
		return T(ctx, prefix+code)
	}
	return T(ctx, unknown)
}
