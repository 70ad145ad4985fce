package store

import (
	"context"
	"database/sql"
)

// TSEProviderTx is a transaction as the provider's list shows it.
type TSEProviderTx struct {
	TxID         string
	ClientID     string
	ClientSerial string
	TSESigned
}

// ReconcileTSETx brings the mirror in step with the provider: an unknown
// transaction is added with source 'reconciled'; a known one whose
// revisions are all forwarded takes the provider's newer state. It never
// touches a transaction the queue is still working on. added reports a
// new row.
func (s *Store) ReconcileTSETx(ctx context.Context, restaurantID, tssID string, p TSEProviderTx) (added bool, err error) {
	err = s.write(ctx, func(tx *Tx) error {
		now := FormatTime(tx.Now)
		var end any
		if p.TimeEnd != nil {
			end = FormatTime(*p.TimeEnd)
		}
		res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO tse_transactions (tx_id, restaurant_id, tss_id, client_id, client_serial,
			number, state, latest_revision, time_start, time_end, signature_counter, signature_value, log_time, qr_code_data,
			tss_serial_number, source, business_time, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULLIF(?, ''), ?, 'reconciled', ?, ?, ?)`,
			p.TxID, restaurantID, tssID, p.ClientID, p.ClientSerial, p.Number, p.State, p.Revision, FormatTime(p.TimeStart), end,
			p.SignatureCounter, p.SignatureValue, FormatTime(p.LogTime), p.QRCodeData, p.TSSSerialNumber,
			FormatTime(p.TimeStart), now, now)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			added = true
			return nil
		}
		_, err = tx.ExecContext(ctx, `UPDATE tse_transactions SET number = ?, state = ?, latest_revision = ?, time_start = ?,
			time_end = ?, signature_counter = ?, signature_value = ?, log_time = ?, qr_code_data = COALESCE(NULLIF(?, ''), qr_code_data),
			tss_serial_number = ?, updated_at = ?
			WHERE tx_id = ? AND latest_revision < ?
			AND NOT EXISTS (SELECT 1 FROM tse_jobs WHERE tx_id = ? AND status IN ('pending', 'in_flight'))`,
			p.Number, p.State, p.Revision, FormatTime(p.TimeStart), end, p.SignatureCounter, p.SignatureValue,
			FormatTime(p.LogTime), p.QRCodeData, p.TSSSerialNumber, now, p.TxID, p.Revision, p.TxID)
		return err
	})
	return added, err
}

// maxTSENumberSQL walks tse_transactions_number back from the highest
// number to the first one not ACTIVE: MAX(number) with the state filter
// read every transaction of the TSS, at every start and reconcile.
const maxTSENumberSQL = `SELECT (SELECT number FROM tse_transactions
	WHERE tss_id = ? AND number IS NOT NULL AND state != 'ACTIVE' ORDER BY number DESC LIMIT 1)`

// MaxTSENumber is the highest transaction number mirrored for a TSS
// whose latest state is final (0 when none): the reconciler pages down to it.
func (s *Store) MaxTSENumber(ctx context.Context, tssID string) (int64, error) {
	var n sql.NullInt64
	err := s.rs.QueryRowContext(ctx, maxTSENumberSQL, tssID).Scan(&n)
	return n.Int64, err
}
