package upload

import "image"

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
