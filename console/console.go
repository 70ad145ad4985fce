// Package console holds the admin console's files: plain HTML, CSS and
// JavaScript modules, embedded in the binary and served by the server at
// / (docs/CONSOLE.md for the owner, docs/DESIGN.md for the choices).
package console

import "embed"

// Files is the console: index.html and everything under assets/.
//
//go:embed index.html assets
var Files embed.FS
