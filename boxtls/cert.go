package boxtls

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"posbox/internal/secretfile"
	"strings"
	"time"
)

// The generated certificate lives in DATA_DIR/tls (mode 0700, files 0600).
const (
	// Dir is the generated certificate's folder in the data dir.
	Dir      = "tls"
	certName = "cert.pem"
	keyName  = "key.pem"
	// tlsValidity: tills pin the fingerprint, so the certificate is not
	// renewed on a schedule that would break every pinned till.
	tlsValidity = 10 * 365 * 24 * time.Hour
)

// Cert is the appliance's HTTPS certificate and how a till can pin it.
type Cert struct {
	TLS         tls.Certificate
	Leaf        *x509.Certificate
	Fingerprint string // SHA-256 of the certificate, AB:CD:… as browsers show it
	Generated   bool   // made by posbox (not the owner's)
}

// Load is the owner's certificate when certFile is set (tls_cert_file,
// with keyFile its key), else the one generated on first start in
// dataDir/tls for the box's names and addresses.
func Load(dataDir, certFile, keyFile string) (*Cert, error) {
	generated := certFile == ""
	if generated {
		dir := filepath.Join(dataDir, Dir)
		certFile, keyFile = filepath.Join(dir, certName), filepath.Join(dir, keyName)
		if _, err := os.Stat(certFile); errors.Is(err, fs.ErrNotExist) {
			if err := generateBoxCert(dir, certFile, keyFile); err != nil {
				return nil, fmt.Errorf("tls: generate a certificate: %w", err)
			}
		}
	}
	c, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("tls: %w", err)
	}
	leaf, err := x509.ParseCertificate(c.Certificate[0])
	if err != nil {
		return nil, fmt.Errorf("tls: %s: %w", certFile, err)
	}
	c.Leaf = leaf
	return &Cert{TLS: c, Leaf: leaf, Fingerprint: Fingerprint(c.Certificate[0]), Generated: generated}, nil
}

// Fingerprint is the SHA-256 of a DER certificate in colon-separated hex.
func Fingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	parts := make([]string, len(sum))
	for i, b := range sum {
		parts[i] = fmt.Sprintf("%02X", b)
	}
	return strings.Join(parts, ":")
}

// generateBoxCert makes a self-signed ECDSA P-256 certificate for the
// machine's host name (and name.local), localhost, and every address of
// its interfaces, and writes it with its key.
func generateBoxCert(dir, certFile, keyFile string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return err
	}
	names, ips := boxNames()
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: names[0], Organization: []string{"posbox"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(tlsValidity),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		DNSNames:              names,
		IPAddresses:           ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	if err := secretfile.Create(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})); err != nil {
		return err
	}
	return secretfile.Create(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// boxNames are the names and addresses a till may use to reach the box.
func boxNames() ([]string, []net.IP) {
	names := []string{}
	if h, err := os.Hostname(); err == nil && h != "" {
		h = strings.ToLower(h)
		names = append(names, h)
		if !strings.Contains(h, ".") {
			names = append(names, h+".local")
		}
	}
	names = append(names, "localhost")
	ips := []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
				ips = append(ips, n.IP)
			}
		}
	}
	return names, ips
}
