package desk

import (
	"shipdesk/client/shipping"
	"shipdesk/storage"
)

// Step is what the clerk does next with a shipment. The shipment page shows
// one box for it; this is the only place that decides which.
type Step string

// The steps, from ordering to the end of the shipment's life.
const (
	StepWaitOrder  Step = "wait_order"  // the order is on its way to the service
	StepCheckOrder Step = "check_order" // the service's answer was lost: it is being checked
	StepOrderAgain Step = "order_again" // proved not created: order it again
	StepWaitLabel  Step = "wait_label"  // the label comes once the carrier has the data
	StepPrint      Step = "print"       // the label is ready and not printed yet
	StepHandOver   Step = "hand_over"   // printed: hand the package over (a reprint stays possible)
	StepShowCode   Step = "show_code"   // label-free: the package goes with its code
	StepCarrier    Step = "carrier"     // the courier brings the label: have the package ready
	StepLabelFail  Step = "label_failed"
	StepFollow     Step = "follow"    // the carrier has it (and its label was printed, or it needs none): follow the tracking
	StepDelivered  Step = "delivered" // nothing to do
	StepReturned   Step = "returned"  // came back to the sender: nothing to print
	StepCancelled  Step = "cancelled" // nothing to do
)

// Done says the shipment needs nothing more from the clerk.
func (s Step) Done() bool {
	return s == StepDelivered || s == StepReturned || s == StepCancelled
}

// OffersLabel says the page offers the label to print (first time or again).
func (s Step) OffersLabel() bool { return s == StepPrint || s == StepHandOver }

// HandedOver says the carrier has the shipment: it is on its way or arrived.
func HandedOver(status string) bool {
	switch status {
	case shipping.StatusInTransit, shipping.StatusOnDelivery, shipping.StatusDelivered:
		return true
	}
	return false
}

// unprinted says the shipment has a label ready that was never printed here.
func unprinted(s storage.Shipment) bool {
	return s.LabelStatus == shipping.LabelReady && s.PrintedAt == nil &&
		s.LabelMode != shipping.LabelCode && s.LabelMode != shipping.LabelCarrier
}

// PrintLate says the carrier reports the parcel on its way though its label
// was never printed here: the label is still offered (on the shipment's page
// and in the print queue), with a note that the carrier has the parcel.
func PrintLate(s storage.Shipment) bool {
	return NextStep(s) == StepPrint && HandedOver(s.Status)
}

// NextStep decides the clerk's next step from the shipment's own state, the
// service's status, the label's mode and status, and whether it was printed.
// A delivered, returned or cancelled shipment is never offered a label; a
// label ready and never printed is offered until then, even once the carrier
// reports the parcel on its way (nothing is lost in the window between the
// label's arrival and the courier's pickup).
func NextStep(s storage.Shipment) Step {
	switch s.State {
	case storage.StateOrdering:
		return StepWaitOrder
	case storage.StateUnknown:
		return StepCheckOrder
	case storage.StateMissing:
		return StepOrderAgain
	}
	switch {
	case Cancelled(s):
		return StepCancelled
	case s.Returned:
		return StepReturned
	case s.Status == shipping.StatusDelivered:
		return StepDelivered
	case unprinted(s):
		return StepPrint
	case HandedOver(s.Status):
		return StepFollow
	case s.LabelMode == shipping.LabelCarrier:
		return StepCarrier
	case s.LabelStatus == shipping.LabelFailed:
		return StepLabelFail
	case s.LabelStatus != shipping.LabelReady:
		return StepWaitLabel
	case s.LabelMode == shipping.LabelCode:
		return StepShowCode
	case s.PrintedAt != nil:
		return StepHandOver
	}
	return StepPrint
}
