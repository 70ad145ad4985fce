package store

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// codeIdents reads field_codes.go: the Go name of each code → its doc.
func codeIdents(t *testing.T) map[string]FieldCodeDoc {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "field_codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]FieldCodeDoc{}
	for _, d := range FieldCodes {
		byName[d.Code.String()] = d
	}
	out := map[string]FieldCodeDoc{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 {
			return true
		}
		call, ok := vs.Values[0].(*ast.CallExpr)
		if !ok || len(call.Args) < 2 {
			return true
		}
		if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "fieldCode" {
			return true
		}
		name, _ := strconv.Unquote(call.Args[0].(*ast.BasicLit).Value)
		out[vs.Names[0].Name] = byName[name]
		return true
	})
	if len(out) != len(FieldCodes) {
		t.Fatalf("field_codes.go declares %d codes, FieldCodes has %d", len(out), len(FieldCodes))
	}
	return out
}

// TestFieldErrorsUseDocumentedCodes reads every field error the store,
// the server, fiscal and the registration (fiscal/registration) can produce (each Fields.Add and Invalid call) and checks its
// code is one of FieldCodes, named by its constant, with exactly the
// params FieldCodes documents for it.
func TestFieldErrorsUseDocumentedCodes(t *testing.T) {
	idents := codeIdents(t)
	seen := map[string]bool{}
	calls := 0
	for _, dir := range []string{".", "../server", "../fiscal", "../fiscal/registration", "../discount"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				// A literal would skip Add: no code, or one not checked here.
				if lit, ok := n.(*ast.CompositeLit); ok && path != "errors.go" {
					if name := typeName(lit.Type); name == "FieldError" || name == "Fields" && len(lit.Elts) > 0 {
						t.Errorf("%s: a field error made as a literal; use Fields.Add or Invalid", fset.Position(lit.Pos()))
					}
				}
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var fn string
				switch x := call.Fun.(type) {
				case *ast.SelectorExpr:
					fn = x.Sel.Name
				case *ast.Ident:
					fn = x.Name
				}
				// Fields.Add is the only Add with 3 or more arguments.
				if !(fn == "Invalid" || fn == "Add" && len(call.Args) >= 3) || path == "errors.go" {
					return true
				}
				at := fset.Position(call.Pos()).String()
				if len(call.Args) < 3 {
					t.Errorf("%s: a field error needs a field, a code and a message", at)
					return true
				}
				var codeName string
				switch x := call.Args[1].(type) {
				case *ast.Ident:
					codeName = x.Name
				case *ast.SelectorExpr:
					codeName = x.Sel.Name
				}
				doc, ok := idents[codeName]
				if !ok {
					t.Errorf("%s: code %s is not a constant of store.FieldCodes", at, codeName)
					return true
				}
				calls++
				seen[doc.Code.String()] = true
				params := call.Args[3:]
				if len(params)%2 != 0 {
					t.Errorf("%s: params must be key/value pairs", at)
					return true
				}
				var keys []string
				for i := 0; i < len(params); i += 2 {
					lit, ok := params[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						t.Errorf("%s: a param key must be a string literal", at)
						return true
					}
					k, _ := strconv.Unquote(lit.Value)
					keys = append(keys, k)
				}
				want := slices.Clone(doc.Params)
				slices.Sort(keys)
				slices.Sort(want)
				if !slices.Equal(keys, want) {
					t.Errorf("%s: %s has params %v, FieldCodes documents %v", at, doc.Code, keys, want)
				}
				return true
			})
		}
	}
	if calls < 100 {
		t.Fatalf("found only %d field errors: the scan is broken", calls)
	}
	for _, d := range FieldCodes {
		if !seen[d.Code.String()] {
			t.Errorf("field code %s is documented but never produced", d.Code)
		}
	}
}

// TestAPIDocListsFieldCodes: docs/API.md's table of field codes is
// exactly FieldCodes, with each code's params.
func TestAPIDocListsFieldCodes(t *testing.T) {
	doc, err := os.ReadFile("../docs/API.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "<!-- field codes -->")
	section, _, ok2 := strings.Cut(section, "<!-- /field codes -->")
	if !ok || !ok2 {
		t.Fatal("docs/API.md has no <!-- field codes --> table")
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z_0-9]+)` \\| (.*) \\| (.*) \\|$")
	var got []string
	params := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		got = append(got, m[1])
		params[m[1]] = m[3]
	}
	var want []string
	for _, d := range FieldCodes {
		want = append(want, d.Code.String())
		var ps []string
		for _, p := range d.Params {
			ps = append(ps, "`"+p+"`")
		}
		if p := strings.Join(ps, ", "); params[d.Code.String()] != p && !(p == "" && params[d.Code.String()] == "") {
			t.Errorf("docs/API.md: %s params %q, want %q", d.Code, params[d.Code.String()], p)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("docs/API.md lists field codes\n%v\nwant (store.FieldCodes)\n%v", got, want)
	}
}

func TestFieldErrorParams(t *testing.T) {
	err := Invalid("name", FLength, "must be 1-200 characters", "min", 1, "max", 200)
	e := err.(*Error)
	if e.Code != EValidation || e.Fields[0].Code != FLength || e.Fields[0].Params["max"] != 200 || e.Fields[0].Params["min"] != 1 {
		t.Fatalf("%+v", e)
	}
	var f Fields
	f.Add("x", FRequired, "is required")
	if f[0].Params != nil {
		t.Fatalf("params %v, want none", f[0].Params)
	}
}

func typeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}
