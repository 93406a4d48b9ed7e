package handlers

import "context"

// carrierNames are the carrier table's names by code: every page and export
// says a carrier by its name, never by the service's code for it.
type carrierNames map[string]string

// carrierNames reads the carrier table's names once for a request. A table
// that cannot be read leaves the names out: the page still shows its rows.
func (h *Handlers) carrierNames(ctx context.Context) carrierNames {
	out := carrierNames{}
	carriers, err := h.ShipReads.Carriers(ctx)
	if err != nil {
		return out
	}
	for _, c := range carriers {
		if c.Name != "" {
			out[c.Code] = c.Name
		}
	}
	return out
}

// of is a carrier's name. A carrier the table has no name for (one the
// service added since, until a manager names it) reads as the offers call it.
func (n carrierNames) of(code string) string {
	if name := n[code]; name != "" {
		return name
	}
	return code
}
