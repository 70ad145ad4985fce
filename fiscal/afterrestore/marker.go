package afterrestore

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"posbox/store"
)

// MarkerFile is the marker a restore leaves in the data dir; the first
// start reads it and removes it once the comparison is recorded.
const MarkerFile = "restored-from-replica.json"

// marker is the file's content. ID makes recording it idempotent: a start
// that stops between recording and removing records nothing twice.
type marker struct {
	ID                string     `json:"id"`
	RestoredAt        time.Time  `json:"restored_at"`
	ReplicatedThrough *time.Time `json:"replicated_through,omitempty"`
}

// MarkRestored tells the first start in dataDir that its database was
// restored from a replica that held every write up to replicatedThrough
// (the zero time: unknown; then the newest sale in the database counts).
// posbox restore --from calls it after the database is in place. It
// holds no secret, but is written 0600 like the rest of the data dir.
func MarkRestored(dataDir string, replicatedThrough time.Time) error {
	m := marker{ID: store.NewID(), RestoredAt: time.Now().UTC()}
	if !replicatedThrough.IsZero() {
		t := replicatedThrough.UTC()
		m.ReplicatedThrough = &t
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dataDir, MarkerFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("restore marker: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("restore marker: %w", err)
	}
	return nil
}

// readMarker reads dataDir's marker; ok is false when there is none.
func readMarker(dataDir string) (m marker, ok bool, err error) {
	b, err := os.ReadFile(filepath.Join(dataDir, MarkerFile))
	if errors.Is(err, os.ErrNotExist) {
		return m, false, nil
	}
	if err != nil {
		return m, false, fmt.Errorf("restore marker: %w", err)
	}
	if err := json.Unmarshal(b, &m); err != nil || !store.ValidID(m.ID) || m.RestoredAt.IsZero() {
		return m, false, fmt.Errorf("restore marker %s is damaged; remove it to start without comparing with the TSE", filepath.Join(dataDir, MarkerFile))
	}
	return m, true, nil
}
