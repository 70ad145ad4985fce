// Package migrations holds the goose SQL migrations, embedded in the binary.
package migrations

import "embed"

// FS holds every migration file; goose reads them from its root.
//
//go:embed *.sql
var FS embed.FS
