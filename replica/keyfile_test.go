package replica

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRecoveryKeyIsMadeOnceAndKept(t *testing.T) {
	dir := t.TempDir()
	id, created, err := LoadOrCreateKey(dir)
	if err != nil || !created {
		t.Fatalf("first start: %v, created %v", err, created)
	}
	fi, err := os.Stat(filepath.Join(dir, KeyFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", fi, err)
	}
	again, created, err := LoadOrCreateKey(dir)
	if err != nil || created || again.String() != id.String() {
		t.Fatalf("second start: %v, created %v, same key %v", err, created, again.String() == id.String())
	}
	if err := os.WriteFile(filepath.Join(dir, KeyFile), []byte("# nothing\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreateKey(dir); err == nil {
		t.Error("a key file without a key was replaced or accepted")
	}
}

func TestParseRecipients(t *testing.T) {
	a, b := newKey(t).Recipient().String(), newKey(t).Recipient().String()
	rs, err := ParseRecipients(" " + a + ", ," + b + " ")
	if err != nil || len(rs) != 2 {
		t.Fatalf("%d recipients, %v", len(rs), err)
	}
	if _, err := ParseRecipients(a + ",ssh-ed25519 AAAA"); err == nil || !strings.Contains(err.Error(), "ssh-ed25519") {
		t.Errorf("a non-age key: %v", err)
	}
}
