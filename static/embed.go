// Package static holds the files the browser loads: htmx (vendored from npm, no
// CDN: the dashboard works offline), the stylesheet and icons, embedded in the binary.
package static

import "embed"

// FS holds the static files.
//
//go:embed *.js *.css *.svg
var FS embed.FS
