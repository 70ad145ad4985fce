// Package secretfile writes the files that hold secrets in the data
// directory (the token signing key, the first admin's password, the TLS
// key, the TSE's credentials): readable by the owner only, never
// replacing an existing file, and synced before the caller relies on it.
// It imports only the standard library, so every layer may use it.
package secretfile

import "os"

// Create writes data to a new file at path with mode 0600. An existing
// file is an error (fs.ErrExist): a key once in use, or a certificate
// once pinned by the tills, is never overwritten by accident.
func Create(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
