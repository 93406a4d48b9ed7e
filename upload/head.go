package upload

import (
	"bufio"
	"encoding/binary"
	"image/color"
	"image/png"
	"io"
	"os"
)

// maxDecode bounds the memory one image takes to decode (its pixels, and a
// progressive JPEG's coefficients): a 40-megapixel photo of a phone fits.
const maxDecode = 128 << 20

// imageHead is what an image's header says, read before it is decoded.
type imageHead struct {
	width, height int
	cost          int64 // bytes its decoding and turning take
	orient        int   // its EXIF orientation (1: as stored)
	damaged       bool  // no header to read
}

func (h imageHead) pixels() int64 { return int64(h.width) * int64(h.height) }

// readHead reads an image's header from the spooled file at path.
func readHead(path, ctype string) imageHead {
	f, err := os.Open(path)
	if err != nil {
		return imageHead{damaged: true}
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if ctype == JPEG {
		return jpegHead(br)
	}
	cfg, err := png.DecodeConfig(br)
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return imageHead{damaged: true}
	}
	h := imageHead{width: cfg.Width, height: cfg.Height, orient: 1}
	h.cost = h.pixels() * bytesPerPixel(cfg.ColorModel)
	return h
}

// bytesPerPixel is what a decoded PNG of the model holds per pixel.
func bytesPerPixel(m color.Model) int64 {
	switch m {
	case color.GrayModel:
		return 1
	case color.Gray16Model:
		return 2
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 4
}

// jpegHead walks a JPEG's markers up to its frame header: its size, the
// samples of its components, whether it is progressive (its decoding keeps
// every coefficient, 4 bytes a sample), and its EXIF orientation.
func jpegHead(r *bufio.Reader) imageHead {
	h := imageHead{orient: 1, damaged: true}
	var soi [2]byte
	if _, err := io.ReadFull(r, soi[:]); err != nil || soi != [2]byte{0xFF, 0xD8} {
		return h
	}
	for {
		marker, err := nextMarker(r)
		if err != nil {
			return h
		}
		if marker == 0xD9 || marker == 0xDA { // the end, or the scan: no frame before it
			return h
		}
		if marker >= 0xD0 && marker <= 0xD7 || marker == 0x01 {
			continue // markers without a segment
		}
		var l [2]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return h
		}
		n := int(binary.BigEndian.Uint16(l[:])) - 2
		if n < 0 {
			return h
		}
		switch {
		case marker == 0xE1:
			seg := make([]byte, n)
			if _, err := io.ReadFull(r, seg); err != nil {
				return h
			}
			if o := exifOrientation(seg); o != 0 {
				h.orient = o
			}
		case isFrame(marker):
			seg := make([]byte, n)
			if _, err := io.ReadFull(r, seg); err != nil {
				return h
			}
			return frame(h, seg, marker)
		default:
			if _, err := r.Discard(n); err != nil {
				return h
			}
		}
	}
}

// nextMarker reads up to the next marker and returns its code.
func nextMarker(r *bufio.Reader) (byte, error) {
	b, err := r.ReadByte()
	for err == nil && b != 0xFF {
		b, err = r.ReadByte() // bytes between segments: skipped, as decoders do
	}
	for err == nil && b == 0xFF {
		b, err = r.ReadByte() // fill bytes
	}
	return b, err
}

// isFrame: a start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC).
func isFrame(m byte) bool { return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC }

// frame reads a frame header's size and components into h.
func frame(h imageHead, seg []byte, marker byte) imageHead {
	if len(seg) < 6 {
		return h
	}
	height, width, comps := int(binary.BigEndian.Uint16(seg[1:])), int(binary.BigEndian.Uint16(seg[3:])), int(seg[5])
	if width == 0 || height == 0 || comps == 0 || len(seg) < 6+3*comps {
		return h
	}
	hmax, vmax := 1, 1
	for c := range comps {
		f := seg[6+3*c+1]
		hmax, vmax = max(hmax, int(f>>4)), max(vmax, int(f&15))
	}
	pixels := int64(width) * int64(height)
	var samples int64
	for c := range comps {
		f := seg[6+3*c+1]
		samples += pixels * int64(f>>4) * int64(f&15) / int64(hmax*vmax)
	}
	h.width, h.height, h.damaged = width, height, false
	h.cost = samples
	if progressive := marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE; progressive {
		h.cost += 4 * samples
	}
	if comps == 4 {
		h.cost += 4 * pixels // drawn once more as CMYK
	}
	if h.orient > 1 {
		h.cost += pixels * int64(min(comps, 3)+comps/4) // the turned copy: gray, YCbCr, or RGBA
	}
	return h
}

// exifOrientation reads the orientation tag of an APP1 segment holding
// EXIF (0 when there is none).
func exifOrientation(seg []byte) int {
	if len(seg) < 14 || string(seg[:6]) != "Exif\x00\x00" {
		return 0
	}
	tiff := seg[6:]
	var order binary.ByteOrder
	switch string(tiff[:4]) {
	case "II*\x00":
		order = binary.LittleEndian
	case "MM\x00*":
		order = binary.BigEndian
	default:
		return 0
	}
	ifd := int64(order.Uint32(tiff[4:]))
	if ifd+2 > int64(len(tiff)) {
		return 0
	}
	n := int64(order.Uint16(tiff[ifd:]))
	for i := range n {
		e := ifd + 2 + 12*i
		if e+12 > int64(len(tiff)) {
			return 0
		}
		if order.Uint16(tiff[e:]) == 0x0112 && order.Uint16(tiff[e+2:]) == 3 {
			if o := int(order.Uint16(tiff[e+8:])); o >= 1 && o <= 8 {
				return o
			}
			return 0
		}
	}
	return 0
}
