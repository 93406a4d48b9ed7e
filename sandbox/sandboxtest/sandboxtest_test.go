package sandboxtest

import "testing"

// The carrier test helpers order with is the sandbox's express carrier: it
// prints its labels for a one-off pickup from an address.
func TestExpressCarrierIsTheSandboxs(t *testing.T) {
	e := Start(t)
	for _, c := range e.Sandbox.Shipping.Carriers() {
		if c.Code == ExpressCarrier {
			if c.Group != "G3" {
				t.Errorf("%s plays %s, not the express group G3", c.Code, c.Group)
			}
			return
		}
	}
	t.Errorf("the sandbox has no carrier %s", ExpressCarrier)
}
