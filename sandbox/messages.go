package sandbox

import "shipdesk/sandbox/apijson"

// The controls' messages in Czech and English (apijson.LangOf).
var (
	msgSimulatedTime = apijson.Phrase{CS: "Simulovaný čas", EN: "Simulated time"}
	msgAccount       = apijson.Phrase{CS: "Účet", EN: "Account"}
	msgUnauthorized  = apijson.Phrase{CS: "Chybí klíč API (x-apikey), nebo není platný", EN: "Missing or invalid API key (x-apikey)"}
	msgMinutes       = apijson.Phrase{CS: "Je potřeba celý počet minut od 1 do %d", EN: "A whole number of minutes from 1 to %d is required"}
	msgAdvanced      = apijson.Phrase{CS: "Hodiny posunuty o %d minut", EN: "Clock advanced by %d minutes"}
	msgPaid          = apijson.Phrase{CS: "Objednávka zaplacena: její zásilky budou předány dopravci zhruba do minuty", EN: "Order paid: its shipments are exported within about a minute"}
	msgCarriers      = apijson.Phrase{CS: "Dopravců: %d", EN: "%d carriers"}
	msgBehaviour     = apijson.Phrase{CS: "Chování nastaveno pro zásilky vytvořené od teď", EN: "Behaviour set for shipments created from now on"}
	msgFaults        = apijson.Phrase{CS: "Aktivní poruchy", EN: "Active faults"}
	msgShare         = apijson.Phrase{CS: "Je potřeba podíl od 0 do 1", EN: "A share from 0 to 1 is required"}
	msgLatency       = apijson.Phrase{CS: "Od 0 do 120000 milisekund", EN: "From 0 to 120000 milliseconds"}
	msgLatencyMax    = apijson.Phrase{CS: "Od latency_ms do 120000 milisekund", EN: "From latency_ms to 120000 milliseconds"}
	msgDropRate      = apijson.Phrase{CS: "Podíly odpovědí 503 a přerušení dávají dohromady nejvýše 1", EN: "The shares of 503s and drops add up to at most 1"}
	msgCount         = apijson.Phrase{CS: "Nula (dokud se nezruší) nebo víc", EN: "Zero (until cleared) or more"}
	msgPath          = apijson.Phrase{CS: "Začátek cesty začínající /, např. /api/v1/shipments/create", EN: "A path prefix starting with /, e.g. /api/v1/shipments/create"}
	msgFaultSet      = apijson.Phrase{CS: "Porucha nastavena", EN: "Fault set"}
	msgFaultsCleared = apijson.Phrase{CS: "Poruchy zrušeny", EN: "Faults cleared"}
	msgWiped         = apijson.Phrase{CS: "Všechna data smazána", EN: "All data wiped"}
	msgUnavailable   = apijson.Phrase{CS: "Služba je dočasně nedostupná (nastavená porucha)", EN: "Service temporarily unavailable (injected fault)"}
)
