package archive

import (
	"os"
	"path/filepath"
	"testing"
)

// A restore writes the archive's files 0600; the start's ProtectFiles
// (run by serve in the background, no longer in New) makes the TARs and
// their checksums read-only again and leaves anything else alone.
func TestProtectFilesMakesRestoredTARsReadOnly(t *testing.T) {
	e := newEnv(t, envOpts{})
	dir := e.a.Dir()
	files := map[string]os.FileMode{
		"ab_1-8.tar": 0o400, "ab_1-8.tar.sha256": 0o400, // as a restore wrote them
		".ab_9-20.tar.tmp": 0o600, "notes.txt": 0o600, // not archived files
	}
	for name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.a.ProtectFiles(); err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v; want %v", name, fi.Mode().Perm(), want)
		}
	}
}
