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

// turned is img as its orientation says it is to be seen (EXIF 2–8: flipped,
// turned or both), drawn into a new image of its kind.
func turned(img image.Image, orient int) image.Image {
	if orient <= 1 || orient > 8 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if orient >= 5 {
		dw, dh = h, w
	}
	// from is the source pixel of the turned image's pixel (x, y).
	from := func(x, y int) (int, int) {
		switch orient {
		case 2:
			return w - 1 - x, y
		case 3:
			return w - 1 - x, h - 1 - y
		case 4:
			return x, h - 1 - y
		case 5:
			return y, x
		case 6:
			return y, h - 1 - x
		case 7:
			return w - 1 - y, h - 1 - x
		}
		return w - 1 - y, x // 8
	}
	rect := image.Rect(0, 0, dw, dh)
	switch src := img.(type) {
	case *image.YCbCr:
		dst := image.NewYCbCr(rect, image.YCbCrSubsampleRatio444)
		for y := range dh {
			for x := range dw {
				sx, sy := from(x, y)
				sx, sy = sx+b.Min.X, sy+b.Min.Y
				i := dst.YOffset(x, y)
				dst.Y[i] = src.Y[src.YOffset(sx, sy)]
				ci := src.COffset(sx, sy)
				dst.Cb[i], dst.Cr[i] = src.Cb[ci], src.Cr[ci]
			}
		}
		return dst
	case *image.Gray:
		dst := image.NewGray(rect)
		for y := range dh {
			for x := range dw {
				sx, sy := from(x, y)
				dst.Pix[dst.PixOffset(x, y)] = src.Pix[src.PixOffset(sx+b.Min.X, sy+b.Min.Y)]
			}
		}
		return dst
	}
	dst := image.NewRGBA(rect)
	for y := range dh {
		for x := range dw {
			sx, sy := from(x, y)
			dst.Set(x, y, img.At(sx+b.Min.X, sy+b.Min.Y))
		}
	}
	return dst
}
