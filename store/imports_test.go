package store

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestStoreImportsOnlyMigrations keeps store at the bottom of the layers
// (docs/DESIGN.md): of posbox it imports migrations and nothing else, so
// no type of a layer above can creep into it. Test files may use
// storetest.
func TestStoreImportsOnlyMigrations(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if (path == "posbox" || strings.HasPrefix(path, "posbox/")) && path != "posbox/migrations" {
				t.Errorf("%s imports %s: store imports nothing of posbox but posbox/migrations", name, path)
			}
		}
	}
}
