package tse

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"testing"
	"time"
)

// testCertificate is a TSS certificate as the provider reports it: a
// P-256 key's self-signed certificate, valid for a year from notBefore.
func testCertificate(t testing.TB, notBefore time.Time) TSSInfo {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: SerialNumber(&key.PublicKey)},
		NotBefore: notBefore, NotAfter: notBefore.AddDate(1, 0, 0), SignatureAlgorithm: x509.ECDSAWithSHA384}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return TSSInfo{CertificateDER: der, CertNotAfter: tmpl.NotAfter}
}

func TestFiskalyWireTolerance(t *testing.T) {
	info := testCertificate(t, time.Date(2026, 3, 14, 11, 30, 0, 0, time.UTC))
	pemCert := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: info.CertificateDER}))
	for name, cert := range map[string]string{
		"base64 DER": base64.StdEncoding.EncodeToString(info.CertificateDER),
		"base64 PEM": base64.StdEncoding.EncodeToString([]byte(pemCert)),
		"PEM":        pemCert,
	} {
		var w tssWire
		b, _ := json.Marshal(map[string]any{"certificate": cert, "signature_counter": "27", "transaction_counter": 3})
		if err := json.Unmarshal(b, &w); err != nil {
			t.Fatal(err)
		}
		got := w.info()
		if !got.CertNotAfter.Equal(info.CertNotAfter) || got.SignatureCounter != 27 || got.TransactionCounter != 3 {
			t.Fatalf("%s: %+v", name, got)
		}
	}
	var tx txWire
	json.Unmarshal([]byte(`{"number":"4","signature":{"counter":"33"},"time_end":0}`), &tx)
	if got := tx.tx(); got.Number != 4 || got.Signature.Counter != 33 || got.TimeEnd != nil {
		t.Fatalf("tx %+v", got)
	}
}
