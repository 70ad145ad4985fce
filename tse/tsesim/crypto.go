package tsesim

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"time"

	"posbox/tse"
)

// loadOrCreateKey reads the TSS key (PKCS#8 PEM) or, with create, writes a
// new P-256 key there (0600, synced, atomically renamed into place).
func loadOrCreateKey(path string, create bool) (*ecdsa.PrivateKey, error) {
	if !create {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("simulator key: %w", err)
		}
		blk, _ := pem.Decode(b)
		if blk == nil || blk.Type != "PRIVATE KEY" {
			return nil, fmt.Errorf("simulator key %s: not a PKCS#8 PEM block", path)
		}
		k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
		if err != nil {
			return nil, fmt.Errorf("simulator key %s: %w", path, err)
		}
		ec, ok := k.(*ecdsa.PrivateKey)
		if !ok || ec.Curve != elliptic.P256() {
			return nil, fmt.Errorf("simulator key %s: not an ECDSA P-256 key", path)
		}
		return ec, nil
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	data := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	if err := writeFileSync(path, data, 0o600); err != nil {
		return nil, err
	}
	return key, nil
}

// writeFileSync replaces path with data durably: temp file, fsync, rename.
func writeFileSync(path string, data []byte, mode os.FileMode) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// issueCertificate makes the TSS's certificate and the CA certificate
// that issued it: a fresh "posbox Simulator CA" key per issue (used once,
// then dropped), P-256, ecdsa-with-SHA384 like fiskaly's TEST CA. As in a
// certified TSE's certificate, the subject CN and the certificate serial
// are the TSS serial (the SHA-256 of the public key).
func issueCertificate(key *ecdsa.PrivateKey, notBefore, notAfter time.Time) (leaf, ca []byte, err error) {
	serial := tse.SerialNumber(&key.PublicKey)
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          new(big.Int).SetBytes([]byte(serial[:16])),
		Subject:               pkix.Name{CommonName: "posbox Simulator CA " + serial[:8], Organization: []string{"posbox"}},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		SignatureAlgorithm:    x509.ECDSAWithSHA384,
	}
	if ca, err = x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey); err != nil {
		return nil, nil, err
	}
	caCert, err := x509.ParseCertificate(ca)
	if err != nil {
		return nil, nil, err
	}
	n, _ := new(big.Int).SetString(serial, 16)
	tmpl := &x509.Certificate{
		SerialNumber:       n,
		Subject:            pkix.Name{CommonName: serial, Organization: []string{"posbox Simulator TSE"}},
		NotBefore:          notBefore,
		NotAfter:           notAfter,
		KeyUsage:           x509.KeyUsageDigitalSignature,
		SignatureAlgorithm: x509.ECDSAWithSHA384,
	}
	if leaf, err = x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey); err != nil {
		return nil, nil, err
	}
	return leaf, ca, nil
}

// signPlain is ecdsa-plain-SHA256: r||s, 32 bytes each, base64.
func signPlain(key *ecdsa.PrivateKey, data []byte) (string, error) {
	h := sha256.Sum256(data)
	r, s, err := ecdsa.Sign(rand.Reader, key, h[:])
	if err != nil {
		return "", err
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return base64.StdEncoding.EncodeToString(sig), nil
}
