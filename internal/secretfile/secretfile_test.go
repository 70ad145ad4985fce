package secretfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A secret is readable by its owner only, and an existing file is never
// replaced.
func TestCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "jwt.key")
	if err := Create(path, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("mode %v, %v: want 0600", fi.Mode().Perm(), err)
		}
	}
	if err := Create(path, []byte("second")); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second create: %v, want fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "first" {
		t.Fatalf("file holds %q after a refused create", b)
	}
}
