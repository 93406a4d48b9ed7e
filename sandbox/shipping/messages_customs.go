package shipping

import "shipdesk/sandbox/apijson"

// The messages of customs data (customs.go) in Czech and English; the
// postal-code shapes of the countries are in the country table (countries.go).
var (
	msgCustomsRequired      = apijson.Phrase{CS: "Zásilka do země %s, mimo celní území EU, musí mít celní údaje: důvod vývozu a položky", EN: "Customs data are required for a shipment to %s, outside the EU customs territory: a reason and the items"}
	msgCustomsReason        = apijson.Phrase{CS: "Důvod vývozu musí být jeden z: %s", EN: "The reason for export must be one of %s"}
	msgCustomsItemsRequired = apijson.Phrase{CS: "Je potřeba alespoň jedna položka: co balíky obsahují", EN: "At least one item is required: what the packages hold"}
	msgCustomsItemsMax      = apijson.Phrase{CS: "Nejvýše %d položek", EN: "At most %d items"}
	msgCustomsDescRequired  = apijson.Phrase{CS: "Chybí popis obsahu", EN: "The description of the contents is required"}
	msgCustomsDescLong      = apijson.Phrase{CS: "Popis může mít nejvýše 200 znaků", EN: "The description can have at most 200 characters"}
	msgCustomsHSRequired    = apijson.Phrase{CS: "Chybí celní sazební kód HS (6 až 10 číslic)", EN: "The HS tariff code is required (6 to 10 digits)"}
	msgCustomsHSShape       = apijson.Phrase{CS: "Celní sazební kód HS musí mít 6 až 10 číslic, např. 6109 10", EN: "The HS tariff code must have 6 to 10 digits, e.g. 6109 10"}
	msgCustomsOrigin        = apijson.Phrase{CS: "Země původu musí být dvoupísmenný kód, např. CZ", EN: "The country of origin must be a two-letter code, e.g. CZ"}
	msgCustomsQuantity      = apijson.Phrase{CS: "Množství musí být celé číslo od 1 do 100000", EN: "The quantity must be a whole number from 1 to 100000"}
	msgCustomsValueRequired = apijson.Phrase{CS: "Chybí hodnota {value, currency}", EN: "The value {value, currency} is required"}
	msgCustomsCurrency      = apijson.Phrase{CS: "Měna musí být třípísmenný kód, např. CZK", EN: "The currency must be a three-letter code, e.g. CZK"}
	msgCustomsValuePositive = apijson.Phrase{CS: "Hodnota musí být větší než nula", EN: "The value must be more than zero"}
	msgCustomsWeight        = apijson.Phrase{CS: "Hmotnost musí být kladné číslo v kilogramech, nejvýše 1000", EN: "The weight must be a positive number of kilograms, at most 1000"}
	msgCustomsOverweight    = apijson.Phrase{CS: "Položky váží %g kg, více než balíky (%g kg)", EN: "The items weigh %g kg, more than the packages (%g kg)"}
)
