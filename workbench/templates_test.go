package workbench

import "testing"

func TestReceivedIsNotOfferedWhileWaitingForTheGoods(t *testing.T) {
	if TemplateFits("received", "waiting_for_goods") {
		t.Error("\"we have received the goods\" is offered while the commission waits for them")
	}
	for _, status := range []string{"new", "processing", "outgoing", "closed"} {
		if !TemplateFits("received", status) {
			t.Errorf("\"received\" is not offered at %s", status)
		}
	}
	if !TemplateFits("repaired", "waiting_for_goods") {
		t.Error("other templates depend on the status")
	}
}
