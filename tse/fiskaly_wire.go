package tse

import (
	"bytes"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"strconv"
	"time"
)

// Wire forms of fiskaly SIGN DE v2's answers.

// flexUint decodes a counter sent as a number or as a string: fiskaly
// sends TSS counters as strings and signature.counter as a number although
// its schema says string.
type flexUint uint64

func (u *flexUint) UnmarshalJSON(b []byte) error {
	b = bytes.Trim(b, `"`)
	if len(b) == 0 || string(b) == "null" {
		*u = 0
		return nil
	}
	n, err := strconv.ParseUint(string(b), 10, 64)
	if err != nil {
		return fmt.Errorf("counter %s: %w", b, err)
	}
	*u = flexUint(n)
	return nil
}

type tssWire struct {
	ID                 string   `json:"_id"`
	State              string   `json:"state"`
	Description        string   `json:"description"`
	SerialNumber       string   `json:"serial_number"`
	PublicKey          string   `json:"public_key"`
	Certificate        string   `json:"certificate"`
	SignatureAlgorithm string   `json:"signature_algorithm"`
	SignatureCounter   flexUint `json:"signature_counter"`
	TransactionCounter flexUint `json:"transaction_counter"`
	RegisteredClients  int      `json:"number_registered_clients"`
	MaxClients         int      `json:"max_number_registered_clients"`
	ActiveTransactions int      `json:"number_active_transactions"`
	MaxActiveTx        int      `json:"max_number_active_transactions"`
	BSICertificationID string   `json:"bsi_certification_id"`
	AdminPUK           string   `json:"admin_puk"`
}

// info converts the wire TSS; the certificate (base64 DER, tolerated as
// base64 PEM) gives NotAfter. A certificate that does not parse leaves
// NotAfter zero, which the self-test reports.
func (w tssWire) info() TSSInfo {
	in := TSSInfo{
		ID: w.ID, State: w.State, Description: w.Description, SerialNumber: w.SerialNumber,
		PublicKey: w.PublicKey, SignatureAlgorithm: w.SignatureAlgorithm,
		SignatureCounter: uint64(w.SignatureCounter), TransactionCounter: uint64(w.TransactionCounter),
		ActiveTransactions: w.ActiveTransactions, MaxActiveTx: w.MaxActiveTx,
		RegisteredClients: w.RegisteredClients, MaxClients: w.MaxClients,
		BSICertificationID: w.BSICertificationID,
	}
	der, err := base64.StdEncoding.DecodeString(w.Certificate)
	if err != nil {
		der = []byte(w.Certificate) // perhaps PEM as it is
	}
	if blk, _ := pem.Decode(der); blk != nil {
		der = blk.Bytes
	}
	if len(der) > 0 {
		in.CertificateDER = der
		if c, err := x509.ParseCertificate(der); err == nil {
			in.CertNotAfter = c.NotAfter
		}
	}
	return in
}

type clientWire struct {
	ID           string `json:"_id"`
	SerialNumber string `json:"serial_number"`
	State        string `json:"state"`
	TSSID        string `json:"tss_id"`
}

func (w clientWire) info() ClientInfo {
	return ClientInfo(w)
}

type txWire struct {
	ID                 string   `json:"_id"`
	TSSID              string   `json:"tss_id"`
	TSSSerialNumber    string   `json:"tss_serial_number"`
	ClientID           string   `json:"client_id"`
	ClientSerialNumber string   `json:"client_serial_number"`
	Number             flexUint `json:"number"`
	State              string   `json:"state"`
	Revision           int      `json:"revision"`
	LatestRevision     int      `json:"latest_revision"`
	TimeStart          int64    `json:"time_start"`
	TimeEnd            *int64   `json:"time_end"`
	Schema             struct {
		Raw *struct {
			ProcessType string `json:"process_type"`
			ProcessData string `json:"process_data"`
		} `json:"raw"`
	} `json:"schema"`
	Log struct {
		Operation string `json:"operation"`
		Timestamp int64  `json:"timestamp"`
	} `json:"log"`
	Signature struct {
		Value     string   `json:"value"`
		Algorithm string   `json:"algorithm"`
		Counter   flexUint `json:"counter"`
		PublicKey string   `json:"public_key"`
	} `json:"signature"`
	QRCodeData string `json:"qr_code_data"`
}

func (w txWire) tx() Tx {
	t := Tx{
		ID: w.ID, TSSID: w.TSSID, TSSSerialNumber: w.TSSSerialNumber,
		ClientID: w.ClientID, ClientSerialNumber: w.ClientSerialNumber,
		Number: uint64(w.Number), State: w.State, Revision: w.Revision, LatestRevision: w.LatestRevision,
		TimeStart: time.Unix(w.TimeStart, 0).UTC(), LogOperation: w.Log.Operation,
		LogTime: time.Unix(w.Log.Timestamp, 0).UTC(),
		Signature: Signature{Value: w.Signature.Value, Algorithm: w.Signature.Algorithm,
			Counter: uint64(w.Signature.Counter), PublicKey: w.Signature.PublicKey},
		QRCodeData: w.QRCodeData,
	}
	if w.TimeEnd != nil && *w.TimeEnd > 0 {
		end := time.Unix(*w.TimeEnd, 0).UTC()
		t.TimeEnd = &end
	}
	if raw := w.Schema.Raw; raw != nil {
		t.ProcessType = raw.ProcessType
		if pd, err := base64.StdEncoding.DecodeString(raw.ProcessData); err == nil {
			t.ProcessData = string(pd)
		} else {
			t.ProcessData = raw.ProcessData
		}
	}
	return t
}

type txListWire struct {
	Data  []txWire `json:"data"`
	Count int      `json:"count"`
}

type authWire struct {
	AccessToken           string `json:"access_token"`
	AccessTokenExpiresIn  int64  `json:"access_token_expires_in"`
	RefreshToken          string `json:"refresh_token"`
	RefreshTokenExpiresIn int64  `json:"refresh_token_expires_in"`
}

type errorWire struct {
	StatusCode int    `json:"status_code"`
	Error      string `json:"error"`
	Code       string `json:"code"`
	Message    string `json:"message"`
}
