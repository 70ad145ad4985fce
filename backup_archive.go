package main

// Complete backups: the database and every file of the data dir the
// appliance cannot do without, in one encrypted file.
//
// Format version 1, a file ending in .posbox-backup:
//
//	age (scrypt passphrase) ( gzip ( tar ) )
//
// The tar holds regular files only, named by slash paths relative to the
// data dir: posbox.db (a VACUUM INTO snapshot, checked), jwt.key,
// initial-admin-password, tse.json, tse-setup.json, tse-sim/…, archive/…
// and tls/… (each when present), then MANIFEST.json as the last entry:
// format, format version, posbox version and build, created_at (UTC) and
// each file's path, size and SHA-256. Being age's standard format, a
// backup also opens without posbox: age -d FILE | tar -xz.

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"filippo.io/age"

	"posbox/store"
	"posbox/tse"
)

const (
	// completeBackupExt ends the name of a complete backup.
	completeBackupExt = ".posbox-backup"
	// backupFormat and backupFormatVersion identify the manifest; a
	// restore refuses a version it does not know.
	backupFormat        = "posbox-backup"
	backupFormatVersion = 1
	manifestName        = "MANIFEST.json"
	// archiveDir is the fiscal archive in the data dir.
	archiveDir = "archive"
	// backupTLSDir holds the HTTPS certificate and key posbox generates
	// (tls_cert_file empty): the tills trust that certificate.
	backupTLSDir = "tls"
	// simJournal is the simulator's journal in tse-sim/ (tse.journalFile).
	simJournal = "journal.jsonl"
	// snapshotPrefix names the database snapshot a complete backup takes
	// in the data dir (beside the database, as private as it).
	snapshotPrefix = ".posbox-snapshot-"
	// minPassphraseLen is the shortest passphrase a backup is made with.
	minPassphraseLen = 12
	// passphraseEnv holds the passphrase when no file is given.
	passphraseEnv = "POSBOX_BACKUP_PASSPHRASE"
	// passphraseFileEnv is the backup_passphrase_file setting's variable.
	passphraseFileEnv = "POSBOX_BACKUP_PASSPHRASE_FILE"
)

// backupWorkFactor is scrypt's log2(N) for a new backup: age's default
// (about a second and 256 MiB once per backup). Tests lower it.
var backupWorkFactor = 18

// backupTopFiles are the single files of the data dir a complete backup
// holds besides the database, and backupTrees its folders, when present.
var (
	backupTopFiles = []string{jwtKeyFile, adminPasswordFile, tse.SettingsFile, tse.SetupFile}
	backupTrees    = []string{tse.SimDir, archiveDir, backupTLSDir}
)

// backupManifest is MANIFEST.json.
type backupManifest struct {
	Format        string       `json:"format"`
	FormatVersion int          `json:"format_version"`
	PosboxVersion string       `json:"posbox_version"`
	PosboxBuild   string       `json:"posbox_build,omitempty"`
	CreatedAt     time.Time    `json:"created_at"`
	Files         []backupFile `json:"files"`
}

// backupFile is one file in the manifest.
type backupFile struct {
	Path   string `json:"path"` // slash-separated, relative to the data dir
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"` // hex
}

var (
	errWrongPassphrase = errors.New("the passphrase does not open this backup")
	errNoPassphrase    = errors.New("a complete backup needs a passphrase: --passphrase-file FILE, or the environment variable " + passphraseEnv)
)

// backupPassphrase is the passphrase of a complete backup: the file named
// by --passphrase-file, else $POSBOX_BACKUP_PASSPHRASE, else the file of
// the backup_passphrase_file setting. Never a command-line argument: ps
// shows those to every user of the box. A new backup (forNew) needs at
// least minPassphraseLen characters.
func backupPassphrase(flagFile string, cfg Config, forNew bool) (string, error) {
	var pass string
	var err error
	switch {
	case flagFile != "":
		pass, err = readPassphraseFile(flagFile)
	case os.Getenv(passphraseEnv) != "":
		pass = os.Getenv(passphraseEnv)
	case backupPassphraseFile(cfg) != "":
		pass, err = readPassphraseFile(backupPassphraseFile(cfg))
	default:
		return "", errNoPassphrase
	}
	if err == nil && forNew {
		err = checkPassphrase(pass)
	}
	return pass, err
}

// backupPassphraseFile is the backup_passphrase_file setting (also
// POSBOX_BACKUP_PASSPHRASE_FILE, like every setting): a file holding the
// passphrase of the nightly complete backups.
func backupPassphraseFile(cfg Config) string { return cfg.BackupPassphraseFile }

