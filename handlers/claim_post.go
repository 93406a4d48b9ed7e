package handlers

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"

	"shipdesk/apperr"
	"shipdesk/claims"
	"shipdesk/i18n"
	"shipdesk/upload"
)

// A customer's post is read only once its link or page is known (the
// handler asks first: a post to a link that opens nothing is answered
// without reading it), part by part as it arrives: its fields to a small
// budget, its files each into a spool on disk to its limit (upload.Spool).
// A post of many megabytes is never more than a buffer in memory.

// What of a post's files is read.
type readFiles int

const (
	allFiles readFiles = iota // spooled to their limits
	noFiles                   // skipped as they arrive (the point picker posts the whole form)
)

// maxClaimPost bounds a claim's post: its files and its fields.
const maxClaimPost = claims.MaxTotal + 1<<20

// maxClaimParts bounds the parts of a post: the form's fields and its files.
const maxClaimParts = 100

// claimPost is a customer's post as read.
type claimPost struct {
	proof    *upload.File
	photos   []upload.File
	problems apperr.Problems // of files refused while they were read
}

// close removes the post's spooled files.
func (p *claimPost) close() {
	if p.proof != nil {
		p.proof.Remove()
	}
	for _, f := range p.photos {
		f.Remove()
	}
}

// err is the problems of the files refused while they were read, nil when none.
func (p *claimPost) err() error {
	if len(p.problems) == 0 {
		return nil
	}
	return apperr.Fields("claim.err.see_fields", p.problems)
}

// refuseUnread answers a post the handler will not read, and closes the
// connection: the server does not read the rest of it either.
func refuseUnread(w http.ResponseWriter) { w.Header().Set("Connection", "close") }

// readClaimPost reads a customer's post of at most maxClaimPost into r.Form
// and, as files says, its files; false when it could not (answered already:
// 413 or 400 with a message). The caller closes the post.
func (h *Handlers) readClaimPost(w http.ResponseWriter, r *http.Request, files readFiles) (*claimPost, bool) {
	ctx := r.Context()
	post := &claimPost{problems: apperr.Problems{}}
	err := readParts(w, r, post, files)
	if err == nil {
		return post, true
	}
	post.close()
	refuseUnread(w)
	if errors.Is(err, errFields) {
		h.ErrorStatus(w, r, http.StatusRequestEntityTooLarge, i18n.T(ctx, "error.form_too_large"))
		return nil, false
	}
	if tooBig := (*http.MaxBytesError)(nil); errors.As(err, &tooBig) {
		h.ErrorStatus(w, r, http.StatusRequestEntityTooLarge, i18n.T(ctx, "claim.err.post_large", claims.MaxTotal>>20))
		return nil, false
	}
	h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(ctx, "claim.err.post_unreadable"))
	return nil, false
}

// errFields: the form's fields are over their budget.
var errFields = errors.New("the form's fields are over their budget")

func readParts(w http.ResponseWriter, r *http.Request, post *claimPost, files readFiles) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxClaimPost)
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "multipart/form-data" {
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		return r.ParseForm()
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return err
	}
	vals := url.Values{}
	fieldsLeft, total := int64(maxFormBytes), int64(0)
	defer func() { setForm(r, vals) }()
	for n := 0; ; n++ {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if n >= maxClaimParts {
			return errors.New("too many parts")
		}
		name := part.FormName()
		if _, params, _ := mime.ParseMediaType(part.Header.Get("Content-Disposition")); params != nil {
			if _, isFile := params["filename"]; !isFile {
				b, err := io.ReadAll(io.LimitReader(part, fieldsLeft+1))
				if err != nil {
					return err
				}
				if fieldsLeft -= int64(len(b)); fieldsLeft < 0 {
					return errFields
				}
				vals.Add(name, string(b))
				continue
			}
		}
		if files == noFiles || (name != "proof" && name != "photos") {
			continue // skipped by the next part
		}
		f, err := spoolPart(part, post, name, total)
		if err != nil {
			return err
		}
		total += f
	}
}

// spoolPart spools one posted file of field name, unless the post has its
// files already (a second proof, a photo over MaxPhotos, or the files over
// MaxTotal: the form's problem, and not read). It returns the bytes spooled.
func spoolPart(part *multipart.Part, post *claimPost, name string, total int64) (int64, error) {
	fileName := part.FileName()
	switch {
	case name == "proof" && post.proof != nil:
		return 0, nil
	case name == "photos" && len(post.photos) >= claims.MaxPhotos:
		post.problems.Add("photos", "claim.err.photos_many", claims.MaxPhotos)
		return 0, nil
	case total > claims.MaxTotal:
		post.problems.Add("photos", "claim.err.files_large", claims.MaxTotal>>20)
		return 0, nil
	}
	f, err := upload.Spool("", part, fileName, claims.MaxFileBytes)
	if err != nil {
		return 0, err
	}
	if f.Size == 0 && fileName == "" {
		f.Remove() // the browser's empty choice
		return 0, nil
	}
	if name == "proof" {
		post.proof = &f
	} else {
		post.photos = append(post.photos, f)
	}
	return f.Size, nil
}

// setForm makes the post's fields the request's form, as ParseForm would
// (the query's values after the post's).
func setForm(r *http.Request, vals url.Values) {
	r.PostForm = vals
	r.Form = url.Values{}
	for k, vs := range vals {
		r.Form[k] = append(r.Form[k], vs...)
	}
	for k, vs := range r.URL.Query() {
		r.Form[k] = append(r.Form[k], vs...)
	}
}
