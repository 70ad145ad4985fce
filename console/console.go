package console

import "embed"

// Files is the console: index.html and everything under assets/.
//
//go:embed index.html assets
var Files embed.FS
