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
func backup(ctx context.Context, db *sql.DB, dest string) error {
	dest, err := filepath.Abs(dest)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("%s: %w", dest, ErrBackupExists)
	}
	dir := filepath.Dir(dest)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp := filepath.Join(dir, "."+filepath.Base(dest)+"."+rand.Text()[:8]+".tmp")
	defer os.Remove(tmp)
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if err := CheckIntegrity(ctx, tmp); err != nil {
		return fmt.Errorf("backup: the copy fails its check: %w", err)
	}
	if err := syncFile(tmp); err != nil {
		return err
	}
	if err := publish(tmp, dest); err != nil {
		return err
	}
	return syncDir(dir)
}

// publish moves tmp to dest without replacing a file that appeared there
// meanwhile: a hard link fails if dest exists. File systems without hard
// links (FAT on a USB stick) get a rename after a last check.
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

// CheckIntegrity runs PRAGMA integrity_check on a database file and
// returns an error unless it answers "ok".
func CheckIntegrity(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	var res string
	if err := db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&res); err != nil {
		return err
	}
	if res != "ok" {
		return fmt.Errorf("integrity_check: %s", res)
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

// syncDir makes a new directory entry survive a power cut; Windows has
// no directory fsync.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
