package mailcatch

import (
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	netmail "net/mail"
	"strings"
)

// maxParts bounds how many MIME parts one mail may have (a hostile mail
// cannot make the catcher walk forever).
const maxParts = 100

// parse reads a mail's headers, its text (and HTML) and its attachments.
func parse(r io.Reader) (Caught, error) {
	msg, err := netmail.ReadMessage(r)
	if err != nil {
		return Caught{}, err
	}
	dec := new(mime.WordDecoder)
	word := func(name string) string {
		v := msg.Header.Get(name)
		if d, err := dec.DecodeHeader(v); err == nil {
			return d
		}
		return v
	}
	m := Caught{MessageID: strings.Trim(msg.Header.Get("Message-ID"), "<> "), From: word("From"), To: word("To"),
		ToHeader: msg.Header.Get("To"), ReplyTo: word("Reply-To"), Subject: word("Subject")}
	parts := 0
	err = walk(&m, msg.Header, msg.Body, &parts)
	return m, err
}

// header is what a part says of itself.
type header interface{ Get(string) string }

func walk(m *Caught, h header, body io.Reader, parts *int) error {
	if *parts++; *parts > maxParts {
		return fmt.Errorf("more than %d parts", maxParts)
	}
	ctype, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		ctype, params = "text/plain", nil
	}
	if strings.HasPrefix(ctype, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := walk(m, p.Header, p, parts); err != nil {
				return err
			}
		}
	}
	data, err := io.ReadAll(decoded(h.Get("Content-Transfer-Encoding"), body))
	if err != nil {
		return err
	}
	disp, dparams, _ := mime.ParseMediaType(h.Get("Content-Disposition"))
	name := dparams["filename"]
	if name == "" {
		name = params["name"]
	}
	if d, err := new(mime.WordDecoder).DecodeHeader(name); err == nil {
		name = d // senders write a name outside ASCII as an encoded word
	}
	switch {
	case disp == "attachment" || name != "":
		m.Attachments = append(m.Attachments, File{Name: name, ContentType: ctype, Data: data})
	case ctype == "text/html" && m.HTML == "":
		m.HTML = string(data)
	case ctype == "text/plain" && m.Text == "":
		m.Text = string(data)
	}
	return nil
}

// decoded undoes a part's transfer encoding (a multipart reader has undone
// quoted-printable already and removed the header).
func decoded(enc string, r io.Reader) io.Reader {
	switch strings.ToLower(strings.TrimSpace(enc)) {
	case "base64":
		return base64.NewDecoder(base64.StdEncoding, r) // line breaks are skipped
	case "quoted-printable":
		return quotedprintable.NewReader(r)
	}
	return r
}
