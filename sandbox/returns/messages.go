package returns

import "shipdesk/sandbox/apijson"

// The service's messages in Czech and English, said in the language a
// request asks for (apijson.LangOf). A new message is one line here.
var (
	msgTypeOneOf          = apijson.Phrase{CS: "Typ musí být jeden z: %s", EN: "The type must be one of %s"}
	msgCustomerRequired   = apijson.Phrase{CS: "Chybí zákazník", EN: "The customer is required"}
	msgCustomerName       = apijson.Phrase{CS: "Chybí jméno zákazníka (nejvýše 200 znaků)", EN: "The customer's name is required (at most 200 characters)"}
	msgCustomerEmail      = apijson.Phrase{CS: "Je potřeba platná e-mailová adresa: zákazník dostává zprávy", EN: "A valid e-mail address is required: the customer receives the messages"}
	msgCustomerStreet     = apijson.Phrase{CS: "Pro dopravu od zákazníka je potřeba jeho adresa", EN: "The customer's address is required for transport from the customer"}
	msgProductRequired    = apijson.Phrase{CS: "Chybí výrobek", EN: "The product is required"}
	msgTypeUnknown        = apijson.Phrase{CS: "Neznámý typ výrobku %d", EN: "Unknown product type %d"}
	msgModelUnknown       = apijson.Phrase{CS: "Neznámý model výrobku %d", EN: "Unknown product model %d"}
	msgModelType          = apijson.Phrase{CS: "Model %d není typu %d", EN: "Model %d is not of type %d"}
	msgFault              = apijson.Phrase{CS: "Popište závadu (nejvýše 5000 znaků)", EN: "Describe the fault (at most 5000 characters)"}
	msgPurchaseDate       = apijson.Phrase{CS: "Datum nákupu musí být ve tvaru RRRR-MM-DD", EN: "The purchase date must be YYYY-MM-DD"}
	msgReferenceLong      = apijson.Phrase{CS: "Reference může mít nejvýše 64 znaků", EN: "The reference can have at most 64 characters"}
	msgTokenUnknown       = apijson.Phrase{CS: "Neznámý token souboru: nejdřív nahrajte doklad o koupi (commissions/upload-file)", EN: "Unknown file token: upload the proof of purchase first (commissions/upload-file)"}
	msgTokenUsed          = apijson.Phrase{CS: "Tento soubor už je připojen k zakázce %d", EN: "This file is already attached to commission %d"}
	msgProofRequired      = apijson.Phrase{CS: "Reklamace potřebuje doklad o koupi: nejdřív ho nahrajte a uveďte jeho token", EN: "A warranty order needs a proof of purchase: upload it first and give its token"}
	msgCreated            = apijson.Phrase{CS: "Zakázka vytvořena", EN: "Commission created"}
	msgNotFound           = apijson.Phrase{CS: "Zakázka %d nebyla nalezena", EN: "Commission %d not found"}
	msgStatusUnknownOf    = apijson.Phrase{CS: "Neznámý stav %q: použijte jeden z: %s", EN: "Unknown status %q: use one of %s"}
	msgCannotMove         = apijson.Phrase{CS: "Zakázka ve stavu %s nemůže přejít do stavu %s", EN: "A commission in state %s cannot move to %s"}
	msgOutgoingShipment   = apijson.Phrase{CS: "Přechod do stavu outgoing objednává zásilku zákazníkovi: nastavte shipment_to_customer na true", EN: "Moving to outgoing orders the shipment to the customer: set shipment_to_customer to true"}
	msgOutgoingTogether   = apijson.Phrase{CS: "Zásilka zákazníkovi se objednává spolu se stavem outgoing", EN: "The outgoing shipment is ordered together with status outgoing"}
	msgEmailInvalid       = apijson.Phrase{CS: "E-mailová adresa není platná", EN: "The e-mail address is not valid"}
	msgNoteLong           = apijson.Phrase{CS: "Poznámka může mít nejvýše 1000 znaků", EN: "The note can have at most 1000 characters"}
	msgUpdated            = apijson.Phrase{CS: "Zakázka upravena", EN: "Commission updated"}
	msgIDWhole            = apijson.Phrase{CS: "Id musí být celé číslo", EN: "The id must be a whole number"}
	msgFound              = apijson.Phrase{CS: "Zakázka nalezena", EN: "Commission found"}
	msgStatusUnknown      = apijson.Phrase{CS: "Neznámý stav %q", EN: "Unknown status %q"}
	msgKindUnknown        = apijson.Phrase{CS: "Neznámý typ %q", EN: "Unknown type %q"}
	msgDateForm           = apijson.Phrase{CS: "Musí být datum ve tvaru RRRR-MM-DD", EN: "Must be a date in the form YYYY-MM-DD"}
	msgFoundCommissions   = apijson.Phrase{CS: "Nalezeno zakázek: %d", EN: "Found %d commissions"}
	msgActivityType       = apijson.Phrase{CS: "Typ musí být message (veřejná zpráva zákazníkovi) nebo note (interní poznámka)", EN: "The type must be message (public, sent to the customer) or note (internal)"}
	msgTextRequired       = apijson.Phrase{CS: "Chybí text (nejvýše 5000 znaků)", EN: "The text is required (at most 5000 characters)"}
	msgActivityAdded      = apijson.Phrase{CS: "Aktivita přidána", EN: "Activity added"}
	msgFoundTypes         = apijson.Phrase{CS: "Nalezeno typů výrobků: %d", EN: "Found %d product types"}
	msgFoundModels        = apijson.Phrase{CS: "Nalezeno modelů výrobků: %d", EN: "Found %d product models"}
	msgWholeNumber        = apijson.Phrase{CS: "Musí být celé číslo od 1 do %d", EN: "Must be a whole number from 1 to %d"}
	msgUnauthorized       = apijson.Phrase{CS: "Chybí klíč API (x-apikey), nebo není platný", EN: "Missing or invalid API key (x-apikey)"}
	msgMultipart          = apijson.Phrase{CS: "Pošlete soubor jako multipart/form-data v poli file", EN: "Send the file as multipart/form-data in the field file"}
	msgMalformedMultipart = apijson.Phrase{CS: "Chybné tělo multipart", EN: "Malformed multipart body"}
	msgFileTooLarge       = apijson.Phrase{CS: "Soubor je větší než %d MiB", EN: "The file is larger than %d MiB"}
	msgAtMostBytes        = apijson.Phrase{CS: "Nejvýše %d bajtů", EN: "At most %d bytes"}
	msgNoFile             = apijson.Phrase{CS: "Chybí soubor: pošlete ho v poli multipart file", EN: "No file: send it in the multipart field file"}
	msgFileEmpty          = apijson.Phrase{CS: "Soubor je prázdný", EN: "The file is empty"}
	msgFileKind           = apijson.Phrase{CS: "Přijímáme jen soubory PDF, JPEG a PNG (obsah není ani jedno z nich)", EN: "Only PDF, JPEG and PNG files are accepted (the content is none of them)"}
	msgFileName           = apijson.Phrase{CS: "Soubor je %s, ale jeho název %q tvrdí něco jiného", EN: "The file is a %s but its name %q says otherwise"}
	msgFileNameLong       = apijson.Phrase{CS: "Soubor potřebuje název o nejvýše 200 znacích", EN: "The file needs a name of at most 200 characters"}
	msgUploaded           = apijson.Phrase{CS: "Soubor nahrán", EN: "File uploaded"}
	noteGoodsAtService    = apijson.Phrase{CS: "Zboží doručeno do servisu", EN: "Goods delivered to the service"}
	noteGoodsAtCustomer   = apijson.Phrase{CS: "Zboží doručeno zákazníkovi", EN: "Goods delivered to the customer"}
	noteCreated           = apijson.Phrase{CS: "Zakázka vytvořena", EN: "Order created"}
	noteTransportFrom     = apijson.Phrase{CS: "Objednána doprava od zákazníka", EN: "Transport from the customer ordered"}
	noteOutgoing          = apijson.Phrase{CS: "Objednána zásilka zákazníkovi", EN: "Outgoing shipment to the customer ordered"}
)
