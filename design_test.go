package main

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// designRow is a row of DESIGN.md's package table: the import path in
// backticks in the first column.
var designRow = regexp.MustCompile("^\\| `(posbox[a-z0-9/_]*)` \\|")

// TestDesignListsEveryPackage: docs/DESIGN.md's package table ("##
// Packages") names every package "go list ./..." finds, once, and no
// package that does not exist. The table replaced a hand-kept file list
// that drifted.
func TestDesignListsEveryPackage(t *testing.T) {
	listed := designPackages(t)
	cmd := exec.Command("go", "list", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v\n%s", err, stderr.String())
	}
	actual := strings.Fields(string(out))
	for _, p := range actual {
		if !slices.Contains(listed, p) {
			t.Errorf("docs/DESIGN.md: package %s is missing from the table under \"## Packages\"", p)
		}
	}
	seen := map[string]bool{}
	for _, p := range listed {
		if seen[p] {
			t.Errorf("docs/DESIGN.md: package %s is listed twice", p)
		}
		seen[p] = true
		if !slices.Contains(actual, p) {
			t.Errorf("docs/DESIGN.md: package %s does not exist (go list ./... has no such package)", p)
		}
	}
}

// designPackages reads the import paths of the package table in
// docs/DESIGN.md's "## Packages" section.
func designPackages(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile("docs/DESIGN.md")
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	in := false
	for line := range strings.Lines(string(raw)) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "## ") {
			in = line == "## Packages"
			continue
		}
		if m := designRow.FindStringSubmatch(line); in && m != nil {
			pkgs = append(pkgs, m[1])
		}
	}
	if len(pkgs) < 10 {
		t.Fatalf("docs/DESIGN.md: found %d packages under \"## Packages\"; want a table whose first column is the import path in backticks", len(pkgs))
	}
	return pkgs
}
