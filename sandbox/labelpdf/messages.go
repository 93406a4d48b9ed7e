package labelpdf

import "shipdesk/sandbox/apijson"

// The documents' words in Czech and English: a page is drawn in its Lang
// (Czech unless the client asked for English).
var (
	wFrom          = apijson.Phrase{CS: "Odesílatel", EN: "From"}
	wTo            = apijson.Phrase{CS: "Příjemce", EN: "To"}
	wDeliveryPoint = apijson.Phrase{CS: "Výdejní místo: %s", EN: "Delivery point: %s"}
	wHandedOverAt  = apijson.Phrase{CS: "Podáno na: %s", EN: "Handed over at: %s"}
	wReference     = apijson.Phrase{CS: "Reference: %s", EN: "Reference: %s"}
	wInsured       = apijson.Phrase{CS: "Pojistná částka: %.2f %s", EN: "Insured value: %.2f %s"}
	wCOD           = apijson.Phrase{CS: "DOBÍRKA %.2f %s", EN: "COD %.2f %s"}
	wPackageOf     = apijson.Phrase{CS: "Balík %d z %d, %.2f kg, %s", EN: "Package %d of %d, %.2f kg, %s"}
	wLabelFree     = apijson.Phrase{CS: "%s: zásilka bez štítku", EN: "%s: label-free shipment"}
	wLabelFreeHow  = apijson.Phrase{CS: "Jen pro informaci: štítek není potřeba. Napište na balík jméno příjemce a kód níže a podejte ho na výdejním místě.", EN: "For information only: no label is needed. Write the recipient's name and the code below on the package and hand it over at the pickup point."}
	wCode          = apijson.Phrase{CS: "Kód", EN: "Code"}
	wRecipient     = apijson.Phrase{CS: "Příjemce", EN: "Recipient"}
	wPickupPoint   = apijson.Phrase{CS: "Místo podání: %s", EN: "Pickup point: %s"}
	wShipmentPkg   = apijson.Phrase{CS: "Zásilka %s, balík %s", EN: "Shipment %s, package %s"}
	wProtocol      = apijson.Phrase{CS: "Předávací protokol", EN: "Hand-over protocol"}
	wDate          = apijson.Phrase{CS: "Datum: %s", EN: "Date: %s"}
	wPage          = apijson.Phrase{CS: "Strana %d", EN: "Page %d"}
	wTotal         = apijson.Phrase{CS: "Celkem: zásilek %d, balíků %d, %.2f kg", EN: "Total: %d shipments, %d packages, %.2f kg"}
	wHandedOverBy  = apijson.Phrase{CS: "Předal (odesílatel)", EN: "Handed over by (sender)"}
	wTakenOverBy   = apijson.Phrase{CS: "Převzal (kurýr)", EN: "Taken over by (courier)"}
	colTracking    = apijson.Phrase{CS: "Číslo zásilky", EN: "Tracking number"}
	colCarrier     = apijson.Phrase{CS: "Dopravce", EN: "Carrier"}
	colRecipient   = apijson.Phrase{CS: "Příjemce", EN: "Recipient"}
	colPackages    = apijson.Phrase{CS: "Bal.", EN: "Pkgs"}
	colCOD         = apijson.Phrase{CS: "Dobírka", EN: "COD"}
	colReference   = apijson.Phrase{CS: "Reference", EN: "Reference"}
)
