package tsesim

import (
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"time"

	"posbox/tse"
	"posbox/tse/tsetar"
)

// The simulator keeps one TR-03151 log message per signature counter, as
// a TSE does: a transaction log for every transaction revision (its
// signature is the one the revision answers and the receipt prints) and
// a system log for every other event that consumes a counter (state
// changes, admin PIN, admin login and logout, client registration). The
// journal holds what each message needs, so an export can rebuild them
// byte for byte (export.go writes them into the TAR).

// logVersionTR marks journal records signed as TR-03151 log messages;
// records written before carry the simulator's older "|"-joined signed
// data, and an export signs their log message afresh.
const logVersionTR = 1

// signTx signs a revision as its TR-03151 transaction log message.
func signTx(key *ecdsa.PrivateKey, tx tse.Tx) (string, error) {
	m, err := tse.TxLogMessage(tx)
	if err != nil {
		return "", err
	}
	if err := m.Sign(key); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(m.SignatureValue), nil
}

// systemEvent names the TR-03151 system operation of a journal record
// that consumes a counter, with its systemOperationData (DER content).
func systemEvent(rec record) (event string, data []byte) {
	switch rec.Op {
	case opTSSState:
		switch rec.State {
		case tse.TSSInitialized:
			event = "initialize"
		case tse.TSSDisabled:
			event = "disableSecureElement"
		default: // personalisation (UNINITIALIZED) and forced states
			event = "updateDevice"
		}
		return event, ctxString(1, "state:"+rec.State)
	case opAdminPIN:
		return "unblockUser", ctxString(1, "admin")
	case opAdminAuth:
		// userId, role admin (0), authenticationResult TRUE
		return "authenticateUser", append(ctxString(1, "admin"), 0x82, 1, 0, 0x83, 1, 0xff)
	case opAdminLogout:
		return "logOut", ctxString(1, "admin")
	case opClient:
		if rec.State == tse.ClientDeregistered {
			return "deregisterClient", ctxString(1, rec.Serial)
		}
		return "registerClient", ctxString(1, rec.Serial)
	}
	return "updateDevice", nil
}

// ctxString is a context-specific primitive TLV holding s.
func ctxString(tag byte, s string) []byte {
	if len(s) > 127 {
		s = s[:127]
	}
	return append([]byte{0x80 | tag, byte(len(s))}, s...)
}

// systemLogMessage is the system log message of a record, unsigned
// unless the record carries its signature.
func systemLogMessage(t *simTSS, rec record) *tsetar.LogMessage {
	serial, _ := hex.DecodeString(t.serial)
	return &tsetar.LogMessage{
		Kind: tsetar.KindSystem, SerialNumber: serial, SignatureAlgorithm: tsetar.OIDECDSAPlainSHA256,
		SignatureCounter: rec.Counter, LogTime: time.Unix(rec.Time, 0).UTC(),
		EventType: rec.Event, SystemOperationData: rec.EventData, SignatureValue: rec.LogSig,
	}
}

// signSystemLog fills a counter-consuming, non-transaction record's
// system log message and its signature before it is committed.
func signSystemLog(t *simTSS, rec *record) error {
	rec.Event, rec.EventData = systemEvent(*rec)
	m := systemLogMessage(t, *rec)
	if err := m.Sign(t.key); err != nil {
		return err
	}
	rec.LogSig, rec.LogV = m.SignatureValue, logVersionTR
	return nil
}

// logMessageOf rebuilds the log message of a journal record. Records
// from before TR-03151 signing get a fresh signature now.
func logMessageOf(t *simTSS, rec record) (*tsetar.LogMessage, error) {
	var m *tsetar.LogMessage
	if rec.Op == opTx {
		if rec.Tx == nil {
			return nil, fmt.Errorf("tse: journal tx record without transaction")
		}
		var err error
		if m, err = tse.TxLogMessage(*rec.Tx); err != nil {
			return nil, err
		}
	} else {
		if rec.Event == "" {
			rec.Event, rec.EventData = systemEvent(rec)
		}
		m = systemLogMessage(t, rec)
	}
	if rec.LogV != logVersionTR {
		m.SignatureValue = nil
		if err := m.Sign(t.key); err != nil {
			return nil, err
		}
	}
	return m, nil
}
