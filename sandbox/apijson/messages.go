package apijson

// The envelope's own messages: refusals of a request the service cannot read.
var (
	msgValidationFailed = Phrase{CS: "Kontrola údajů selhala", EN: "Validation failed"}
	msgContentType      = Phrase{CS: "Content-Type musí být application/json", EN: "Content-Type must be application/json"}
	msgOneValue         = Phrase{CS: "tělo požadavku musí obsahovat právě jednu hodnotu JSON", EN: "request body must hold exactly one JSON value"}
	msgTooLarge         = Phrase{CS: "tělo požadavku je větší než %d bajtů", EN: "request body is larger than %d bytes"}
	msgEmpty            = Phrase{CS: "tělo požadavku je prázdné; je třeba objekt JSON", EN: "request body is empty; a JSON object is required"}
	msgMalformedAt      = Phrase{CS: "chybný JSON na bajtu %d", EN: "malformed JSON at byte %d"}
	msgEndsEarly        = Phrase{CS: "chybný JSON: tělo končí předčasně", EN: "malformed JSON: the body ends too early"}
	msgWrongType        = Phrase{CS: "musí být %s, ne %s", EN: "must be %s, not %s"}
	msgMalformed        = Phrase{CS: "chybné tělo požadavku: %s", EN: "malformed request body: %s"}
	msgNoOperation      = Phrase{CS: "Na adrese %s není žádná operace", EN: "No operation at %s"}
	msgNoMethod         = Phrase{CS: "Metoda %s není na adrese %s povolena (povolené: %s)", EN: "Method %s is not allowed at %s (allowed: %s)"}

	kindNumber = Phrase{CS: "číslo", EN: "a number"}
	kindBool   = Phrase{CS: "true nebo false", EN: "true or false"}
	kindList   = Phrase{CS: "seznam", EN: "a list"}
	kindObject = Phrase{CS: "objekt", EN: "an object"}
	kindString = Phrase{CS: "řetězec", EN: "a string"}
)
