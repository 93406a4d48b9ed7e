package desk

import (
	"fmt"
	"testing"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/storage"
)

// Every combination of our state, the service's status, the label's mode and
// status, printed or not, returned or not, cancelled here or not.
func TestNextStepOverEveryState(t *testing.T) {
	states := []string{storage.StateOrdering, storage.StateCreated, storage.StateUnknown, storage.StateMissing}
	statuses := []string{"", shipping.StatusCreated, shipping.StatusExported, shipping.StatusOnPickup, shipping.StatusInTransit,
		shipping.StatusOnDelivery, shipping.StatusDelivered, shipping.StatusCancelled}
	modes := []string{"", shipping.LabelPrint, shipping.LabelCarrier, shipping.LabelCode, shipping.LabelPrintOrCode}
	labels := []string{"", shipping.LabelNotApplicable, shipping.LabelPending, shipping.LabelReady, shipping.LabelFailed}
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	n := 0
	for _, state := range states {
		for _, status := range statuses {
			for _, mode := range modes {
				for _, label := range labels {
					for _, printed := range []bool{false, true} {
						for _, returned := range []bool{false, true} {
							for _, cancelledHere := range []bool{false, true} {
								s := storage.Shipment{State: state, Status: status, LabelMode: mode, LabelStatus: label, Returned: returned}
								if printed {
									s.PrintedAt = &at
								}
								if cancelledHere {
									s.CancelledAt = &at
								}
								name := fmt.Sprintf("%s/%s/%s/%s/printed=%v/returned=%v/cancelled=%v", state, status, mode, label, printed, returned, cancelledHere)
								checkStep(t, name, s, NextStep(s))
								n++
							}
						}
					}
				}
			}
		}
	}
	if n != 4*8*5*5*2*2*2 {
		t.Fatalf("checked %d combinations", n)
	}
}

// checkStep holds the rules every combination keeps.
func checkStep(t *testing.T, name string, s storage.Shipment, got Step) {
	t.Helper()
	fail := func(why string) { t.Errorf("%s: %s gives %q", name, why, got) }
	switch s.State {
	case storage.StateOrdering:
		if got != StepWaitOrder {
			fail("an order on its way")
		}
		return
	case storage.StateUnknown:
		if got != StepCheckOrder {
			fail("a lost answer")
		}
		return
	case storage.StateMissing:
		if got != StepOrderAgain {
			fail("an order not created")
		}
		return
	}
	ended := s.Status == shipping.StatusDelivered || s.Status == shipping.StatusCancelled || s.CancelledAt != nil || s.Returned
	if ended && !got.Done() {
		fail("a shipment at its end")
	}
	if ended && got.OffersLabel() {
		fail("printing offered at the end")
	}
	if got.OffersLabel() && (s.LabelStatus != shipping.LabelReady ||
		(s.LabelMode != shipping.LabelPrint && s.LabelMode != shipping.LabelPrintOrCode && s.LabelMode != "")) {
		fail("printing offered without a printable label")
	}
	if got == StepHandOver && HandedOver(s.Status) {
		fail("a hand-over asked for once the carrier has it")
	}
	// Nothing lost: a ready label never printed is offered until the end.
	never := s.LabelStatus == shipping.LabelReady && s.PrintedAt == nil &&
		(s.LabelMode == shipping.LabelPrint || s.LabelMode == shipping.LabelPrintOrCode || s.LabelMode == "")
	if never && !ended && got != StepPrint {
		fail("a label never printed not offered")
	}
	if PrintLate(s) != (got == StepPrint && HandedOver(s.Status)) {
		fail("the late-print note disagrees with the step")
	}
	if got == StepPrint && s.PrintedAt != nil {
		fail("printing asked for again")
	}
	if got == StepShowCode && (s.LabelMode != shipping.LabelCode || s.LabelStatus != shipping.LabelReady) {
		fail("a code shown without one")
	}
	if HandedOver(s.Status) && !ended && !never && got != StepFollow {
		fail("a shipment with the carrier")
	}
	switch {
	case s.CancelledAt != nil || s.Status == shipping.StatusCancelled:
		if got != StepCancelled {
			fail("cancelled")
		}
	case s.Returned:
		if got != StepReturned {
			fail("returned")
		}
	case s.Status == shipping.StatusDelivered:
		if got != StepDelivered {
			fail("delivered")
		}
	}
}

