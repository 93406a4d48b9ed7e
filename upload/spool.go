package upload

import (
	"errors"
	"io"
	"os"

	"shipdesk/apperr"
)

// File is a file as a person sent it, spooled to disk: what is known of it
// without reading it into memory.
type File struct {
	Name  string // as the browser sent it: SafeName names it for keeping
	Type  string // by its content (Sniff), "" when not an allowed type
	Size  int64  // bytes spooled: Limit+1 when it went over
	Limit int64  // the most bytes it may have
	image imageHead
	path  string
}

// Over says whether the file went over its limit (only the limit and a byte
// were read of it).
func (f File) Over() bool { return f.Size > f.Limit }

// Spool reads a file from r into a temporary file in dir ("": the system's),
// to limit bytes and one more to tell that it is over: the rest is left
// unread. An error is one of reading r (the post broke off, or is over its
// own limit).
func Spool(dir string, r io.Reader, name string, limit int64) (File, error) {
	tmp, err := os.CreateTemp(dir, "shipdesk-upload-*")
	if err != nil {
		return File{}, err
	}
	f := File{Name: name, Limit: limit, path: tmp.Name()}
	var head [sniffLen]byte
	n, err := io.ReadFull(r, head[:])
	if err == nil || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		f.Type = Sniff(head[:n])
		if _, err = tmp.Write(head[:n]); err == nil {
			var rest int64
			rest, err = io.Copy(tmp, io.LimitReader(r, limit+1-int64(n)))
			f.Size = int64(n) + rest
		}
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		f.Remove()
		return File{}, err
	}
	if !f.Over() && (f.Type == JPEG || f.Type == PNG) {
		f.image = readHead(f.path, f.Type)
	}
	return f, nil
}

// Remove deletes the spooled file.
func (f File) Remove() {
	if f.path != "" {
		_ = os.Remove(f.path)
	}
}

// Bytes reads the spooled file whole: done when it is kept, one file at a
// time.
func (f File) Bytes() ([]byte, error) {
	if f.path == "" {
		return nil, errors.New("upload: no spooled file")
	}
	return os.ReadFile(f.path)
}

// Problem says why the file is refused (Check), and for an image, why it
// cannot be drawn again: damaged, or over MaxPixels (or the memory its
// decoding takes).
func (f File) Problem() apperr.Text {
	if msg := Check(f.Name, f.Type, f.Size, f.Limit); !msg.IsZero() {
		return msg
	}
	if f.Type != JPEG && f.Type != PNG {
		return apperr.Text{}
	}
	switch {
	case f.image.damaged:
		return apperr.Msg("ret.err.file_damaged")
	case f.image.pixels() > MaxPixels || f.image.cost > maxDecode:
		return apperr.Msg("ret.err.file_pixels", MaxPixels/1_000_000)
	}
	return apperr.Text{}
}
