package store

import (
	"time"

	"posbox/tse"
)

// TSEInfo is the TSS as last seen, cached in kv by the TSE queue so the
// info endpoint can answer while the provider is unreachable.
type TSEInfo struct {
	ID           string    `json:"id"`
	Description  string    `json:"description"`
	State        string    `json:"state"` // raw provider state
	SerialNumber string    `json:"serial_number"`
	PublicKey    string    `json:"public_key"`
	CertNotAfter time.Time `json:"cert_not_after"`
	// The TSS certificate (base64 DER) and its BSI certification id, for
	// the DSFinV-K tse.csv and the §146a (4) AO registration.
	Certificate        string    `json:"certificate,omitempty"`
	BSICertificationID string    `json:"bsi_certification_id,omitempty"`
	ActiveTransactions int       `json:"active_transactions"`
	MaxActiveTx        int       `json:"max_active_transactions"`
	FetchedAt          time.Time `json:"fetched_at"`
}

// TSEStatus is the health of a restaurant's TSE as an admin sees it.
type TSEStatus struct {
	Healthy  bool
	Problems []string // why not healthy, in the order checked; empty when healthy
	Provider string   // fiskaly or simulator
	TSSID    string
	// Online: the provider answered just now and the circuit is closed.
	Online      bool
	CircuitOpen bool
	QueuePaused bool // the TSS cannot sign; the queue waits for it
	Queue       *TSEQueue
	// Known says whether anything is known of the TSS (Info, State).
	Known bool
	Info  TSEInfo
	State string // tse.PublicState of Info
	// DaysToCertificateExpiry is nil when no certificate is known.
	DaysToCertificateExpiry *int
	LastSelfTest            *TSESelfTest // nil before the first
	OpenOutage              *TSEOutage   // nil when none is open
	// LastError is the provider error that opened the circuit or paused
	// the queue (nil while neither).
	LastError *tse.Error
	Refused   []TSERefusedTerminal
}

// TSERefusedTerminal is a till the TSS refused to register (client limit):
// only its sales wait, retried every 30 s.
type TSERefusedTerminal struct {
	ClientSerial  string
	Err           *tse.Error
	NextAttemptAt time.Time
}
