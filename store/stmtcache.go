package store

import (
	"context"
	"database/sql"
	"sync"
)

// maxCachedReadStmts bounds the reader pool's prepared statements: query
// texts built at run time (IN lists of varying length) would otherwise
// grow the cache without end.
const maxCachedReadStmts = 256

// stmtCache prepares each read query once and reuses it. database/sql
// keeps one driver statement per pool connection under a *sql.Stmt, and
// the pool keeps its connections (Open), so SQLite parses a hot query once
// per connection instead of once per request. It has the reader pool's
// method set, so read functions use it in place of s.rdb.
type stmtCache struct {
	db *sql.DB
	mu sync.RWMutex
	m  map[string]*sql.Stmt
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, m: map[string]*sql.Stmt{}}
}

// stmt is the prepared statement for query, or nil when it cannot be
// prepared or the cache is full (the caller then runs it unprepared).
func (c *stmtCache) stmt(ctx context.Context, query string) *sql.Stmt {
	c.mu.RLock()
	st := c.m[query]
	full := len(c.m) >= maxCachedReadStmts
	c.mu.RUnlock()
	if st != nil || full {
		return st
	}
	st, err := c.db.PrepareContext(context.WithoutCancel(ctx), query)
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if have := c.m[query]; have != nil {
		st.Close()
		return have
	}
	if c.m == nil { // closed
		st.Close()
		return nil
	}
	c.m[query] = st
	return st
}

// QueryContext runs a prepared read query.
func (c *stmtCache) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := c.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return c.db.QueryContext(ctx, query, args...)
}

// QueryRowContext runs a prepared read query for one row.
func (c *stmtCache) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := c.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return c.db.QueryRowContext(ctx, query, args...)
}

// close finalises the statements (before the pool closes).
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.m {
		st.Close()
	}
	c.m = nil
}
