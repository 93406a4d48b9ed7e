package claims

import (
	"errors"
	"maps"
	"slices"

	"shipdesk/apperr"
)

// stepError is a claim's step that failed, named for the agents' queue:
// "commission", "parcel", "handover" or "arrival".
type stepError struct {
	step string
	err  error
}

func (e stepError) Error() string { return e.step + ": " + e.err.Error() }
func (e stepError) Unwrap() error { return e.err }

// problemOf says what stopped a claim, in the words an agent reads in the
// queue: the step, then what the desk or the service said of it, field by
// field (never "see the marked fields": nobody sees that form). refused
// says a retry alone will not fix it (the input or the setup was refused,
// or something is missing), unlike a service that did not answer.
func problemOf(err error) (problem apperr.Text, refused bool) {
	step := "claim.err.step.other"
	var se stepError
	if errors.As(err, &se) {
		step = "claim.err.step." + se.step
	}
	parts := []apperr.Text{apperr.Msg(step)}
	if fields := apperr.ProblemsOf(err); len(fields) > 0 {
		for _, f := range slices.Sorted(maps.Keys(fields)) {
			parts = append(parts, fields[f])
		}
	} else if said := apperr.TextOf(err); !said.IsZero() {
		parts = append(parts, said)
	} else {
		parts = append(parts, apperr.Msg("claim.err.step_failed"))
	}
	switch apperr.CodeOf(err) {
	case apperr.Invalid, apperr.NotFound, apperr.Unauthorized, apperr.Forbidden:
		refused = true
	}
	return apperr.Join(parts...), refused
}
