package boxtls

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// One port answers HTTPS (to a client pinning the certificate) and plain
// HTTP; a silent connection does not hold up the others.
func TestSplitListenerServesBoth(t *testing.T) {
	c, err := Load(t.TempDir(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := NewSplitListener(raw, &tls.Config{Certificates: []tls.Certificate{c.TLS}, MinVersion: tls.VersionTLS12})
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS != nil {
			io.WriteString(w, "https")
		} else {
			io.WriteString(w, "http")
		}
	}), ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(ln)
	defer hs.Close()

	silent, err := net.Dial("tcp", raw.Addr().String()) // says nothing
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()

	pinned := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{
		InsecureSkipVerify: true, // checked by its fingerprint below
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 || Fingerprint(raw[0]) != c.Fingerprint {
				return errors.New("another certificate")
			}
			return nil
		},
	}}}
	for _, tc := range []struct {
		client *http.Client
		url    string
		want   string
	}{
		{pinned, "https://" + raw.Addr().String() + "/", "https"},
		{&http.Client{Timeout: 5 * time.Second}, "http://" + raw.Addr().String() + "/", "http"},
	} {
		res, err := tc.client.Get(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if string(b) != tc.want {
			t.Errorf("%s answered %q", tc.url, b)
		}
	}
}
