package main

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// pinnedClient trusts exactly the certificate with this fingerprint, as a
// till that pinned it does.
func pinnedClient(fp string) *http.Client {
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{
		InsecureSkipVerify: true, // the self-signed certificate is checked by its fingerprint below
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 || fingerprint(raw[0]) != fp {
				return errors.New("certificate fingerprint does not match the pinned one")
			}
			return nil
		},
	}}}
}

var logFingerprint = regexp.MustCompile(`fingerprint_sha256=(\S+)`)

// The real binary serves HTTPS on its port with a certificate it made on
// first start; the log and /api/health give its fingerprint, a till that
// pins it gets in, and plain HTTP from the box itself still works.
func TestServeHTTPSWithGeneratedCertificate(t *testing.T) {
	a := startAppliance(t, buildPosbox(t))
	m := logFingerprint.FindStringSubmatch(a.logText())
	if m == nil {
		t.Fatalf("no fingerprint in the log:\n%s", a.logText())
	}
	fp := m[1]
	https := strings.Replace(a.base, "http://", "https://", 1)
	res, err := pinnedClient(fp).Get(https + "/api/health")
	if err != nil {
		t.Fatal(err)
	}
	var health struct {
		Status         string  `json:"status"`
		TLSFingerprint *string `json:"tls_fingerprint"`
	}
	err = json.NewDecoder(res.Body).Decode(&health)
	res.Body.Close()
	if err != nil || health.Status != "ok" || health.TLSFingerprint == nil || *health.TLSFingerprint != fp {
		t.Fatalf("health over HTTPS: %+v %v", health, err)
	}
	if _, err := pinnedClient(strings.Repeat("00:", 31) + "00").Get(https + "/api/health"); err == nil {
		t.Fatal("a till pinning another certificate got in")
	}
	res, err = http.Get(a.base + "/api/health")
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("plain HTTP from the box itself: %v %v", res, err)
	}
	res.Body.Close()
	for _, f := range []string{"cert.pem", "key.pem"} {
		if st, err := os.Stat(filepath.Join(a.dataDir, tlsDir, f)); err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v", f, st, err)
		}
	}
}

// The certificate is made once and kept (a pinned till keeps working after
// a restart); it names localhost and 127.0.0.1; the owner's is used when
// configured.
func TestBoxCertificate(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	first, err := loadBoxCert(cfg)
	if err != nil {
		t.Fatal(err)
	}
	again, err := loadBoxCert(cfg)
	if err != nil || again.fingerprint != first.fingerprint || !first.generated {
		t.Fatalf("certificate changed between starts: %s, %s (%v)", first.fingerprint, again.fingerprint, err)
	}
	if err := first.leaf.VerifyHostname("localhost"); err != nil {
		t.Fatal(err)
	}
	if err := first.leaf.VerifyHostname("127.0.0.1"); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(first.cert.Certificate[0])
	if !strings.HasPrefix(first.fingerprint, strings.ToUpper(hexPair(sum[0]))+":") || len(first.fingerprint) != 95 {
		t.Fatalf("fingerprint %q", first.fingerprint)
	}
	owner := DefaultConfig()
	owner.DataDir = t.TempDir()
	owner.TLSCertFile = filepath.Join(cfg.DataDir, tlsDir, tlsCertName)
	owner.TLSKeyFile = filepath.Join(cfg.DataDir, tlsDir, tlsKeyName)
	mine, err := loadBoxCert(owner)
	if err != nil || mine.generated || mine.fingerprint != first.fingerprint {
		t.Fatalf("owner's certificate: %+v %v", mine, err)
	}
	if _, err := os.Stat(filepath.Join(owner.DataDir, tlsDir)); !os.IsNotExist(err) {
		t.Fatalf("a certificate was generated although the owner's is configured: %v", err)
	}
}

func hexPair(b byte) string {
	return strings.ToUpper(string("0123456789abcdef"[b>>4]) + string("0123456789abcdef"[b&15]))
}
