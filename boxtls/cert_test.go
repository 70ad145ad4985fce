package boxtls

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The certificate is made once and kept (a pinned till keeps working after
// a restart); it names localhost and 127.0.0.1; the owner's is used when
// configured.
func TestBoxCertificate(t *testing.T) {
	dataDir := t.TempDir()
	first, err := Load(dataDir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	again, err := Load(dataDir, "", "")
	if err != nil || again.Fingerprint != first.Fingerprint || !first.Generated {
		t.Fatalf("certificate changed between starts: %s, %s (%v)", first.Fingerprint, again.Fingerprint, err)
	}
	if err := first.Leaf.VerifyHostname("localhost"); err != nil {
		t.Fatal(err)
	}
	if err := first.Leaf.VerifyHostname("127.0.0.1"); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(first.TLS.Certificate[0])
	if !strings.HasPrefix(first.Fingerprint, strings.ToUpper(hexPair(sum[0]))+":") || len(first.Fingerprint) != 95 {
		t.Fatalf("fingerprint %q", first.Fingerprint)
	}
	for _, f := range []string{certName, keyName} {
		if st, err := os.Stat(filepath.Join(dataDir, Dir, f)); err != nil || (runtime.GOOS != "windows" && st.Mode().Perm() != 0o600) {
			t.Fatalf("%s: %v %v", f, st, err)
		}
	}
	ownerDir := t.TempDir()
	mine, err := Load(ownerDir, filepath.Join(dataDir, Dir, certName), filepath.Join(dataDir, Dir, keyName))
	if err != nil || mine.Generated || mine.Fingerprint != first.Fingerprint {
		t.Fatalf("owner's certificate: %+v %v", mine, err)
	}
	if _, err := os.Stat(filepath.Join(ownerDir, Dir)); !os.IsNotExist(err) {
		t.Fatalf("a certificate was generated although the owner's is configured: %v", err)
	}
}

func hexPair(b byte) string {
	return strings.ToUpper(string("0123456789abcdef"[b>>4]) + string("0123456789abcdef"[b&15]))
}
