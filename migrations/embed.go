// Package migrations holds the SQL schema changes, numbered and embedded in the
// binary; storage applies them with goose.
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS
