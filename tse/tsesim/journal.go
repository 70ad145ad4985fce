package tsesim

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"posbox/tse"
)

// The simulator's state is its keys plus an append-only journal of JSON
// lines. Every change is appended and fsynced before it takes effect or is
// answered, and replaying the journal rebuilds the state: a crash loses
// nothing that was answered, and a signature counter once answered is never
// handed out again.

// journalFile is the journal's name in the state dir.
const journalFile = "journal.jsonl"

// Journal operations.
const (
	opTSSCreate   = "tss_create"
	opTSSState    = "tss_state"
	opTSSDesc     = "tss_description"
	opTSSMeta     = "tss_metadata" // merged into the TSS's metadata (metadata.go)
	opCert        = "certificate"
	opAdminPIN    = "admin_pin"
	opAdminFail   = "admin_auth_failed"
	opAdminAuth   = "admin_auth"
	opAdminLogout = "admin_logout"
	opClient      = "client"
	opTx          = "tx"
	opExport      = "export" // export.go
)

// record is one journal line. Counter is the signature counter the event
// consumed (0 for events that sign nothing).
type record struct {
	Op       string            `json:"op"`
	TSS      string            `json:"tss"`
	Time     int64             `json:"t"`
	Counter  uint64            `json:"counter,omitempty"`
	Default  bool              `json:"default,omitempty"`
	State    string            `json:"state,omitempty"`
	Desc     string            `json:"description,omitempty"`
	PUK      string            `json:"puk,omitempty"`
	PINHash  string            `json:"pin_hash,omitempty"`
	Cert     []byte            `json:"cert,omitempty"`
	CACert   []byte            `json:"ca_cert,omitempty"` // the CA certificate that issued Cert
	Client   string            `json:"client,omitempty"`
	Serial   string            `json:"serial,omitempty"`
	Metadata map[string]string `json:"metadata,omitempty"`
	BodyHash string            `json:"body_hash,omitempty"`
	Tx       *tse.Tx           `json:"tx,omitempty"`
	// StdV1 is the transaction's schema.standard_v1 as answers show it,
	// carried on to later revisions without a schema (absent for raw and
	// in journals written before it existed).
	StdV1 json.RawMessage `json:"standard_v1,omitempty"`
	// LogV is logVersionTR when the record's signature (Tx's or LogSig)
	// is over its TR-03151 log message (logs.go). Event, EventData and
	// LogSig are a system log message's operation, data and signature.
	LogV      int    `json:"log_v,omitempty"`
	Event     string `json:"event,omitempty"`
	EventData []byte `json:"event_data,omitempty"`
	LogSig    []byte `json:"log_sig,omitempty"`
	// Export is an export's state (export.go).
	Export *simExportRec `json:"export,omitempty"`
	// HistCounter and HistNumber are a history's end (history.go).
	HistCounter uint64 `json:"history_counter,omitempty"`
	HistNumber  uint64 `json:"history_number,omitempty"`
}

type journal struct {
	f      *os.File
	size   int64
	broken error // a failed write could not be cut back: refuse further writes
	noSync bool  // benchmarks only: build big journals quickly
}

// openJournal replays path through apply and opens it for appending. A
// torn last line (the process died while writing it, so it was never
// answered) is cut off; damage anywhere else refuses to open.
func openJournal(path string, apply func(rec record, off int64, n int) error) (*journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	var good int64
	r := bufio.NewReader(f)
	for line := 1; ; line++ {
		b, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			// Done; a rest without its newline is a torn tail: the process
			// died writing it, so it was never acknowledged.
			break
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		var rec record
		if err := json.Unmarshal(b, &rec); err != nil {
			if _, perr := r.Peek(1); errors.Is(perr, io.EOF) {
				break // torn last line that happens to end in a newline
			}
			f.Close()
			return nil, fmt.Errorf("simulator journal %s line %d: %w", path, line, err)
		}
		if err := apply(rec, good, len(b)); err != nil {
			f.Close()
			return nil, fmt.Errorf("simulator journal %s line %d: %w", path, line, err)
		}
		good += int64(len(b))
	}
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return &journal{f: f, size: good}, nil
}

// append writes one record durably and says where it lies. On failure
// the file is cut back so a half-written line cannot sit in front of later
// ones.
func (j *journal) append(rec record) (off int64, n int, err error) {
	if j.broken != nil {
		return 0, 0, j.broken
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return 0, 0, err
	}
	b = append(b, '\n')
	if _, err := j.f.Write(b); err != nil {
		return 0, 0, j.rollback(err)
	}
	if !j.noSync {
		if err := j.f.Sync(); err != nil {
			return 0, 0, j.rollback(err)
		}
	}
	off = j.size
	j.size += int64(len(b))
	return off, len(b), nil
}

// read returns the record at off (n bytes), as append or replay found it.
func (j *journal) read(off int64, n int) (record, error) {
	var rec record
	b := make([]byte, n)
	if _, err := j.f.ReadAt(b, off); err != nil {
		return rec, err
	}
	err := json.Unmarshal(b, &rec)
	return rec, err
}

func (j *journal) rollback(cause error) error {
	err := j.f.Truncate(j.size)
	if err == nil {
		_, err = j.f.Seek(j.size, io.SeekStart)
	}
	if err != nil {
		j.broken = fmt.Errorf("simulator journal unusable: %w (cutting back after %v failed)", err, cause)
		return j.broken
	}
	return cause
}

func (j *journal) close() error { return j.f.Close() }
