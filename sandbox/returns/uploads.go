package returns

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"path/filepath"
	"slices"
	"strings"

	"shipdesk/sandbox/apijson"
)

type upload struct {
	Token       string `json:"token"`
	Account     int    `json:"account"`
	Name        string `json:"filename"`
	ContentType string `json:"content_type"`
	Size        int64  `json:"size"`
	Uploaded    string `json:"uploaded"`
	UsedBy      int64  `json:"used_by,omitempty"` // commission that took it; a token serves once
}

type fileRef struct {
	Token       string `json:"token"`
	Name        string `json:"filename"`
	ContentType string `json:"content_type"`
	Size        int64  `json:"size"`
	Uploaded    string `json:"uploaded"`
}

func (u *upload) ref() fileRef {
	return fileRef{Token: u.Token, Name: u.Name, ContentType: u.ContentType, Size: u.Size, Uploaded: u.Uploaded}
}

// kinds are the accepted files, recognised by their first bytes, never by name.
var kinds = []struct {
	magic       []byte
	contentType string
	extensions  []string
}{
	{[]byte("%PDF-"), "application/pdf", []string{".pdf"}},
	{[]byte("\x89PNG\r\n\x1a\n"), "image/png", []string{".png"}},
	{[]byte("\xff\xd8\xff"), "image/jpeg", []string{".jpg", ".jpeg"}},
}

// sniff returns the content type of an accepted file, or "".
func sniff(head []byte) (string, []string) {
	for _, k := range kinds {
		if bytes.HasPrefix(head, k.magic) {
			return k.contentType, k.extensions
		}
	}
	return "", nil
}

func (s *Service) uploadFile(w http.ResponseWriter, r *http.Request) {
	acct := s.account(r)
	if acct < 0 {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "multipart/form-data" {
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusUnsupportedMediaType, msgMultipart))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxUpload+64<<10)
	mr, err := r.MultipartReader()
	if err != nil {
		apijson.WriteProblem(w, r, apijson.Invalid(apijson.Err("file", msgMalformedMultipart)))
		return
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			s.uploadProblem(w, r, err)
			return
		}
		if part.FormName() != "file" {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, s.cfg.MaxUpload+1))
		if err != nil {
			s.uploadProblem(w, r, err)
			return
		}
		if int64(len(data)) > s.cfg.MaxUpload {
			apijson.WriteProblem(w, r, &apijson.Problem{Status: http.StatusRequestEntityTooLarge, Message: msgFileTooLarge.With(s.cfg.MaxUpload >> 20),
				Errors: []apijson.FieldError{apijson.Err("file", msgAtMostBytes, s.cfg.MaxUpload)}})
			return
		}
		s.accept(w, r, acct, filepath.Base(part.FileName()), data)
		return
	}
	apijson.WriteProblem(w, r, apijson.Invalid(apijson.Err("file", msgNoFile)))
}

func (s *Service) uploadProblem(w http.ResponseWriter, r *http.Request, err error) {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		apijson.WriteProblem(w, r, &apijson.Problem{Status: http.StatusRequestEntityTooLarge, Message: msgFileTooLarge.With(s.cfg.MaxUpload >> 20),
			Errors: []apijson.FieldError{apijson.Err("file", msgAtMostBytes, s.cfg.MaxUpload)}})
		return
	}
	apijson.WriteProblem(w, r, apijson.Invalid(apijson.Err("file", msgMalformedMultipart)))
}

func (s *Service) accept(w http.ResponseWriter, r *http.Request, acct int, name string, data []byte) {
	p := &problems{}
	ct, exts := sniff(data)
	ext := strings.ToLower(filepath.Ext(name))
	switch {
	case len(data) == 0:
		p.add("file", msgFileEmpty)
	case ct == "":
		p.add("file", msgFileKind)
	case !slices.Contains(exts, ext):
		p.add("file", msgFileName, ct, name)
	}
	if name == "" || name == "." || len(name) > 200 {
		p.add("file", msgFileNameLong)
	}
	if len(p.list) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(p.list...))
		return
	}
	s.mu.Lock()
	u := &upload{Token: token(), Account: acct, Name: name, ContentType: ct, Size: int64(len(data)), Uploaded: stamp(s.clock.Now())}
	s.uploads[u.Token] = u
	s.mu.Unlock()
	apijson.Write(w, r, http.StatusCreated, msgUploaded.With(), u.ref())
}
