package replica

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"filippo.io/age"
)

// Options configure Start. URL and Identity are required.
type Options struct {
	// URL is the replica in Litestream's forms: file:///mnt/nas/posbox,
	// sftp://user@host:port/path, s3://bucket/prefix?endpoint=...
	URL string
	// Identity is the box's recovery key: it reads back what compaction
	// merges; its recipient is always among those encrypted to.
	Identity *age.X25519Identity
	// Recipients are further keys every object is encrypted to (the
	// chain's HQ key, an owner's offline key).
	Recipients []age.Recipient
	Logger     *slog.Logger
	// SyncInterval is the least time between two uploads; 500 ms when zero.
	SyncInterval time.Duration
	// CallTimeout is the longest a call to the replica may go without
	// progress before it is abandoned as hung (bound.go); 30 s when zero.
	CallTimeout time.Duration

	// DataDir, with Include, turns on the files' upload (files_upload.go):
	// every file under DataDir whose slash-separated relative path
	// Include takes, scanned every FilesInterval (2 s when zero).
	DataDir string
	Include func(rel string) bool
	// AppendOnly names files only ever appended to (the simulator's
	// journal): a scan reads only what was added since the last one.
	AppendOnly func(rel string) bool
	// ExtraFiles are files outside the data dir that go along, by name
	// (the config file, the secret files it names); a restore puts them
	// into RestoredConfigDir.
	ExtraFiles    map[string]string
	FilesInterval time.Duration
	// BacklogMax bounds the local backlog while the replica is away
	// (DefaultBacklogMax when zero; never more than half the free space);
	// past it the backlog is given up (bound_backlog.go).
	BacklogMax int64
	// BacklogCheck is how often the bound is checked (10 s when zero);
	// RejoinAfter how long a given-up backlog waits before the replica is
	// tried again (30 s when zero, doubling while it keeps failing).
	BacklogCheck, RejoinAfter time.Duration
}

// Status is what the owner needs to know about replication.
type Status struct {
	URL          string    `json:"url"`                    // without a password
	ReplicatedAt time.Time `json:"replicated_at,omitzero"` // last successful upload
	LagSeconds   float64   `json:"lag_seconds"`            // 0 when nothing waits; while given up, since the replica's newest change
	BacklogFiles int       `json:"backlog_files"`          // local LTX files not yet uploaded
	BacklogBytes int64     `json:"backlog_bytes"`          //
	LastError    string    `json:"last_error,omitempty"`   // of the last upload, until one succeeds
	ErrorSince   time.Time `json:"error_since,omitzero"`   // first failure of the current run
	// ReplicatedThrough is when Litestream took the newest changes now on
	// the replica from the database (to the millisecond): every commit
	// made before it is on the replica.
	ReplicatedThrough time.Time `json:"replicated_through,omitzero"`
	// FilesAt is when a scan last found every file of the data dir that
	// goes along (archive, TSE state, keys, config) on the replica;
	// FilesError the last scan's failure, until one succeeds, and
	// FilesErrorSince the first failure of that run.
	FilesAt         time.Time `json:"files_at,omitzero"`
	FilesError      string    `json:"files_error,omitempty"`
	FilesErrorSince time.Time `json:"files_error_since,omitzero"`
	// BacklogLimit is the bound on the local backlog (bound_backlog.go);
	// BacklogGivenUpAt, when set, is when a backlog that outgrew it was
	// given up (BacklogGivenUpBytes of it): the replica holds an older
	// state until the complete copy that follows is uploaded.
	BacklogLimit        int64     `json:"backlog_limit"`
	BacklogGivenUpAt    time.Time `json:"backlog_given_up_at,omitzero"`
	BacklogGivenUpBytes int64     `json:"backlog_given_up_bytes,omitempty"`
	// BacklogGivenUpReason says why, while BacklogGivenUpAt is set:
	// GivenUpLimit, GivenUpDiskFull or GivenUpRestart.
	BacklogGivenUpReason string `json:"backlog_given_up_reason,omitempty"`
}

// Why a backlog was given up (Status.BacklogGivenUpReason).
const (
	// GivenUpLimit: the replica was away until the backlog outgrew its bound.
	GivenUpLimit = "limit"
	// GivenUpDiskFull: the box's disk is nearly full, replica or not.
	GivenUpDiskFull = "disk_full"
	// GivenUpRestart: the box started without Litestream's local state
	// (restarted while given up, or restored) while the replica holds files
	// or could not be asked.
	GivenUpRestart = "restart"
)

// health records the outcome of uploads and failures to reach the
// replica, as the encrypting client sees them (Litestream logs its errors
// but does not hand them out).
type health struct {
	mu           sync.Mutex
	now          func() time.Time
	replicatedAt time.Time
	replThrough  time.Time
	lastErr      string
	since        time.Time
}

// uploaded records the outcome of an upload: a success clears the error.
func (h *health) uploaded(err error) {
	if err != nil {
		h.failed(err)
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.replicatedAt, h.lastErr, h.since = h.now(), "", time.Time{}
}

// failed records a failure to reach the replica (listing, connecting,
// uploading); a cancelled call at shutdown is none.
func (h *health) failed(err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lastErr == "" {
		h.since = h.now()
	}
	h.lastErr = err.Error()
}

// through records that the changes taken from the database at t are on
// the replica.
func (h *health) through(t time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t.After(h.replThrough) {
		h.replThrough = t
	}
}

// replicatedThrough is Status.ReplicatedThrough.
func (h *health) replicatedThrough() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.replThrough
}

func (h *health) status(s *Status) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s.ReplicatedAt, s.LastError, s.ErrorSince, s.ReplicatedThrough = h.replicatedAt, h.lastErr, h.since, h.replThrough
}
