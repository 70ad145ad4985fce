// Package tsetar writes and reads the TAR export of a German TSE (BSI
// TR-03151 / TR-03153): one ASN.1 DER log message per signature, the TSE's
// certificate chain and info.csv. The simulator writes such TARs; the
// fiscal archive reads one back and verifies every signature and the
// signature counters before it counts as archived (docs/TSE.md, "TAR
// exports").
//
// It imports only the standard library, so it sits below tse and
// everything that reads a TAR. tsetar.go: the TAR's parts and reading
// them; writer.go: writing one (the simulator's exports); logmessage.go:
// the TR-03151 log message, parsed and built; ber.go: certified TSEs write
// BER, not strict DER, so messages are split into TLVs here and the
// signature is checked over the bytes as written; systemlog.go: the
// fields TR-03151 makes mandatory in system logs, built and checked;
// verify.go: Verify, every signature against the TSS's key, the serial
// and the counters.
package tsetar

import (
	"encoding/asn1"
	"fmt"
	"time"
)

// Object identifiers of TR-03151 (certifiedDataType) and BSI TR-03111
// (signature algorithms, "plain" = r||s).
var (
	OIDTransactionLog = asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 3, 7, 1, 1}
	OIDSystemLog      = asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 3, 7, 1, 2}
	OIDAuditLog       = asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 3, 7, 1, 3}

	OIDECDSAPlainSHA256 = asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 1, 1, 4, 1, 3}
	OIDECDSAPlainSHA384 = asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 1, 1, 4, 1, 4}
	OIDECDSAPlainSHA512 = asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 1, 1, 4, 1, 5}
)

// Kind is the type of a log message.
type Kind string

// Log message kinds.
const (
	KindTransaction Kind = "transaction"
	KindSystem      Kind = "system"
	KindAudit       Kind = "audit"
)

// Transaction log operation types as TR-03151 spells them inside the
// message; Entry.Operation and the file name use Start/Update/Finish.
const (
	OpStartTransaction  = "StartTransaction"
	OpUpdateTransaction = "UpdateTransaction"
	OpFinishTransaction = "FinishTransaction"
)

// LogMessage is one TR-03151 log message. The fields a Kind does not use
// stay zero. Build one, Sign it, Marshal it; or ParseLogMessage.
type LogMessage struct {
	Kind Kind
	// SerialNumber is the TSE serial: SHA-256 of the public key in
	// uncompressed-point form (32 bytes).
	SerialNumber       []byte
	SignatureAlgorithm asn1.ObjectIdentifier
	SignatureCounter   uint64
	// LogTime is encoded as unixTime (INTEGER seconds), as fiskaly does.
	LogTime        time.Time
	SignatureValue []byte // r||s

	// Transaction logs.
	Operation              string // OpStartTransaction, ...
	ClientID               string // PrintableString: the client's serial number
	ProcessData            []byte
	ProcessType            string
	AdditionalExternalData []byte // optional
	TransactionNumber      uint64
	AdditionalInternalData []byte // optional (also on system logs)

	// System logs: EventType is the operation ("initialize",
	// "registerClient", "selfTest", ...); SystemOperationData is the
	// content of the [1] element (DER of the operation's parameters).
	EventType           string
	SystemOperationData []byte

	// Audit logs.
	SEAuditData []byte

	raw        []byte // data to be signed, as parsed
	timeFormat string // logTime's encoding, as parsed ("" = unixTime)
}

// ShortOperation is "Start", "Update" or "Finish" for a transaction log
// (the form the file name uses), "" otherwise.
func (m *LogMessage) ShortOperation() string {
	switch m.Operation {
	case OpStartTransaction:
		return "Start"
	case OpUpdateTransaction:
		return "Update"
	case OpFinishTransaction:
		return "Finish"
	}
	return ""
}

// Entry is what a Report keeps of one log message (not its process data,
// so that a million of them fit in memory).
type Entry struct {
	File             string // name inside the TAR
	Kind             Kind
	SignatureCounter uint64
	LogTime          time.Time
	// Transaction logs.
	TransactionNumber uint64
	Operation         string // Start, Update or Finish
	ClientID          string // the client's serial number
	ProcessType       string
	// System logs.
	EventType string
}

// Report is what Verify found in a TAR.
type Report struct {
	// SerialNumber is the TSE serial the messages carry, lowercase hex
	// (as tse.TSSInfo.SerialNumber).
	SerialNumber string
	// Info is info.csv as found ("" if absent).
	Info string
	// Certificates are the certificate files' names.
	Certificates []string
	// Messages are the log messages ordered by signature counter (empty
	// when Options.OnMessage consumed them).
	Messages []Entry
	// Count is the number of log messages; First and LastCounter their
	// lowest and highest signature counter (0 when there are none).
	Count        int
	FirstCounter uint64
	LastCounter  uint64
	// Transactions counts transaction log messages.
	Transactions int
}

// Errors. Verify returns every problem it found (up to a limit) joined
// with errors.Join; find them with errors.As.

// GapError: the signature counters First..Last (inclusive) are missing.
type GapError struct {
	First, Last uint64
}

func (e *GapError) Error() string {
	if e.First == e.Last {
		return fmt.Sprintf("tsetar: signature counter %d missing", e.First)
	}
	return fmt.Sprintf("tsetar: signature counters %d-%d missing", e.First, e.Last)
}

// DuplicateCounterError: two files carry the same signature counter, so
// the counters are not strictly increasing.
type DuplicateCounterError struct {
	Counter uint64
	Files   [2]string
}

func (e *DuplicateCounterError) Error() string {
	return fmt.Sprintf("tsetar: signature counter %d in both %s and %s", e.Counter, e.Files[0], e.Files[1])
}

// SignatureError: a log message's signature does not verify.
type SignatureError struct {
	File    string
	Counter uint64
	Reason  string
}

func (e *SignatureError) Error() string {
	return fmt.Sprintf("tsetar: %s (signature counter %d): bad signature: %s", e.File, e.Counter, e.Reason)
}

// MalformedError: a file is not what its name or TR-03151 says (not DER,
// wrong structure, name disagrees with content, not a TAR).
type MalformedError struct {
	File string
	Err  error
}

func (e *MalformedError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("tsetar: malformed export: %v", e.Err)
	}
	return fmt.Sprintf("tsetar: %s: malformed: %v", e.File, e.Err)
}

func (e *MalformedError) Unwrap() error { return e.Err }

// SerialMismatchError: a log message (or the key) names another TSE
// serial than expected.
type SerialMismatchError struct {
	File      string
	Want, Got string // lowercase hex
}

func (e *SerialMismatchError) Error() string {
	return fmt.Sprintf("tsetar: %s: TSE serial %s, want %s", e.File, e.Got, e.Want)
}

// CertificateError: no usable certificate for the TSE serial (and no key
// given), or a certificate file that cannot be read.
type CertificateError struct {
	File string
	Err  error
}

func (e *CertificateError) Error() string {
	return fmt.Sprintf("tsetar: certificate %s: %v", e.File, e.Err)
}

func (e *CertificateError) Unwrap() error { return e.Err }
