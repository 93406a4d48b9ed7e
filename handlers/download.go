package handlers

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/upload"
)

// fileCSP is the policy of a file a person sent us, whoever opens it: a
// document of its own that runs nothing and reaches nothing, even when a
// browser shows it instead of saving it.
const fileCSP = "sandbox; default-src 'none'"

// sendUpload answers with a file a person sent us (a proof, a claim's
// photo), to the staff or to the customer: as an attachment, saved and never
// shown from the dashboard's origin, as the type its content is (never the
// type it was named or posted as) and under a name of that type
// (upload.SafeName: a file kept before names were made safe is named safely
// here).
func sendUpload(w http.ResponseWriter, up storage.Upload) {
	ctype := upload.Sniff(up.Data)
	name := upload.SafeName(up.Filename, ctype, strconv.FormatInt(up.ID, 10))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Disposition", disposition("attachment", name))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", fileCSP)
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Content-Length", strconv.Itoa(len(up.Data)))
	_, _ = w.Write(up.Data)
}

// disposition is a Content-Disposition of kind ("attachment", "inline") for
// a file named name (RFC 6266): the name in ASCII for every browser, and
// whole in filename* (RFC 5987: UTF-8, percent-encoded but attr-chars).
func disposition(kind, name string) string {
	name = textin.FileName(name)
	return fmt.Sprintf(`%s; filename="%s"; filename*=UTF-8''%s`, kind, asciiName(name), rfc5987(name))
}

// asciiName keeps what every browser reads inside the quotes of filename=.
func asciiName(name string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '_'
		}
		return r
	}, name)
}

// rfc5987 percent-encodes every byte of s but the attr-chars of RFC 5987.
func rfc5987(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
