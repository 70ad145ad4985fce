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

// simAdmin is the userId of the TSS admin in system logs (fiskaly's
// exports name it "admin" too).
const simAdmin = "admin"

// simDevice is the simulator's DeviceInformationSet (updateDevice's
// oldVersion). It names no BSI certification: the simulator has none.
var simDevice = []tsetar.ComponentInformation{{Name: "tss", Manufacturer: "posbox", Model: "posbox simulator", Version: "1"}}

// systemEvent names the TR-03151 system operation of a journal record
// that consumes a counter, with its systemOperationData (DER content):
// the fields TR-03151 defines for the operation, as certified TSEs
// write them.
func systemEvent(rec record) (event string, data []byte) {
	switch rec.Op {
	case opTSSState:
		switch rec.State {
		case tse.TSSInitialized:
			return "initialize", ctxString(1, "state:"+rec.State) // description
		case tse.TSSDisabled:
			// timeOfDeactivation, unixTime as the log time is
			return "disableSecureElement", ctxUint(1, uint64(rec.Time))
		}
		return updateDevice() // personalisation (UNINITIALIZED) and forced states
	case opAdminPIN:
		// the PIN set with the PUK unblocks the admin
		return "unblockUser", tsetar.UnblockUserData(simAdmin, tsetar.UnblockOK)
	case opAdminAuth:
		// userId, role admin (0), authenticationResult TRUE
		return "authenticateUser", append(ctxString(1, simAdmin), 0x82, 1, 0, 0x83, 1, 0xff)
	case opAdminLogout:
		return "logOut", tsetar.LogOutData(simAdmin, tsetar.LogOutByUser)
	case opClient:
		if rec.State == tse.ClientDeregistered {
			return "deregisterClient", ctxString(1, rec.Serial)
		}
		return "registerClient", ctxString(1, rec.Serial)
	}
	return updateDevice()
}

// updateDevice is the system log of a state change that is neither
// initialisation nor decommissioning.
func updateDevice() (string, []byte) {
	data, err := tsetar.UpdateDeviceData(simAdmin, simDevice)
	if err != nil {
		panic(err) // simDevice is fixed PrintableStrings
	}
	return "updateDevice", data
}

// ctxString is a context-specific primitive TLV holding s.
func ctxString(tag byte, s string) []byte {
	if len(s) > 127 {
		s = s[:127]
	}
	return append([]byte{0x80 | tag, byte(len(s))}, s...)
}

// ctxUint is a context-specific primitive TLV holding n as an INTEGER's
// content (big-endian, minimal, non-negative).
func ctxUint(tag byte, n uint64) []byte {
	v := []byte{byte(n)}
	for n >>= 8; n > 0; n >>= 8 {
		v = append([]byte{byte(n)}, v...)
	}
	if v[0]&0x80 != 0 {
		v = append([]byte{0}, v...)
	}
	return append([]byte{0x80 | tag, byte(len(v))}, v...)
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
// from before TR-03151 signing, and system logs written before the
// simulator encoded every field TR-03151 makes mandatory, get the
// complete message and a fresh signature now: no receipt shows a system
// log's signature, and its counter and time stay as they were.
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
		if rec.Event == "" || tsetar.CheckSystemOperationData(rec.Event, rec.EventData) != nil {
			rec.Event, rec.EventData = systemEvent(rec)
			rec.LogV = 0 // signed over the incomplete data
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
