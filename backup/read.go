package backup

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"filippo.io/age"

	"posbox/store"
)

// Read decrypts and reads a complete backup and checks it: the
// passphrase opens it, the stream is whole (age authenticates every
// chunk and the end, gzip its checksum), every entry is a regular file
// with a path a restore may write, the manifest comes last, is of a known
// format, and lists every file with its size and SHA-256, no more and no
// fewer. extract, when not nil, receives each file's content as it is
// read; nothing is trusted until Read returns nil.
func Read(ctx context.Context, src io.Reader, passphrase string, extract func(rel string, modTime time.Time, r io.Reader) error) (*Manifest, error) {
	plain, err := decrypt(src, passphrase)
	if err != nil {
		return nil, err
	}
	gz, err := gzip.NewReader(ctxReader{ctx, plain})
	if err != nil {
		return nil, damaged(err)
	}
	m, seen, err := readEntries(tar.NewReader(gz), extract)
	if err != nil {
		return nil, err
	}
	// Read to the very end: gzip checks its checksum there, and age
	// authenticates the last chunk, so a file cut off or changed after
	// the tar's end marker is refused too.
	if _, err := io.Copy(io.Discard, gz); err != nil {
		return nil, damaged(err)
	}
	if _, err := io.Copy(io.Discard, plain); err != nil {
		return nil, damaged(err)
	}
	if m == nil {
		return nil, damaged(errors.New("no manifest"))
	}
	if err := checkManifest(m, seen); err != nil {
		return nil, err
	}
	return m, nil
}

// decrypt opens the age stream with the passphrase.
func decrypt(src io.Reader, passphrase string) (io.Reader, error) {
	id, err := age.NewScryptIdentity(passphrase)
	if err != nil {
		return nil, ErrNoPassphrase
	}
	plain, err := age.Decrypt(bufio.NewReaderSize(src, 1<<16), id)
	var noMatch *age.NoIdentityMatchError
	if errors.As(err, &noMatch) {
		return nil, ErrWrongPassphrase
	}
	if err != nil {
		return nil, fmt.Errorf("not a readable posbox backup: %w", err)
	}
	return plain, nil
}

// readEntries reads the tar: the files, each hashed (and handed to
// extract), then the manifest, which must come last. It returns the
// manifest (nil when there is none) and what each file really holds.
func readEntries(tr *tar.Reader, extract func(rel string, modTime time.Time, r io.Reader) error) (*Manifest, map[string]File, error) {
	seen := map[string]File{}
	var m *Manifest
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return m, seen, nil
		}
		if err != nil {
			return nil, nil, damaged(err)
		}
		if m != nil {
			return nil, nil, fmt.Errorf("the backup holds %q after its manifest", hdr.Name)
		}
		if hdr.Typeflag != tar.TypeReg {
			return nil, nil, fmt.Errorf("the backup holds %q, which is not a regular file", hdr.Name)
		}
		if hdr.Name == manifestName {
			b, err := io.ReadAll(io.LimitReader(tr, 64<<20))
			if err != nil {
				return nil, nil, damaged(err)
			}
			m = &Manifest{}
			if err := json.Unmarshal(b, m); err != nil {
				return nil, nil, fmt.Errorf("the backup's manifest: %w", err)
			}
			continue
		}
		if err := checkPath(hdr.Name); err != nil {
			return nil, nil, err
		}
		if _, dup := seen[hdr.Name]; dup {
			return nil, nil, fmt.Errorf("the backup holds %q twice", hdr.Name)
		}
		h := sha256.New()
		r := io.TeeReader(tr, h)
		if extract != nil {
			if err := extract(hdr.Name, hdr.ModTime, r); err != nil {
				return nil, nil, err
			}
		}
		if _, err := io.Copy(io.Discard, r); err != nil { // what extract left, or all of it
			return nil, nil, damaged(err)
		}
		seen[hdr.Name] = File{Path: hdr.Name, Size: hdr.Size, SHA256: hex.EncodeToString(h.Sum(nil))}
	}
}

// checkManifest checks the manifest is of a known format and lists
// exactly the files seen, each with its size and SHA-256, the database
// among them.
func checkManifest(m *Manifest, seen map[string]File) error {
	if m.Format != format {
		return fmt.Errorf("the manifest's format is %q, not %q", m.Format, format)
	}
	if m.FormatVersion != formatVersion {
		return fmt.Errorf("the backup has format version %d, this posbox reads version %d: restore it with the posbox that made it (%s) or a newer one", m.FormatVersion, formatVersion, m.PosboxVersion)
	}
	listed := map[string]bool{}
	for _, f := range m.Files {
		got, ok := seen[f.Path]
		switch {
		case listed[f.Path]:
			return fmt.Errorf("the manifest lists %s twice", f.Path)
		case !ok:
			return fmt.Errorf("the backup lacks %s, which its manifest lists", f.Path)
		case got.Size != f.Size || got.SHA256 != f.SHA256:
			return fmt.Errorf("%s does not match its SHA-256 in the manifest: the backup is damaged", f.Path)
		}
		listed[f.Path] = true
	}
	for p := range seen {
		if !listed[p] {
			return fmt.Errorf("the backup holds %s, which its manifest does not list", p)
		}
	}
	if !listed[store.FileName] {
		return fmt.Errorf("the backup holds no %s", store.FileName)
	}
	return nil
}
