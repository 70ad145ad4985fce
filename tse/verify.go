package tse

// Checking a TSE's signatures: the key and serial forms fiskaly reports,
// and the TR-03151 transaction log message a revision's signature covers.
// The client's callers (the queue's self-test, the archive) verify with
// them, and the simulator signs what TxLogMessage builds.

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"posbox/tse/tsetar"
)

// publicKeyBytes is the 65-byte uncompressed point 04||X||Y, the form
// fiskaly reports (base64) and hashes into the serial number.
func publicKeyBytes(pub *ecdsa.PublicKey) []byte {
	k, err := pub.ECDH()
	if err != nil {
		panic(err) // a P-256 key always converts
	}
	return k.Bytes()
}

// EncodePublicKey is the key in the form fiskaly reports it: base64 of
// the uncompressed point (ParsePublicKey reads it back).
func EncodePublicKey(pub *ecdsa.PublicKey) string {
	return base64.StdEncoding.EncodeToString(publicKeyBytes(pub))
}

// SerialNumber is the TSS serial: hex SHA-256 of the public key bytes.
func SerialNumber(pub *ecdsa.PublicKey) string {
	sum := sha256.Sum256(publicKeyBytes(pub))
	return hex.EncodeToString(sum[:])
}

// ParsePublicKey reads fiskaly's base64 uncompressed P-256 point.
func ParsePublicKey(b64 string) (*ecdsa.PublicKey, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("public key: %w", err)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		return nil, fmt.Errorf("public key: %w", err)
	}
	return pub, nil
}

// VerifyTx checks a revision's signature with the TSS public key: over
// its TR-03151 transaction log message (operation, client serial, process
// data and type, transaction number, TSS serial, algorithm, counter, log
// time: what a certified TSE signs), or over the simulator's older signed
// data. It also checks that the transaction names that key's serial
// number.
func VerifyTx(pub *ecdsa.PublicKey, tx Tx) error {
	if tx.Signature.Algorithm != SignatureAlgorithm {
		return fmt.Errorf("tse: signature algorithm %q, want %s", tx.Signature.Algorithm, SignatureAlgorithm)
	}
	if tx.TSSSerialNumber != SerialNumber(pub) {
		return errors.New("tse: transaction names another TSS serial number")
	}
	if m, err := TxLogMessage(tx); err == nil && m.Verify(pub) == nil {
		return nil
	}
	if !VerifyPlain(pub, LegacySignedData(tx), tx.Signature.Value) {
		return errors.New("tse: signature does not verify (or is not 64 bytes of base64 r||s)")
	}
	return nil
}

// VerifyPlain checks an ecdsa-plain-SHA256 signature (base64 r||s, the
// SignatureAlgorithm) over data.
func VerifyPlain(pub *ecdsa.PublicKey, data []byte, b64 string) bool {
	sig, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(sig) != 64 {
		return false
	}
	r := new(big.Int).SetBytes(sig[:32])
	s := new(big.Int).SetBytes(sig[32:])
	h := sha256.Sum256(data)
	return ecdsa.Verify(pub, h[:], r, s)
}

// LegacySignedData is what the simulator signed before it signed TR-03151
// log messages (tse/tsesim): the values of a transaction log message in a
// simple "|"-joined form. Journals written then still carry such
// signatures, so VerifyTx accepts them.
func LegacySignedData(t Tx) []byte {
	return []byte(strings.Join([]string{
		"posbox-sim-v1",
		t.LogOperation,
		t.TSSSerialNumber,
		t.ClientSerialNumber,
		t.ID,
		strconv.Itoa(t.Revision),
		t.State,
		t.ProcessType,
		t.ProcessData,
		strconv.FormatUint(t.Number, 10),
		SignatureAlgorithm,
		strconv.FormatUint(t.Signature.Counter, 10),
		strconv.FormatInt(t.LogTime.Unix(), 10),
	}, "|"))
}

// txOperations maps Tx.LogOperation to TR-03151's operationType.
var txOperations = map[string]string{
	"Start":  tsetar.OpStartTransaction,
	"Update": tsetar.OpUpdateTransaction,
	"Finish": tsetar.OpFinishTransaction,
}

// TxLogMessage is the TR-03151 transaction log message of one revision,
// unsigned unless the revision carries a signature: what a certified TSE
// signs, and what the simulator signs and exports.
func TxLogMessage(tx Tx) (*tsetar.LogMessage, error) {
	op := txOperations[tx.LogOperation]
	if op == "" {
		return nil, fmt.Errorf("tse: log operation %q", tx.LogOperation)
	}
	serial, err := hex.DecodeString(tx.TSSSerialNumber)
	if err != nil || len(serial) != 32 {
		return nil, fmt.Errorf("tse: TSS serial %q is not 64 hex digits", tx.TSSSerialNumber)
	}
	m := &tsetar.LogMessage{
		Kind: tsetar.KindTransaction, SerialNumber: serial, SignatureAlgorithm: tsetar.OIDECDSAPlainSHA256,
		SignatureCounter: tx.Signature.Counter, LogTime: tx.LogTime,
		Operation: op, ClientID: tx.ClientSerialNumber, ProcessData: []byte(tx.ProcessData),
		ProcessType: tx.ProcessType, TransactionNumber: tx.Number,
	}
	if tx.Signature.Value != "" {
		if m.SignatureValue, err = base64.StdEncoding.DecodeString(tx.Signature.Value); err != nil {
			return nil, fmt.Errorf("tse: signature is not base64: %w", err)
		}
	}
	return m, nil
}
