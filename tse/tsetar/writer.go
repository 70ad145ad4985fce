package tsetar

import (
	"archive/tar"
	"crypto/ecdsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// InfoFile is the name of the export's info file.
const InfoFile = "info.csv"

// Writer writes an export TAR: log messages, certificates and info.csv,
// each a regular file at the top level, owner 0/0, mode 0644, as
// certified TSEs write them. Names up to 99 bytes use the ustar format;
// longer ones make archive/tar switch to PAX, which the BSI accepts.
type Writer struct {
	tw      *tar.Writer
	modTime time.Time
	names   map[string]int // file name → how many times used (for _Fc-n)
}

// NewWriter writes a TAR to w; every entry gets modTime.
func NewWriter(w io.Writer, modTime time.Time) *Writer {
	return &Writer{tw: tar.NewWriter(w), modTime: modTime.UTC().Truncate(time.Second), names: map[string]int{}}
}

func (w *Writer) file(name string, data []byte) error {
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(data)), ModTime: w.modTime}
	if err := w.tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("tsetar: %s: %w", name, err)
	}
	if _, err := w.tw.Write(data); err != nil {
		return fmt.Errorf("tsetar: %s: %w", name, err)
	}
	return nil
}

// WriteInfo writes info.csv in the form certified TSEs use:
// "description:","…","manufacturer:","…","version:","…".
func (w *Writer) WriteInfo(description, manufacturer, version string) error {
	q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	line := strings.Join([]string{q("description:"), q(description), q("manufacturer:"), q(manufacturer), q("version:"), q(version)}, ",")
	return w.file(InfoFile, []byte(line+"\n"))
}

// KeyHash is the upper-case hex SHA-256 of an EC public key's
// uncompressed point: the TSE serial as certificate file names show it.
func KeyHash(pub *ecdsa.PublicKey) (string, error) {
	k, err := pub.ECDH()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(k.Bytes())
	return strings.ToUpper(hex.EncodeToString(sum[:])), nil
}

// WriteCertificate writes a certificate (DER) as <KEYHASH>_X509.crt, PEM
// encoded, KEYHASH being the hash of the certified key.
func (w *Writer) WriteCertificate(der []byte) error {
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return fmt.Errorf("tsetar: certificate: %w", err)
	}
	pub, ok := cert.PublicKey.(*ecdsa.PublicKey)
	if !ok {
		return errors.New("tsetar: certificate: not an EC key")
	}
	h, err := KeyHash(pub)
	if err != nil {
		return fmt.Errorf("tsetar: certificate: %w", err)
	}
	return w.file(h+"_X509.crt", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// WriteLogMessage marshals a signed message and writes it under its file
// name (with _Fc-n appended when the name was taken); it returns that
// name.
func (w *Writer) WriteLogMessage(m *LogMessage) (string, error) {
	der, err := m.Marshal()
	if err != nil {
		return "", err
	}
	name := m.FileName()
	if n := w.names[name]; n > 0 {
		w.names[name] = n + 1
		name = strings.TrimSuffix(name, ".log") + "_Fc-" + strconv.Itoa(n) + ".log"
	} else {
		w.names[name] = 1
	}
	return name, w.file(name, der)
}

// WriteRaw writes a file as given (tests use it to build damaged TARs).
func (w *Writer) WriteRaw(name string, data []byte) error { return w.file(name, data) }

// Close finishes the TAR (it does not close the underlying writer).
func (w *Writer) Close() error { return w.tw.Close() }
