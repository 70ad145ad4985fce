package store

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// storeFiles parses store's non-test files with their comments.
func storeFiles(t *testing.T) map[string]*ast.File {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	out := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = f
	}
	return out
}

// TestStoreImportsOnlyMigrations keeps store at the bottom of the layers
// (docs/DESIGN.md): of posbox it imports migrations and nothing else, so
// no type of a layer above can creep into it. Test files may use
// storetest.
func TestStoreImportsOnlyMigrations(t *testing.T) {
	for name, f := range storeFiles(t) {
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if (path == "posbox" || strings.HasPrefix(path, "posbox/")) && path != "posbox/migrations" {
				t.Errorf("%s imports %s: store imports nothing of posbox but posbox/migrations", name, path)
			}
		}
	}
}

// TestStoreNamesNoRoutes: the API's routes are server's; a store error
// or comment that names one goes stale when the route changes (server
// adds the route to a message where the client needs it).
func TestStoreNamesNoRoutes(t *testing.T) {
	for name, f := range storeFiles(t) {
		check := func(text string) {
			if strings.Contains(text, "/api/") {
				t.Errorf("%s names an API route: %q", name, text)
			}
		}
		for _, cg := range f.Comments {
			check(cg.Text())
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				check(lit.Value)
			}
			return true
		})
	}
}
