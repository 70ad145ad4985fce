package tsetar

import (
	"crypto/ecdsa"
	"errors"
	"io"
	"time"
)

var errNotImplemented = errors.New("tsetar: not implemented")

// Marshal encodes the log message as DER (it must be signed).
func (m *LogMessage) Marshal() ([]byte, error) { return nil, errNotImplemented }

// DataToBeSigned is what the signature covers: the value bytes (without
// tag and length) of every element from version to logTime, in order.
func (m *LogMessage) DataToBeSigned() ([]byte, error) { return nil, errNotImplemented }

// Sign sets SignatureValue with key (ecdsa-plain over the hash the
// SignatureAlgorithm names; an empty one becomes ecdsa-plain-SHA256).
func (m *LogMessage) Sign(key *ecdsa.PrivateKey) error { return errNotImplemented }

// Verify checks SignatureValue against pub.
func (m *LogMessage) Verify(pub *ecdsa.PublicKey) error { return errNotImplemented }

// FileName is the message's TR-03151 file name (without the _Fc-n that
// the Writer adds to duplicates).
func (m *LogMessage) FileName() string { return "" }

// ParseLogMessage decodes one DER log message.
func ParseLogMessage(der []byte) (*LogMessage, error) { return nil, errNotImplemented }

// Writer writes an export TAR.
type Writer struct{}

// NewWriter writes a TAR to w; every entry gets modTime.
func NewWriter(w io.Writer, modTime time.Time) *Writer { return &Writer{} }

// WriteInfo writes info.csv.
func (w *Writer) WriteInfo(description, manufacturer, version string) error {
	return errNotImplemented
}

// WriteCertificate writes a certificate (DER) as <KEYHASH>_X509.crt.
func (w *Writer) WriteCertificate(der []byte) error { return errNotImplemented }

// WriteLogMessage marshals a signed message and writes it under its file
// name; it returns that name.
func (w *Writer) WriteLogMessage(m *LogMessage) (string, error) { return "", errNotImplemented }

// Close finishes the TAR (it does not close the underlying writer).
func (w *Writer) Close() error { return errNotImplemented }

// Options says what Verify checks beyond the signatures.
type Options struct {
	// PublicKey verifies the signatures; nil: the key of the certificate
	// in the TAR whose key hash is the messages' serial number.
	PublicKey *ecdsa.PublicKey
	// SerialNumber is the expected TSE serial (hex, any case); "" accepts
	// the serial the messages carry, as long as they all agree.
	SerialNumber string
	// FirstCounter is the signature counter the export must start with
	// (the previous archive's last counter + 1); 0: any.
	FirstCounter uint64
	// LastCounter is the signature counter the export must end with; 0:
	// any.
	LastCounter uint64
	// OnMessage, when set, sees every verified message in TAR order and
	// Report.Messages stays empty (for exports too big to keep).
	OnMessage func(Entry) error
}

// Verify reads an export TAR, parses every log message, verifies its
// signature, checks the serial and that the signature counters run
// without gap or duplicate. The report describes what was read even when
// err is not nil; err joins every problem found.
func Verify(r io.Reader, opts Options) (*Report, error) { return nil, errNotImplemented }
