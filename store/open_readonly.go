package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"time"
)

// ReadOnly is a box's database opened for reading only: HQ's copy of a
// box, kept current by replication (package replica's Follower). It runs
// no migration and can write nothing: the file is opened read-only and
// every connection is query_only.
type ReadOnly struct {
	db  *sql.DB
	now func() time.Time
}

// OpenReadOnly opens the database file at path read-only. It refuses a
// file that is not a posbox database. now is the clock "today" is taken
// from (time.Now when nil).
func OpenReadOnly(ctx context.Context, path string, now func() time.Time) (*ReadOnly, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(abs)+"?mode=ro&_pragma=busy_timeout(5000)&_pragma=query_only(1)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('restaurants', 'tse_transactions', 'time_entries')`).Scan(&n); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s read-only: %w", path, err)
	}
	if n != 3 {
		db.Close()
		return nil, fmt.Errorf("open %s read-only: not a posbox database", path)
	}
	if now == nil {
		now = time.Now
	}
	return &ReadOnly{db: db, now: now}, nil
}

// Close closes the database.
func (r *ReadOnly) Close() error { return r.db.Close() }
