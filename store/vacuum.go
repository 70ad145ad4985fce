package store

import (
	"context"
	"database/sql"
	"fmt"
)

// AutoVacuum modes of the database file (PRAGMA auto_vacuum).
const (
	AutoVacuumNone        = 0
	AutoVacuumIncremental = 2
)

// FileSpace is how the database file uses its pages.
type FileSpace struct {
	AutoVacuum    int   // AutoVacuumNone, 1 (full) or AutoVacuumIncremental
	PageSize      int64 // bytes
	PageCount     int64 // pages in the file
	FreelistCount int64 // of those, free (reused by later writes; given back by incremental_vacuum)
}

// Bytes is the file's size as SQLite sees it (the WAL aside).
func (f FileSpace) Bytes() int64 { return f.PageSize * f.PageCount }

// FileSpace reads the file's page counts.
func (s *Store) FileSpace(ctx context.Context) (FileSpace, error) {
	var f FileSpace
	for _, p := range []struct {
		pragma string
		dst    any
	}{{"auto_vacuum", &f.AutoVacuum}, {"page_size", &f.PageSize}, {"page_count", &f.PageCount}, {"freelist_count", &f.FreelistCount}} {
		if err := s.rdb.QueryRowContext(ctx, "PRAGMA "+p.pragma).Scan(p.dst); err != nil {
			return f, fmt.Errorf("pragma %s: %w", p.pragma, err)
		}
	}
	return f, nil
}

// IncrementalVacuum gives up to pages free pages back to the file system
// (the file shrinks at the next checkpoint), in one short write. It does
// nothing on a file that is not in incremental auto-vacuum mode.
func (s *Store) IncrementalVacuum(ctx context.Context, pages int) error {
	return s.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA incremental_vacuum(%d)", pages))
		return err
	})
}

// ConvertToIncrementalVacuum switches a database made before posbox set
// auto_vacuum (every new file is made so by Open) to incremental
// auto-vacuum: SQLite takes the mode only with a VACUUM, which rewrites
// the whole file, holds off every write until it is done and needs free
// space of about twice the file (a temporary copy and the WAL). The
// caller decides when that is acceptable (package retention: at night,
// for a file small enough, with the space free).
func (s *Store) ConvertToIncrementalVacuum(ctx context.Context) error {
	conn, err := s.wdb.Conn(ctx) // waits for the writer's one connection
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA auto_vacuum = INCREMENTAL"); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "VACUUM"); err != nil {
		return fmt.Errorf("vacuum: %w", err)
	}
	if !s.extCheckpoints {
		// The VACUUM went through the WAL; give its space back now.
		_, err = conn.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	}
	return err
}

// newFileAutoVacuum makes a database that has no table yet (a new file)
// incremental auto-vacuum, before the migrations create any: SQLite takes
// the mode then for free (the VACUUM of an empty file is instant), where
// a file with tables needs ConvertToIncrementalVacuum. It is not in the
// connection string on purpose: there the pragma would run on every new
// connection, and on a file with tables in another mode it fails.
func newFileAutoVacuum(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var tables int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&tables); err != nil || tables > 0 {
		return err
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA auto_vacuum = INCREMENTAL"); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, "VACUUM")
	return err
}
