package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// DATEVSettings are a restaurant's DATEV settings as stored (migration
// 00030); fiscal/datev gives them their meaning and their defaults.
type DATEVSettings struct {
	Consultant    int // 0 when not set
	Client        int
	Chart         string
	AccountLength int
	Accounts      map[string]string
	UpdatedAt     time.Time
}

// DATEVSettings reads the restaurant's DATEV settings; ok is false when
// none were saved.
func (s *Store) DATEVSettings(ctx context.Context, restaurantID string) (d DATEVSettings, ok bool, err error) {
	var cons, cli sql.NullInt64
	var accounts, updated string
	err = s.rdb.QueryRowContext(ctx, `SELECT consultant_number, client_number, chart, account_length, accounts, updated_at
		FROM datev_settings WHERE restaurant_id = ?`, restaurantID).Scan(&cons, &cli, &d.Chart, &d.AccountLength, &accounts, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return d, false, nil
	}
	if err != nil {
		return d, false, err
	}
	d.Consultant, d.Client, d.UpdatedAt = int(cons.Int64), int(cli.Int64), ParseTime(updated)
	return d, true, json.Unmarshal([]byte(accounts), &d.Accounts)
}

// PutDATEVSettings replaces the restaurant's DATEV settings (validated
// by the caller, fiscal/datev.Validate).
func (s *Store) PutDATEVSettings(ctx context.Context, restaurantID, userID string, d DATEVSettings) (DATEVSettings, error) {
	accounts, err := json.Marshal(d.Accounts)
	if err != nil {
		return d, err
	}
	nullInt := func(v int) sql.NullInt64 { return sql.NullInt64{Int64: int64(v), Valid: v != 0} }
	err = s.write(ctx, func(tx *Tx) error {
		d.UpdatedAt = tx.Now
		_, err := tx.ExecContext(ctx, `INSERT INTO datev_settings (restaurant_id, consultant_number, client_number, chart, account_length,
			accounts, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (restaurant_id) DO UPDATE SET consultant_number = excluded.consultant_number, client_number = excluded.client_number,
			chart = excluded.chart, account_length = excluded.account_length, accounts = excluded.accounts,
			updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
			restaurantID, nullInt(d.Consultant), nullInt(d.Client), d.Chart, d.AccountLength, string(accounts), FormatTime(tx.Now),
			sql.NullString{String: userID, Valid: userID != ""})
		return err
	})
	return d, err
}
