package web_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
)

// photo is a small picture with something drawn on it.
func photo(w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(x * 255 / w), uint8(y * 255 / h), 90, 255})
		}
	}
	return img
}

// jpegOf and pngOf encode a photo of w×h pixels.
func jpegOf(w, h int) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, photo(w, h), nil); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func pngOf(w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, photo(w, h)); err != nil {
		panic(err)
	}
	return b.Bytes()
}
