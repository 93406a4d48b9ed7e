package shipping

import (
	"fmt"
	"testing"
)

// A client that names no language reads the messages the provider's
// documentation shows, in its Czech and its English version alike: the
// created order, the offers found, the refused invoice payment.
func TestMessagesAreThoseTheProviderDocuments(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		e.api.Lang = ""
		defer func() { e.api.Lang = "en" }()
		if a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", shipmentTo("ups", "ONDEMAND"))); a.Status != 200 || a.Body["message"] != "Order was successfully created" {
			t.Errorf("shipments/create: %d %.300s", a.Status, a.Raw)
		}
		rates := pluginRates(e, "SK", "")
		offers, _ := rates.Body["rates"].([]any)
		if want := fmt.Sprintf("Found %d offers", len(offers)); rates.Status != 200 || len(offers) == 0 || rates.Body["message"] != want {
			t.Errorf("rates/get: %d %v, want %q", rates.Status, rates.Body["message"], want)
		}
		if a := e.call("POST", "/api/v1/shipments/create", key2, orderBody("INVOICE", shipmentTo("ups", "ONDEMAND"))); a.Status != 401 || a.Body["message"] != "You are not allowed to use invoice payment method" {
			t.Errorf("invoice payment refused: %d %.300s", a.Status, a.Raw)
		}
		// A client that asks for Czech reads the same answers in Czech.
		e.api.Lang = "cs"
		if a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", shipmentTo("ups", "ONDEMAND"))); a.Status != 200 || a.Body["message"] != msgOrderCreated.CS {
			t.Errorf("shipments/create in Czech: %d %.300s", a.Status, a.Raw)
		}
	})
}
