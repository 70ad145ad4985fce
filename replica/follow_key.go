package replica

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"filippo.io/age"

	"posbox/internal/secretfile"
)

// HQKeyFile is HQ's key in HQ's data directory: the identity that opens
// every box's replica listing its public key in replica_recipients.
const HQKeyFile = "hq.key"

// LoadOrCreateHQKey reads HQ's key in dataDir, making it (mode 0600) if
// there is none; created says it was made now. An existing key is never
// replaced: the boxes encrypt to its public key.
func LoadOrCreateHQKey(dataDir string) (id *age.X25519Identity, created bool, err error) {
	path := filepath.Join(dataDir, HQKeyFile)
	id, err = LoadKey(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return id, false, err
	}
	if id, err = age.GenerateX25519Identity(); err != nil {
		return nil, false, err
	}
	data := "# posbox HQ key; boxes list its public key in replica_recipients: " + id.Recipient().String() + "\n" + id.String() + "\n"
	if err := secretfile.Create(path, []byte(data)); err != nil {
		return nil, false, fmt.Errorf("hq key: %w", err)
	}
	return id, true, nil
}