// readPassphraseFile reads a passphrase: the file's first line, without
// its line end.
func readPassphraseFile(file string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("passphrase file: %w", err)
	}
	line, _, _ := strings.Cut(strings.TrimPrefix(string(b), "\ufeff"), "\n") // a BOM Notepad may write
	line = strings.TrimSuffix(line, "\r")
	if line == "" {
		return "", fmt.Errorf("passphrase file %s: the first line is empty", file)
	}
	return line, nil
}

func checkPassphrase(p string) error {
	if n := utf8.RuneCountInString(p); n < minPassphraseLen {
		return fmt.Errorf("the passphrase has %d characters; a backup needs at least %d", n, minPassphraseLen)
	}
	return nil
}

// completeBackup is one complete backup to write.
type completeBackup struct {
	DataDir    string
	Dest       string // its folder must exist; never overwritten
	Passphrase string
	// Snapshot writes a consistent, checked copy of the database to a new
	// file (store.BackupFile, or the running store's Backup).
	Snapshot func(ctx context.Context, dest string) error
	Now      time.Time
}

// writeCompleteBackup writes b.Dest: a temporary file beside it (mode
// 0600) filled with the snapshot and the data dir's files, read back and
// checked against its manifest, synced, and linked into place, so Dest is
// either absent or complete. The database snapshot comes first, then the
// TSE simulator's journal, then the rest: every signature the database
// holds is in the journal (the journal records a signature before the
// sale is committed), never the other way round.
func writeCompleteBackup(ctx context.Context, b completeBackup) (*backupManifest, error) {
	dest, err := filepath.Abs(b.Dest)
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(dest); err == nil {
		return nil, fmt.Errorf("%s: %w", dest, store.ErrBackupExists)
	}
	if err := checkPassphrase(b.Passphrase); err != nil {
		return nil, err
	}
	tmp, err := store.CreateTemp(dest)
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp)

	removeStaleSnapshots(b.DataDir, time.Now())
	snap := filepath.Join(b.DataDir, snapshotPrefix+rand.Text()[:8]+".db")
	defer os.Remove(snap)
	if err := b.Snapshot(ctx, snap); err != nil {
		return nil, err
	}

	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return nil, err
	}
	m, err := writeArchive(ctx, f, b, snap)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}

	// Read it back as a restore would: the passphrase opens it and every
	// file matches the manifest.
	rf, err := os.Open(tmp)
	if err != nil {
		return nil, err
	}
	got, err := readCompleteBackup(ctx, rf, b.Passphrase, nil)
	rf.Close()
	if err != nil {
		return nil, fmt.Errorf("backup: the written file fails its check: %w", err)
	}
	if len(got.Files) != len(m.Files) {
		return nil, fmt.Errorf("backup: the written file holds %d files, want %d", len(got.Files), len(m.Files))
	}
	if err := store.Publish(tmp, dest); err != nil {
		return nil, err
	}
	return m, nil
}

// writeArchive writes the encrypted archive to w and returns its manifest.
func writeArchive(ctx context.Context, w io.Writer, b completeBackup, snap string) (*backupManifest, error) {
	r, err := age.NewScryptRecipient(b.Passphrase)
	if err != nil {
		return nil, err
	}
	r.SetWorkFactor(backupWorkFactor)
	bw := bufio.NewWriterSize(w, 1<<16)
	enc, err := age.Encrypt(bw, r)
	if err != nil {
		return nil, err
	}
	gz := gzip.NewWriter(enc)
	tw := tar.NewWriter(gz)
	m := &backupManifest{
		Format: backupFormat, FormatVersion: backupFormatVersion,
		PosboxVersion: version, PosboxBuild: build, CreatedAt: b.Now.UTC().Truncate(time.Second),
	}
	add := func(rel, abs string) error {
		f, err := addToArchive(ctx, tw, rel, abs)
		if err != nil {
			return err
		}
		m.Files = append(m.Files, f)
		return nil
	}
	if err := add(store.FileName, snap); err != nil {
		return nil, err
	}
	for _, name := range backupTopFiles {
		if err := addIfPresent(b.DataDir, name, add); err != nil {
			return nil, err
		}
	}
	// The journal before the keys: a key is written before the journal
	// line that uses it, so keys listed after the journal was read cover
	// every TSS in it.
	if err := addIfPresent(b.DataDir, tse.SimDir+"/"+simJournal, add); err != nil {
		return nil, err
	}
	for _, dir := range backupTrees {
		if err := addTree(b.DataDir, dir, add); err != nil {
			return nil, err
		}
	}
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	mb = append(mb, '\n')
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: manifestName, Mode: 0o600, Size: int64(len(mb)), ModTime: m.CreatedAt}
	if err := tw.WriteHeader(hdr); err != nil {
		return nil, err
	}
	if _, err := tw.Write(mb); err != nil {
		return nil, err
	}
	for _, c := range []io.Closer{tw, gz, enc} {
		if err := c.Close(); err != nil {
			return nil, err
		}
	}
	return m, bw.Flush()
}