// The everyday cases by name.
func TestNextStepCases(t *testing.T) {
	at := time.Now()
	created := func(status, mode, label string) storage.Shipment {
		return storage.Shipment{State: storage.StateCreated, Status: status, LabelMode: mode, LabelStatus: label}
	}
	printed := created(shipping.StatusExported, shipping.LabelPrint, shipping.LabelReady)
	printed.PrintedAt = &at
	returned := created(shipping.StatusOnDelivery, shipping.LabelPrint, shipping.LabelReady)
	returned.Returned = true
	cancelled := created(shipping.StatusExported, shipping.LabelPrint, shipping.LabelReady)
	cancelled.CancelledAt = &at
	inTransitPrinted := created(shipping.StatusInTransit, shipping.LabelPrint, shipping.LabelReady)
	inTransitPrinted.PrintedAt = &at
	for _, c := range []struct {
		name string
		s    storage.Shipment
		want Step
	}{
		{"label coming", created(shipping.StatusCreated, shipping.LabelPrint, shipping.LabelPending), StepWaitLabel},
		{"label ready", created(shipping.StatusExported, shipping.LabelPrint, shipping.LabelReady), StepPrint},
		{"label ready, print or code", created(shipping.StatusExported, shipping.LabelPrintOrCode, shipping.LabelReady), StepPrint},
		{"courier on the way to pick up", created(shipping.StatusOnPickup, shipping.LabelPrint, shipping.LabelReady), StepPrint},
		{"printed, not handed over", printed, StepHandOver},
		{"label-free", created(shipping.StatusExported, shipping.LabelCode, shipping.LabelReady), StepShowCode},
		{"the courier brings the label", created(shipping.StatusExported, shipping.LabelCarrier, shipping.LabelNotApplicable), StepCarrier},
		{"no label", created(shipping.StatusCreated, shipping.LabelPrint, shipping.LabelFailed), StepLabelFail},
		{"in transit, never printed here: still printable", created(shipping.StatusInTransit, shipping.LabelPrint, shipping.LabelReady), StepPrint},
		{"out for delivery, never printed here", created(shipping.StatusOnDelivery, shipping.LabelPrintOrCode, shipping.LabelReady), StepPrint},
		{"in transit, printed", inTransitPrinted, StepFollow},
		{"in transit, the courier's label", created(shipping.StatusInTransit, shipping.LabelCarrier, shipping.LabelNotApplicable), StepFollow},
		{"out for delivery", created(shipping.StatusOnDelivery, shipping.LabelCode, shipping.LabelReady), StepFollow},
		{"delivered", created(shipping.StatusDelivered, shipping.LabelPrint, shipping.LabelReady), StepDelivered},
		{"returned", returned, StepReturned},
		{"cancelled here", cancelled, StepCancelled},
		{"cancelled at the service", created(shipping.StatusCancelled, shipping.LabelPrint, shipping.LabelReady), StepCancelled},
		{"being ordered", storage.Shipment{State: storage.StateOrdering}, StepWaitOrder},
		{"answer lost", storage.Shipment{State: storage.StateUnknown}, StepCheckOrder},
		{"not created", storage.Shipment{State: storage.StateMissing}, StepOrderAgain},
	} {
		if got := NextStep(c.s); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// The label itself is refused wherever the page offers none at the end.
func TestNoLabelAtTheEnd(t *testing.T) {
	for _, s := range []storage.Shipment{
		{ID: 1, State: storage.StateCreated, Status: shipping.StatusDelivered, LabelMode: shipping.LabelPrint, LabelStatus: shipping.LabelReady},
		{ID: 2, State: storage.StateCreated, Status: shipping.StatusCancelled, LabelMode: shipping.LabelPrint, LabelStatus: shipping.LabelReady},
		{ID: 3, State: storage.StateCreated, Status: shipping.StatusOnDelivery, Returned: true, LabelMode: shipping.LabelPrint, LabelStatus: shipping.LabelReady},
	} {
		if labelProblem(s) == nil {
			t.Errorf("shipment %d (%s, returned %v): a label is offered", s.ID, s.Status, s.Returned)
		}
	}
}

// A storno is offered only where the service allows one: in CREATED and
// EXPORTED (or before the service's status is known), never from ONPICKUP
// on, and never for a shipment not ordered, cancelled or returned.
func TestCanCancelOnlyWhereTheServiceAllows(t *testing.T) {
	at := time.Now()
	for _, status := range []string{"", shipping.StatusCreated, shipping.StatusExported, shipping.StatusOnPickup, shipping.StatusInTransit,
		shipping.StatusOnDelivery, shipping.StatusDelivered, shipping.StatusCancelled} {
		want := status == "" || status == shipping.StatusCreated || status == shipping.StatusExported
		s := storage.Shipment{State: storage.StateCreated, Status: status, LabelMode: shipping.LabelPrint, LabelStatus: shipping.LabelReady}
		if got := CanCancel(s); got != want {
			t.Errorf("%q: CanCancel %v, want %v", status, got, want)
		}
		if why := NotCancellable(s); (why == "") != want {
			t.Errorf("%q: NotCancellable %q disagrees with CanCancel", status, why)
		}
		printed := s
		printed.PrintedAt = &at
		if got := CanCancel(printed); got != want {
			t.Errorf("%q, printed: CanCancel %v, want %v", status, got, want)
		}
	}
	exported := storage.Shipment{State: storage.StateCreated, Status: shipping.StatusExported}
	for name, s := range map[string]storage.Shipment{
		"being ordered":    {State: storage.StateOrdering},
		"answer lost":      {State: storage.StateUnknown},
		"not created":      {State: storage.StateMissing},
		"cancelled here":   {State: storage.StateCreated, Status: shipping.StatusExported, CancelledAt: &at},
		"returned":         {State: storage.StateCreated, Status: shipping.StatusExported, Returned: true},
		"at the pickup":    {State: storage.StateCreated, Status: shipping.StatusOnPickup},
		"with the courier": {State: storage.StateCreated, Status: shipping.StatusInTransit},
	} {
		if CanCancel(s) {
			t.Errorf("%s: storno offered", name)
		}
	}
	if !CanCancel(exported) || NotCancellable(exported) != "" {
		t.Error("an exported shipment cannot be cancelled")
	}
	if why := NotCancellable(storage.Shipment{State: storage.StateCreated, Status: shipping.StatusOnPickup}); why != "with_carrier" {
		t.Errorf("at the pickup: %q", why)
	}
}
