package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// ERecoverySheetConfirmed: the recovery sheet of this key was confirmed
// as printed and stored; the console shows the key no more.
const ERecoverySheetConfirmed = "recovery_sheet_confirmed"

// RecoverySheetConfirmation records that an admin printed and stored the
// recovery sheet of one recovery key (named by its public key).
type RecoverySheetConfirmation struct {
	PublicKey   string
	ByUserID    string
	ByName      string
	ConfirmedAt time.Time
}

// RecoverySheetConfirmation is the confirmation of publicKey's sheet;
// nil (and no error) while there is none.
func (s *Store) RecoverySheetConfirmation(ctx context.Context, publicKey string) (*RecoverySheetConfirmation, error) {
	c := RecoverySheetConfirmation{PublicKey: publicKey}
	var at string
	err := s.rs.QueryRowContext(ctx, `SELECT confirmed_by, confirmed_by_name, confirmed_at
		FROM replica_sheet_confirmations WHERE public_key = ?`, publicKey).Scan(&c.ByUserID, &c.ByName, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	c.ConfirmedAt = ParseTime(at)
	return &c, nil
}

// ConfirmRecoverySheet records that userID (named name) printed and
// stored publicKey's sheet, now. A second confirmation of the same key is
// ERecoverySheetConfirmed and changes nothing: the first one stands.
func (s *Store) ConfirmRecoverySheet(ctx context.Context, publicKey, userID, name string) (*RecoverySheetConfirmation, error) {
	var c *RecoverySheetConfirmation
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO replica_sheet_confirmations
			(public_key, confirmed_by, confirmed_by_name, confirmed_at) VALUES (?, ?, ?, ?)`,
			publicKey, userID, name, FormatTime(tx.Now))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return Errorf(ERecoverySheetConfirmed, "the recovery sheet of this key was already confirmed as printed and stored")
		}
		c = &RecoverySheetConfirmation{PublicKey: publicKey, ByUserID: userID, ByName: name, ConfirmedAt: tx.Now}
		return nil
	})
	return c, err
}
