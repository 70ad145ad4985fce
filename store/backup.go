package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// ErrBackupExists is returned when the backup's target file exists: a
// backup never overwrites anything.
var ErrBackupExists = errors.New("backup file already exists")

// Backup writes a consistent copy of the open database to dest; see
// BackupFile. It reads through a connection of its own: the reader pool
// is query_only, which refuses VACUUM INTO, and the one writer would hold
// every write for the length of the copy.
func (s *Store) Backup(ctx context.Context, dest string) error {
	return BackupFile(ctx, s.path, dest)
}

// BackupFile writes a consistent copy of the database file dbPath to dest
// while another process (the running service) may be writing to it. It
// opens the file without migrating it: a newer binary must not change the
// schema under an older running service.
func BackupFile(ctx context.Context, dbPath, dest string) error {
	if _, err := os.Stat(dbPath); err != nil {
		return fmt.Errorf("database: %w", err)
	}
	// The one opening outside Open: no migrations, and no query_only,
	// which refuses VACUUM INTO although it only reads this file.
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(dbPath)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	return backup(ctx, db, dest)
}

// backup runs VACUUM INTO, which copies one read transaction's snapshot
// (every commit before it began, none after) while writers go on. It
// writes a temporary file beside dest, checks its integrity, syncs it,
// and links it into place, so dest is either absent or complete.
//
// The folder of dest must exist: a backup never creates one, so a
// mistyped path or a USB stick that is not mounted is an error, not a
// backup on the box's own disk. The copy is mode 0600 whatever the umask.
func backup(ctx context.Context, db *sql.DB, dest string) error {
	dest, err := filepath.Abs(dest)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("%s: %w", dest, ErrBackupExists)
	}
	tmp, err := CreateTemp(dest)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	// VACUUM INTO fills the empty file, which keeps its mode 0600.
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := CheckCopy(ctx, tmp); err != nil {
		return fmt.Errorf("backup: the copy fails its check: %w", err)
	}
	if err := chmodPrivate(tmp); err != nil {
		return err
	}
	if err := syncFile(tmp); err != nil {
		return err
	}
	return Publish(tmp, dest)
}

// ErrNoFolder is returned when a backup's target folder does not exist.
var ErrNoFolder = errors.New("folder does not exist")

// CreateTemp creates an empty file of mode 0600 beside dest, named
// ".NAME.RANDOM.tmp" (the nightly job deletes such files a crash left),
// and returns its path. dest's folder must exist.
func CreateTemp(dest string) (string, error) {
	dir := filepath.Dir(dest)
	if fi, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("backup folder %s: %w (create it first, or check the path and that the drive is mounted)", dir, ErrNoFolder)
	} else if err != nil {
		return "", err
	} else if !fi.IsDir() {
		return "", fmt.Errorf("backup folder %s is not a folder", dir)
	}
	tmp := filepath.Join(dir, "."+filepath.Base(dest)+"."+rand.Text()[:8]+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return "", err
	}
	// The umask may have taken bits off 0600, never added any; make it
	// exactly 0600 all the same.
	if err := chmodPrivate(tmp); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

// Publish moves the finished, synced file tmp to dest without replacing
// a file that appeared there meanwhile (ErrBackupExists): a hard link
// fails if dest exists. File systems without hard links (FAT on a USB
// stick) get a rename after a last check. The folder is synced so the
// new entry survives a power cut; tmp is left for the caller to remove.
func Publish(tmp, dest string) error {
	if err := publish(tmp, dest); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(dest))
}

func publish(tmp, dest string) error {
	err := os.Link(tmp, dest)
	if err == nil || errors.Is(err, fs.ErrExist) {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: %w", dest, ErrBackupExists)
		}
		return nil
	}
	if _, serr := os.Lstat(dest); serr == nil {
		return fmt.Errorf("%s: %w", dest, ErrBackupExists)
	}
	return os.Rename(tmp, dest)
}

// chmodPrivate makes the files that exist readable and writable by their
// owner only (on Windows it only clears the read-only flag). A file
// already 0600 is left alone, so one that another user owns does not fail.
func chmodPrivate(paths ...string) error {
	for _, p := range paths {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if fi.Mode().Perm() == 0o600 {
			continue
		}
		if err := os.Chmod(p, 0o600); err != nil {
			return fmt.Errorf("make %s private (mode 0600): %w", p, err)
		}
	}
	return nil
}

// CheckIntegrity runs PRAGMA integrity_check on a database file and
// returns an error unless it answers "ok": for a file from elsewhere (a
// restore), whose indexes may not match its rows.
func CheckIntegrity(ctx context.Context, path string) error {
	return checkFile(ctx, path, "integrity_check")
}

// CheckCopy runs PRAGMA quick_check on a copy VACUUM INTO just wrote:
// every page, record, NOT NULL and CHECK, but not whether each index
// matches its table, which VACUUM INTO rebuilt from the rows (a
// duplicate would have failed it). On a ten-year file that comparison
// cost twice the copy itself (docs/PERFORMANCE.md).
func CheckCopy(ctx context.Context, path string) error {
	return checkFile(ctx, path, "quick_check")
}

func checkFile(ctx context.Context, path, pragma string) error {
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	var res string
	if err := db.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&res); err != nil {
		return err
	}
	if res != "ok" {
		return fmt.Errorf("%s: %s", pragma, res)
	}
	return nil
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// SyncDir makes new entries in dir survive a power cut. Windows has no
// directory fsync, and some file systems (a FAT stick, some network
// mounts) refuse one with EINVAL: there it is a no-op. It lives here
// because store owns the data directory's durability (the database, its
// backups); backup's restore and the TSE archive use it for the folders
// they fill.
func SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}
