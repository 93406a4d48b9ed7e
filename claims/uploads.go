package claims

import (
	"context"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/upload"
)

// File is a file as the customer's browser sent it, spooled to disk to its
// limit (MaxFileBytes) by the page.
type File = upload.File

// checkFiles: photos and the proof are JPEG, PNG or PDF by their content,
// each at most MaxFileBytes (an image within upload.MaxPixels), at most
// MaxPhotos photos and MaxTotal together. Only what the spool knows is read.
func checkFiles(f Form, p apperr.Problems) {
	var total int64
	if f.Proof != nil {
		total += f.Proof.Size
		p.Put("proof", f.Proof.Problem())
	}
	if len(f.Photos) > MaxPhotos {
		p.Add("photos", "claim.err.photos_many", MaxPhotos)
		return
	}
	for _, ph := range f.Photos {
		total += ph.Size
		if msg := ph.Problem(); !msg.IsZero() {
			p.Put("photos", apperr.Msg("claim.err.photo", textin.FileName(ph.Name), msg))
		}
	}
	if total > MaxTotal {
		p.Add("photos", "claim.err.files_large", MaxTotal>>20)
	}
}

// keptFiles are the files as they are kept (upload.Keeper: safe names,
// images drawn again); an image that cannot be drawn is the form's problem.
// done removes what was drawn.
func (s *Service) keptFiles(ctx context.Context, proof *File, photos []File) ([]storage.ClaimFile, func(), error) {
	var drawn []upload.File
	done := func() {
		for _, f := range drawn {
			f.Remove()
		}
	}
	var out []storage.ClaimFile
	p := apperr.Problems{}
	keep := func(f File, isProof bool) {
		field, fallback := "photos", i18n.T(ctx, "claim.file.photo")
		if isProof {
			field, fallback = "proof", i18n.T(ctx, "claim.file.proof")
		}
		k, msg := s.files.Keep(f, fallback)
		if !msg.IsZero() {
			if !isProof {
				msg = apperr.Msg("claim.err.photo", textin.FileName(f.Name), msg)
			}
			p.Put(field, msg)
			return
		}
		drawn = append(drawn, k)
		out = append(out, storage.ClaimFile{Name: k.Name, ContentType: k.Type, Data: k.Bytes, Proof: isProof})
	}
	if proof != nil {
		keep(*proof, true)
	}
	for _, ph := range photos {
		keep(ph, false)
	}
	if len(p) > 0 {
		done()
		return nil, func() {}, apperr.Fields("claim.err.see_fields", p)
	}
	return out, done, nil
}

// CheckLink says whether a one-time link opens its form, as File will: the
// page asks before it reads a post, so a post to a link that opens nothing
// is refused without its files being read.
func (s *Service) CheckLink(ctx context.Context, token, client string) error {
	_, err := s.link(ctx, s.db, token, client, false)
	return err
}

// CheckStatus says whether a status page's token is a claim's, as Reply
// will: asked before a reply's photos are read.
func (s *Service) CheckStatus(ctx context.Context, token, client string) error {
	_, err := s.claim(ctx, token, client)
	return err
}