// addIfPresent adds the data dir's file rel unless it does not exist.
func addIfPresent(dataDir, rel string, add func(rel, abs string) error) error {
	abs := filepath.Join(dataDir, filepath.FromSlash(rel))
	if _, err := os.Lstat(abs); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	return add(rel, abs)
}

// addTree adds every file under the data dir's folder dir (which may be
// absent, or a link to a folder elsewhere), except the simulator's journal
// (added first) and temporary files (".NAME.tmp"). Anything but regular
// files and folders is an error: a backup that silently lacks part of
// the fiscal archive is worse than a failed one.
func addTree(dataDir, dir string, add func(rel, abs string) error) error {
	root := filepath.Join(dataDir, dir)
	if fi, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	} else if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", root)
	}
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dataDir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		name := d.Name()
		switch {
		case rel == tse.SimDir+"/"+simJournal:
			return nil
		case strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp"):
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%s is not a regular file (%s): a backup holds only files and folders", p, d.Type())
		}
		return add(rel, p)
	})
}

// addToArchive copies one file into tw, hashing it. A file that grows
// meanwhile (the simulator's journal) is copied up to the size it had
// when opened.
func addToArchive(ctx context.Context, tw *tar.Writer, rel, abs string) (backupFile, error) {
	f, err := os.Open(abs)
	if err != nil {
		return backupFile{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return backupFile{}, err
	}
	if !fi.Mode().IsRegular() {
		return backupFile{}, fmt.Errorf("%s is not a regular file", abs)
	}
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: rel, Mode: 0o600, Size: fi.Size(), ModTime: fi.ModTime().UTC().Truncate(time.Second)}
	if err := tw.WriteHeader(hdr); err != nil {
		return backupFile{}, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tw, h), ctxReader{ctx, io.LimitReader(f, hdr.Size)})
	if err != nil {
		return backupFile{}, fmt.Errorf("%s: %w", abs, err)
	}
	if n != hdr.Size {
		return backupFile{}, fmt.Errorf("%s shrank from %d to %d bytes while it was copied", abs, hdr.Size, n)
	}
	return backupFile{Path: rel, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// ctxReader stops a long copy when ctx ends (the service stops).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// removeStaleSnapshots deletes database snapshots a crashed backup left
// in the data dir; a day old, so a backup running now keeps its own.
func removeStaleSnapshots(dataDir string, now time.Time) {
	entries, err := os.ReadDir(dataDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		// The snapshot, or the temporary file store.Backup makes beside it.
		if !strings.HasPrefix(name, snapshotPrefix) && !strings.HasPrefix(name, "."+snapshotPrefix) {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > 24*time.Hour {
			_ = os.Remove(filepath.Join(dataDir, name))
		}
	}
}

// readCompleteBackup decrypts and reads a complete backup and checks it:
// the passphrase opens it, the stream is whole (age authenticates every
// chunk and the end, gzip its checksum), every entry is a regular file
// with a path a restore may write, the manifest comes last, is of a known
// format, and lists every file with its size and SHA-256, no more and no
// fewer. extract, when not nil, receives each file's content as it is
// read; nothing is trusted until readCompleteBackup returns nil.
func readCompleteBackup(ctx context.Context, src io.Reader, passphrase string, extract func(rel string, modTime time.Time, r io.Reader) error) (*backupManifest, error) {
	id, err := age.NewScryptIdentity(passphrase)
	if err != nil {
		return nil, errNoPassphrase
	}
	plain, err := age.Decrypt(bufio.NewReaderSize(src, 1<<16), id)
	var noMatch *age.NoIdentityMatchError
	if errors.As(err, &noMatch) {
		return nil, errWrongPassphrase
	}
	if err != nil {
		return nil, fmt.Errorf("not a readable posbox backup: %w", err)
	}
	damaged := func(err error) error {
		return fmt.Errorf("the backup is damaged or cut off: %w", err)
	}
	gz, err := gzip.NewReader(ctxReader{ctx, plain})
	if err != nil {
		return nil, damaged(err)
	}
	tr := tar.NewReader(gz)
	seen := map[string]backupFile{}
	var m *backupManifest
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, damaged(err)
		}
		if m != nil {
			return nil, fmt.Errorf("the backup holds %q after its manifest", hdr.Name)
		}
		if hdr.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("the backup holds %q, which is not a regular file", hdr.Name)
		}
		if hdr.Name == manifestName {
			b, err := io.ReadAll(io.LimitReader(tr, 64<<20))
			if err != nil {
				return nil, damaged(err)
			}
			m = &backupManifest{}
			if err := json.Unmarshal(b, m); err != nil {
				return nil, fmt.Errorf("the backup's manifest: %w", err)
			}
			continue
		}
		if err := checkBackupPath(hdr.Name); err != nil {
			return nil, err
		}
		if _, dup := seen[hdr.Name]; dup {
			return nil, fmt.Errorf("the backup holds %q twice", hdr.Name)
		}
		h := sha256.New()
		r := io.TeeReader(tr, h)
		if extract != nil {
			if err := extract(hdr.Name, hdr.ModTime, r); err != nil {
				return nil, err
			}
		}
		if _, err := io.Copy(io.Discard, r); err != nil { // what extract left, or all of it
			return nil, damaged(err)
		}
		seen[hdr.Name] = backupFile{Path: hdr.Name, Size: hdr.Size, SHA256: hex.EncodeToString(h.Sum(nil))}
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
	if m.Format != backupFormat {
		return nil, fmt.Errorf("the manifest's format is %q, not %q", m.Format, backupFormat)
	}
	if m.FormatVersion != backupFormatVersion {
		return nil, fmt.Errorf("the backup has format version %d, this posbox reads version %d: restore it with the posbox that made it (%s) or a newer one", m.FormatVersion, backupFormatVersion, m.PosboxVersion)
	}
	listed := map[string]bool{}
	for _, f := range m.Files {
		got, ok := seen[f.Path]
		switch {
		case listed[f.Path]:
			return nil, fmt.Errorf("the manifest lists %s twice", f.Path)
		case !ok:
			return nil, fmt.Errorf("the backup lacks %s, which its manifest lists", f.Path)
		case got.Size != f.Size || got.SHA256 != f.SHA256:
			return nil, fmt.Errorf("%s does not match its SHA-256 in the manifest: the backup is damaged", f.Path)
		}
		listed[f.Path] = true
	}
	for p := range seen {
		if !listed[p] {
			return nil, fmt.Errorf("the backup holds %s, which its manifest does not list", p)
		}
	}
	if !listed[store.FileName] {
		return nil, fmt.Errorf("the backup holds no %s", store.FileName)
	}
	return m, nil
}

