package server

import (
	"math"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"
)

// Replica is the database's replication off the box (package replica's
// Replicator, adapted by main). It returns a plain struct of server's own,
// so server neither imports replica (TestLayers) nor Litestream's world,
// and a fake in a test is a struct literal.
type Replica interface {
	ReplicaStatus() ReplicaStatus
}

// ReplicaStatus is what GET /api/replica shows of a running replication.
type ReplicaStatus struct {
	URL          string    // without secrets (replica.Redact)
	PublicKey    string    // the recovery key's public key (age1...), never the key
	ReplicatedAt time.Time // last successful upload; zero before the first
	LagSeconds   float64   // 0 when nothing waits; while given up, since the replica's newest change
	BacklogFiles int       // local files not yet uploaded
	BacklogBytes int64
	LastError    string    // of the last upload, until one succeeds
	ErrorSince   time.Time // first failure of the current run
	// BacklogLimit bounds the backlog; past it the backlog was given up
	// at BacklogGivenUpAt (zero: not given up, or the replica is whole
	// again).
	BacklogLimit     int64
	BacklogGivenUpAt time.Time
	// BacklogGivenUpReason, while given up: "limit" (the target away too
	// long), "disk_full" (the box's disk nearly full) or "restart" (the
	// box started without the local state, a complete copy follows).
	BacklogGivenUpReason string
}

// replicaJSON is GET /api/replica. With replication off (no replica_url)
// enabled is false and every other field null.
type replicaJSON struct {
	Enabled      bool     `json:"enabled"`
	URL          *string  `json:"url"`
	PublicKey    *string  `json:"public_key"`
	ReplicatedAt *string  `json:"replicated_at"`
	LagSeconds   *float64 `json:"lag_seconds"`
	BacklogFiles *int     `json:"backlog_files"`
	BacklogBytes *int64   `json:"backlog_bytes"`
	LastError    *string  `json:"last_error"`
	ErrorSince   *string  `json:"error_since"`
	BacklogLimit *int64   `json:"backlog_limit"`
	GivenUpAt    *string  `json:"backlog_given_up_at"`
	GivenUpWhy   *string  `json:"backlog_given_up_reason"`
}

// replicaState is GET /api/replica.
func (s *Server) replicaState(w http.ResponseWriter, _ *http.Request, _ httprouter.Params) error {
	out := replicaJSON{}
	if s.cfg.Replica != nil {
		st := s.cfg.Replica.ReplicaStatus()
		st.LagSeconds = math.Round(st.LagSeconds*1000) / 1000 // milliseconds, like the instants
		out = replicaJSON{Enabled: true, URL: &st.URL, PublicKey: strPtr(st.PublicKey), ReplicatedAt: instantPtr(st.ReplicatedAt),
			LagSeconds: &st.LagSeconds, BacklogFiles: &st.BacklogFiles, BacklogBytes: &st.BacklogBytes,
			LastError: strPtr(st.LastError), ErrorSince: instantPtr(st.ErrorSince),
			BacklogLimit: &st.BacklogLimit, GivenUpAt: instantPtr(st.BacklogGivenUpAt)}
		if !st.BacklogGivenUpAt.IsZero() {
			out.GivenUpWhy = strPtr(st.BacklogGivenUpReason)
		}
	}
	return writeJSON(w, http.StatusOK, envelope{"replica": out})
}

// instantPtr renders an instant; the zero time is null.
func instantPtr(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	return tsPtr(&t)
}
