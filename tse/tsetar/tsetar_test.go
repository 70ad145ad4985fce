package tsetar

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type fixture struct {
	key    *ecdsa.PrivateKey
	serial []byte
	cert   []byte
	t0     time.Time
}

func newFixture(t testing.TB) fixture {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := key.PublicKey.ECDH()
	sum := sha256.Sum256(k.Bytes())
	tmpl := &x509.Certificate{SerialNumber: new(big.Int).SetBytes(sum[:]), Subject: pkix.Name{CommonName: "test"},
		NotBefore: time.Unix(1.7e9, 0), NotAfter: time.Unix(1.8e9, 0)}
	cert, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return fixture{key: key, serial: sum[:], cert: cert, t0: time.Unix(1_760_000_000, 0)}
}

// messages makes n signed messages with counters from first: a system
// log (registerClient), then transactions start/finish.
func (f fixture) messages(t testing.TB, first uint64, n int) []*LogMessage {
	t.Helper()
	var out []*LogMessage
	for i := range n {
		c := first + uint64(i)
		m := &LogMessage{SerialNumber: f.serial, SignatureCounter: c, LogTime: f.t0.Add(time.Duration(c) * time.Second)}
		switch {
		case i == 0:
			m.Kind, m.EventType, m.SystemOperationData = KindSystem, "registerClient", []byte{0x81, 0x01, 'A'}
		default:
			m.Kind, m.ClientID, m.ProcessType = KindTransaction, "KASSE 1", "Kassenbeleg-V1"
			m.TransactionNumber = uint64(i+1) / 2
			if i%2 == 1 {
				m.Operation = OpStartTransaction
				m.ProcessData = []byte{}
			} else {
				m.Operation = OpFinishTransaction
				m.ProcessData = []byte("Beleg^10.00_0.00_0.00_0.00_0.00^10.00:Bar")
			}
		}
		if err := m.Sign(f.key); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func (f fixture) tar(t testing.TB, msgs []*LogMessage, edit func(w *Writer)) []byte {
	t.Helper()
	var b bytes.Buffer
	w := NewWriter(&b, f.t0)
	if err := w.WriteInfo("posbox test", "posbox", "1"); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteCertificate(f.cert); err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if _, err := w.WriteLogMessage(m); err != nil {
			t.Fatal(err)
		}
	}
	if edit != nil {
		edit(w)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestRoundTripVerifies(t *testing.T) {
	f := newFixture(t)
	msgs := f.messages(t, 1, 9)
	rep, err := Verify(bytes.NewReader(f.tar(t, msgs, nil)), Options{FirstCounter: 1, LastCounter: 9})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Count != 9 || rep.Transactions != 8 || rep.FirstCounter != 1 || rep.LastCounter != 9 {
		t.Fatalf("report %+v", rep)
	}
	if rep.SerialNumber != strings.ToLower(hexOf(f.serial)) || !strings.Contains(rep.Info, "posbox test") || len(rep.Certificates) != 1 {
		t.Fatalf("report %+v", rep)
	}
	e := rep.Messages[2]
	if e.Kind != KindTransaction || e.TransactionNumber != 1 || e.Operation != "Finish" || e.ClientID != "KASSE 1" ||
		e.SignatureCounter != 3 || !e.LogTime.Equal(f.t0.Add(3*time.Second)) || e.ProcessType != "Kassenbeleg-V1" {
		t.Fatalf("entry %+v", e)
	}
	if want := "Unixt_1760000003_Sig-3_Log-Tra_No-1_Finish_Client-KASSE 1.log"; e.File != want {
		t.Fatalf("file %q, want %q", e.File, want)
	}
	if s := rep.Messages[0]; s.Kind != KindSystem || s.EventType != "registerClient" || s.File != "Unixt_1760000001_Sig-1_Log-Sys_registerClient.log" {
		t.Fatalf("system entry %+v", s)
	}
	// Parsing gives back every field.
	der, _ := msgs[2].Marshal()
	m, err := ParseLogMessage(der)
	if err != nil {
		t.Fatal(err)
	}
	if string(m.ProcessData) != string(msgs[2].ProcessData) || m.Operation != OpFinishTransaction || !m.SignatureAlgorithm.Equal(OIDECDSAPlainSHA256) {
		t.Fatalf("parsed %+v", m)
	}
	if err := m.Verify(&f.key.PublicKey); err != nil {
		t.Fatal(err)
	}
}

func hexOf(b []byte) string {
	const d = "0123456789abcdef"
	var s strings.Builder
	for _, c := range b {
		s.WriteByte(d[c>>4])
		s.WriteByte(d[c&15])
	}
	return s.String()
}

func TestGapIsCaught(t *testing.T) {
	f := newFixture(t)
	msgs := f.messages(t, 10, 8)
	msgs = append(msgs[:3], msgs[5:]...) // drop counters 13 and 14
	_, err := Verify(bytes.NewReader(f.tar(t, msgs, nil)), Options{})
	var gap *GapError
	if !errors.As(err, &gap) || gap.First != 13 || gap.Last != 14 {
		t.Fatalf("err %v, want gap 13-14", err)
	}
	// A missing head or tail against the expected range is a gap too.
	all := f.messages(t, 10, 8)
	_, err = Verify(bytes.NewReader(f.tar(t, all, nil)), Options{FirstCounter: 8, LastCounter: 19})
	var gaps []*GapError
	for _, e := range unjoin(err) {
		if g, ok := e.(*GapError); ok {
			gaps = append(gaps, g)
		}
	}
	if len(gaps) != 2 || gaps[0].First != 8 || gaps[0].Last != 9 || gaps[1].First != 18 || gaps[1].Last != 19 {
		t.Fatalf("err %v, want gaps 8-9 and 18-19", err)
	}
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

func TestTamperedSignatureIsCaught(t *testing.T) {
	f := newFixture(t)
	msgs := f.messages(t, 1, 5)
	msgs[2].ProcessData = []byte("Beleg^99.00_0.00_0.00_0.00_0.00^99.00:Bar") // changed after signing
	_, err := Verify(bytes.NewReader(f.tar(t, msgs, nil)), Options{})
	var se *SignatureError
	if !errors.As(err, &se) || se.Counter != 3 || se.File != msgs[2].FileName() {
		t.Fatalf("err %v, want a bad signature on %s", err, msgs[2].FileName())
	}
	// Another key's signature does not verify either.
	other := newFixture(t)
	good := f.messages(t, 1, 3)
	_, err = Verify(bytes.NewReader(f.tar(t, good, nil)), Options{PublicKey: &other.key.PublicKey})
	if !errors.As(err, &se) {
		t.Fatalf("err %v, want bad signatures with another key", err)
	}
}

func TestSerialMismatchIsCaught(t *testing.T) {
	f := newFixture(t)
	msgs := f.messages(t, 1, 3)
	other := newFixture(t)
	_, err := Verify(bytes.NewReader(f.tar(t, msgs, nil)), Options{SerialNumber: strings.ToUpper(hexOf(other.serial))})
	var sm *SerialMismatchError
	if !errors.As(err, &sm) || sm.Got != hexOf(f.serial) || sm.Want != hexOf(other.serial) {
		t.Fatalf("err %v, want serial mismatch", err)
	}
	// A message of another TSE inside the export.
	foreign := other.messages(t, 4, 1)
	_, err = Verify(bytes.NewReader(f.tar(t, append(msgs, foreign...), nil)), Options{})
	if !errors.As(err, &sm) || sm.File != foreign[0].FileName() {
		t.Fatalf("err %v, want serial mismatch on %s", err, foreign[0].FileName())
	}
}

func TestDuplicateAndMalformedAreCaught(t *testing.T) {
	f := newFixture(t)
	msgs := f.messages(t, 1, 4)
	dup := *msgs[3]
	dup.LogTime = dup.LogTime.Add(time.Second)
	if err := dup.Sign(f.key); err != nil {
		t.Fatal(err)
	}
	der, _ := msgs[1].Marshal()
	_, err := Verify(bytes.NewReader(f.tar(t, append(msgs, &dup), func(w *Writer) {
		_ = w.WriteRaw("Unixt_1760000009_Sig-9_Log-Sys_x.log", []byte{0x30, 0x03, 0x02, 0x01})
		_ = w.WriteRaw("Unixt_1_Sig-77_Log-Tra_No-1_Start_Client-KASSE 1.log", der) // name lies
	})), Options{})
	var dc *DuplicateCounterError
	if !errors.As(err, &dc) || dc.Counter != 4 {
		t.Fatalf("err %v, want duplicate counter 4", err)
	}
	var bad []string
	for _, e := range unjoin(err) {
		if me, ok := e.(*MalformedError); ok {
			bad = append(bad, me.File)
		}
	}
	if len(bad) != 2 {
		t.Fatalf("malformed %v (err %v), want both damaged files", bad, err)
	}
	if _, err := Verify(strings.NewReader("not a tar at all, just text that is long enough to fill a block"), Options{}); !errors.As(err, new(*MalformedError)) {
		t.Fatalf("err %v, want malformed", err)
	}
}

func TestMissingCertificate(t *testing.T) {
	f := newFixture(t)
	var b bytes.Buffer
	w := NewWriter(&b, f.t0)
	for _, m := range f.messages(t, 1, 2) {
		if _, err := w.WriteLogMessage(m); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	if _, err := Verify(bytes.NewReader(b.Bytes()), Options{}); !errors.As(err, new(*CertificateError)) {
		t.Fatalf("err %v, want certificate error", err)
	}
	// With the key given, no certificate is needed.
	if _, err := Verify(bytes.NewReader(b.Bytes()), Options{PublicKey: &f.key.PublicKey}); err != nil {
		t.Fatal(err)
	}
}

func TestDuplicateFileNamesGetFileCounter(t *testing.T) {
	f := newFixture(t)
	var b bytes.Buffer
	w := NewWriter(&b, f.t0)
	m := f.messages(t, 1, 1)[0]
	n1, _ := w.WriteLogMessage(m)
	n2, _ := w.WriteLogMessage(m)
	if n2 != strings.TrimSuffix(n1, ".log")+"_Fc-1.log" {
		t.Fatalf("names %q %q", n1, n2)
	}
}

// TestOpenSSLReadsTheDER cross-checks the encoding with an independent
// ASN.1 parser.
func TestOpenSSLReadsTheDER(t *testing.T) {
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl not installed: no independent ASN.1 parser to cross-check with")
	}
	f := newFixture(t)
	msgs := f.messages(t, 41, 3)
	dir := t.TempDir()
	for _, m := range msgs {
		der, err := m.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "m.der")
		if err := os.WriteFile(p, der, 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(openssl, "asn1parse", "-inform", "DER", "-in", p).CombinedOutput()
		if err != nil {
			t.Fatalf("openssl asn1parse: %v\n%s", err, out)
		}
		s := string(out)
		for _, want := range []string{"INTEGER           :02", "OBJECT            :0.4.0.127.0.7.3.7.1.", "OBJECT            :0.4.0.127.0.7.1.1.4.1.3",
			"OCTET STRING      [HEX DUMP]:" + strings.ToUpper(hexOf(f.serial))} {
			if !strings.Contains(s, want) {
				t.Fatalf("openssl output lacks %q:\n%s", want, s)
			}
		}
		if m.Kind == KindTransaction && !strings.Contains(s, "cont [ 5 ]") {
			t.Fatalf("no transactionNumber [5]:\n%s", s)
		}
	}
}
