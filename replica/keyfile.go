package replica

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"filippo.io/age"

	"posbox/internal/secretfile"
)

// KeyFile is the recovery key's file in the data directory.
const KeyFile = "replica.key"

// LoadOrCreateKey reads the recovery key in dataDir, making it (mode
// 0600) if there is none. created says it was made now: the caller shows
// it once. An existing key is never replaced: every object on the
// replica is encrypted to it.
func LoadOrCreateKey(dataDir string) (id *age.X25519Identity, created bool, err error) {
	path := filepath.Join(dataDir, KeyFile)
	id, err = LoadKey(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return id, false, err
	}
	if id, err = age.GenerateX25519Identity(); err != nil {
		return nil, false, err
	}
	data := "# posbox replica recovery key; public key: " + id.Recipient().String() + "\n" + id.String() + "\n"
	if err := secretfile.Create(path, []byte(data)); err != nil {
		return nil, false, fmt.Errorf("replica key: %w", err)
	}
	return id, true, nil
}

// LoadKey reads an age X25519 identity file (comment lines start with #).
func LoadKey(path string) (*age.X25519Identity, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("replica key: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, err := age.ParseX25519Identity(line)
		if err != nil {
			return nil, fmt.Errorf("replica key %s: not an age X25519 identity", path)
		}
		return id, nil
	}
	return nil, fmt.Errorf("replica key %s: no key in the file", path)
}

// ParseRecipients parses replica_recipients: age public keys (age1...)
// separated by commas; blanks are ignored.
func ParseRecipients(s string) ([]age.Recipient, error) {
	var out []age.Recipient
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		r, err := age.ParseX25519Recipient(f)
		if err != nil {
			return nil, fmt.Errorf("replica_recipients: %q is not an age public key (age1...)", f)
		}
		out = append(out, r)
	}
	return out, nil
}
