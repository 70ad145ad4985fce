package fiscal

import (
	"time"

	"posbox/store"
	"posbox/tse"
)

// TSEStatus is the health of a restaurant's TSE as an admin sees it:
// fiscal/queue reports it (Queue.Status), the server renders it.
type TSEStatus struct {
	Healthy  bool
	Problems []string // why not healthy, in the order checked; empty when healthy
	Provider string   // fiskaly or simulator
	TSSID    string
	// Online: the provider answered just now and the circuit is closed.
	Online      bool
	CircuitOpen bool
	QueuePaused bool // the TSS cannot sign; the queue waits for it
	Queue       *store.TSEQueue
	// Known says whether anything is known of the TSS (Info, State).
	Known bool
	Info  store.TSEInfo
	State string // tse.PublicState of Info
	// DaysToCertificateExpiry is nil when no certificate is known.
	DaysToCertificateExpiry *int
	LastSelfTest            *store.TSESelfTest // nil before the first
	OpenOutage              *store.TSEOutage   // nil when none is open
	// LastError is the provider error that opened the circuit or paused
	// the queue (nil while neither).
	LastError *tse.Error
	Refused   []RefusedTerminal
}

// RefusedTerminal is a till the TSS refused to register (client limit):
// only its sales wait, retried every 30 s.
type RefusedTerminal struct {
	ClientSerial  string
	Err           *tse.Error
	NextAttemptAt time.Time
}
