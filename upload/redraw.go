package upload

import (
	"bufio"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"

	"shipdesk/apperr"
)

// Keeper makes files safe to keep, drawing one image at a time: however many
// posts come at once, the memory images take is one image's.
type Keeper struct {
	slot chan struct{}
}

// NewKeeper returns a keeper.
func NewKeeper() *Keeper { return &Keeper{slot: make(chan struct{}, 1)} }

// Keep returns f as it is kept, or why it is refused: named SafeName (with
// fallback when nothing of its name is left), and an image decoded and
// encoded again into a new spool beside f's (the caller removes both), turned
// as its EXIF says, within f's limit. A PDF is kept as it came: it is only
// ever offered as an attachment.
func (k *Keeper) Keep(f File, fallback string) (File, apperr.Text) {
	if msg := f.Problem(); !msg.IsZero() {
		return File{}, msg
	}
	out := f
	out.Name = SafeName(f.Name, f.Type, fallback)
	if f.Type == PDF {
		return out, apperr.Text{}
	}
	k.slot <- struct{}{}
	defer func() { <-k.slot }()
	img, err := decode(f)
	if err != nil {
		return File{}, apperr.Msg("ret.err.file_damaged")
	}
	img = turned(img, f.image.orient)
	out.path, out.Size, err = encode(filepath.Dir(f.path), img, f.Type, f.Limit)
	switch {
	case errors.Is(err, errOver):
		return File{}, apperr.Msg("ret.err.file_large", f.Limit>>20)
	case err != nil:
		return File{}, apperr.Msg("ret.err.file_damaged")
	}
	out.image = imageHead{width: img.Bounds().Dx(), height: img.Bounds().Dy(), orient: 1}
	return out, apperr.Text{}
}

func decode(f File) (image.Image, error) {
	in, err := os.Open(f.path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	if f.Type == JPEG {
		return jpeg.Decode(bufio.NewReader(in))
	}
	return png.Decode(bufio.NewReader(in))
}

// errOver: the image drawn again is over its limit.
var errOver = errors.New("upload: over the limit once encoded")

// jpegQualities are tried in turn until a photo fits its limit.
var jpegQualities = []int{90, 80, 70}

// encode writes img as ctype into a new spool in dir, of at most limit bytes.
func encode(dir string, img image.Image, ctype string, limit int64) (string, int64, error) {
	if ctype == PNG {
		return encodeOnce(dir, limit, func(w io.Writer) error {
			return (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(w, img)
		})
	}
	for _, q := range jpegQualities {
		path, n, err := encodeOnce(dir, limit, func(w io.Writer) error { return jpeg.Encode(w, img, &jpeg.Options{Quality: q}) })
		if !errors.Is(err, errOver) {
			return path, n, err
		}
	}
	return "", 0, errOver
}

func encodeOnce(dir string, limit int64, enc func(io.Writer) error) (string, int64, error) {
	tmp, err := os.CreateTemp(dir, "shipdesk-upload-*")
	if err != nil {
		return "", 0, err
	}
	w := &capped{w: bufio.NewWriter(tmp), left: limit}
	err = enc(w)
	if err == nil {
		err = w.w.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return "", 0, err
	}
	return tmp.Name(), limit - w.left, nil
}

// capped writes at most left bytes, and errOver after.
type capped struct {
	w    *bufio.Writer
	left int64
}

func (c *capped) Write(p []byte) (int, error) {
	if int64(len(p)) > c.left {
		return 0, errOver
	}
	c.left -= int64(len(p))
	return c.w.Write(p)
}
