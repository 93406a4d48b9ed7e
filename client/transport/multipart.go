package transport

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/textproto"
)

// Multipart is a file upload with optional plain fields.
type Multipart struct {
	Fields      map[string]string
	FileField   string // form field of the file, e.g. "file"
	FileName    string
	ContentType string // of the file, e.g. application/pdf
	File        []byte
}

func (m *Multipart) encode() ([]byte, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range m.Fields {
		if err := w.WriteField(k, v); err != nil {
			return nil, "", err
		}
	}
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, m.FileField, m.FileName))
	h.Set("Content-Type", m.ContentType)
	part, err := w.CreatePart(h)
	if err != nil {
		return nil, "", err
	}
	if _, err := part.Write(m.File); err != nil {
		return nil, "", err
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// encode gives the body bytes once, so every retry sends the same request.
func (c Call) encode() ([]byte, string, error) {
	switch {
	case c.Form != nil:
		return c.Form.encode()
	case c.JSON != nil:
		b, err := jsonMarshal(c.JSON)
		return b, "application/json", err
	default:
		return nil, "", nil
	}
}
