package main

import (
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

	"posbox/boxtls"
)

// pinnedClient trusts exactly the certificate with this fingerprint, as a
// till that pinned it does.
func pinnedClient(fp string) *http.Client {
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{
		InsecureSkipVerify: true, // the self-signed certificate is checked by its fingerprint below
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 || boxtls.Fingerprint(raw[0]) != fp {
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
		if st, err := os.Stat(filepath.Join(a.dataDir, boxtls.Dir, f)); err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v", f, st, err)
		}
	}
}
