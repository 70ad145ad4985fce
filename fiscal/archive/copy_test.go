package archive

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Copy puts the archive on a stick: every archived TAR with its .sha256,
// checked; a second run copies nothing; a file damaged on the box or a
// different file on the stick is reported, never copied over; unfinished
// and temporary files stay behind.
func TestCopy(t *testing.T) {
	ctx := context.Background()
	src := filepath.Join(t.TempDir(), "archive", "tse")
	if err := os.MkdirAll(src, 0o700); err != nil {
		t.Fatal(err)
	}
	put := func(name, content string, withSum bool) {
		p := filepath.Join(src, name)
		if err := os.WriteFile(p, []byte(content), 0o400); err != nil {
			t.Fatal(err)
		}
		if withSum {
			sum, _ := FileSHA256(p)
			if err := os.WriteFile(p+".sha256", []byte(sum+"  "+name+"\n"), 0o400); err != nil {
				t.Fatal(err)
			}
		}
	}
	put("ab_1-12.tar", "first range", true)
	put("ab_13-40.tar", "second range", true)
	put("ab_41-50.tar", "renamed, its .sha256 not yet written", false)
	put(".7d0e8f7a.tar.tmp", "downloading", false)
	stick := t.TempDir()
	res, err := Copy(ctx, src, stick)
	if err == nil || !strings.Contains(err.Error(), "ab_41-50.tar: no .sha256") || res != (CopyResult{Copied: 2}) {
		t.Fatalf("first copy: %+v %v", res, err)
	}
	var names []string
	entries, _ := os.ReadDir(stick)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"ab_1-12.tar", "ab_1-12.tar.sha256", "ab_13-40.tar", "ab_13-40.tar.sha256"}; !slices.Equal(names, want) {
		t.Fatalf("the stick holds %v, want %v", names, want)
	}
	if b, _ := os.ReadFile(filepath.Join(stick, "ab_13-40.tar")); string(b) != "second range" {
		t.Fatalf("copied %q", b)
	}
	// Finished now; the rest is there already.
	os.Remove(filepath.Join(src, "ab_41-50.tar"))
	put("ab_41-50.tar", "third range", true)
	if res, err := Copy(ctx, src, stick); err != nil || res != (CopyResult{Copied: 1, Present: 2}) {
		t.Fatalf("second copy: %+v %v", res, err)
	}
	// Damaged on the box, and a different file on the stick.
	p := filepath.Join(src, "ab_1-12.tar")
	os.Chmod(p, 0o600)
	os.WriteFile(p, []byte("first rangE"), 0o600)
	os.Chmod(filepath.Join(stick, "ab_13-40.tar"), 0o600)
	os.WriteFile(filepath.Join(stick, "ab_13-40.tar"), []byte("something else"), 0o600)
	_, err = Copy(ctx, src, stick)
	if err == nil || !strings.Contains(err.Error(), "ab_1-12.tar: damaged on the box") || !strings.Contains(err.Error(), "not overwritten") {
		t.Fatalf("damage: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(stick, "ab_13-40.tar")); string(b) != "something else" {
		t.Fatal("a file on the stick was overwritten")
	}
	if _, err := Copy(ctx, src, filepath.Join(stick, "missing")); err == nil || !strings.Contains(err.Error(), "must exist") {
		t.Fatalf("missing folder: %v", err)
	}
	if _, err := Copy(ctx, filepath.Join(t.TempDir(), "none"), stick); err == nil || !strings.Contains(err.Error(), "nothing is archived yet") {
		t.Fatalf("no archive: %v", err)
	}
}