// checkBackupPath accepts the paths a complete backup may hold: the
// known files of the data dir and files under its known folders
// (backupTrees), nothing that could land outside the data dir.
func checkBackupPath(p string) error {
	bad := func(why string) error { return fmt.Errorf("the backup holds %q, %s", p, why) }
	if p == "" || path.Clean(p) != p || strings.Contains(p, `\`) || !filepath.IsLocal(filepath.FromSlash(p)) {
		return bad("which is not a plain relative path")
	}
	top, rest, nested := strings.Cut(p, "/")
	switch {
	case !nested && (top == store.FileName || slices.Contains(backupTopFiles, top)):
		return nil
	case nested && rest != "" && slices.Contains(backupTrees, top):
		return nil
	}
	return bad("which is not a file of a posbox data dir")
}

// topLevel is the set of the data dir's entries that paths live in
// (files and folders), the database last.
func topLevel(paths []string) []string {
	var out []string
	for _, p := range paths {
		top, _, _ := strings.Cut(p, "/")
		if top != store.FileName && !slices.Contains(out, top) {
			out = append(out, top)
		}
	}
	slices.Sort(out)
	return append(out, store.FileName)
}

// describeFiles sums up a manifest's files: "posbox.db, jwt.key,
// tse-sim/ (2 files)".
func describeFiles(files []backupFile) string {
	var paths []string
	counts := map[string]int{}
	for _, f := range files {
		paths = append(paths, f.Path)
		top, _, _ := strings.Cut(f.Path, "/")
		counts[top]++
	}
	parts := []string{store.FileName}
	for _, top := range topLevel(paths) {
		switch {
		case top == store.FileName:
		case slices.Contains(backupTrees, top):
			plural := "s"
			if counts[top] == 1 {
				plural = ""
			}
			parts = append(parts, fmt.Sprintf("%s/ (%d file%s)", top, counts[top], plural))
		default:
			parts = append(parts, top)
		}
	}
	return strings.Join(parts, ", ")
}
