package store

import (
	"context"
	"database/sql"
	"errors"
)

// KV reads a small setting; ok is false when it was never set.
func (s *Store) KV(ctx context.Context, key string) (value string, ok bool, err error) {
	err = s.rs.QueryRowContext(ctx, `SELECT value FROM kv WHERE key = ?`, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return value, err == nil, err
}

// SetKV stores a small setting.
func (s *Store) SetKV(ctx context.Context, key, value string) error {
	return s.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
			key, value, FormatTime(tx.Now))
		return err
	})
}
