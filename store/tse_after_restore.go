package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"time"
)

// The states of the comparison after a restore.
const (
	AfterRestorePending = "pending" // the TSE has not answered yet
	AfterRestoreDone    = "done"
)

// TSEAfterRestore is the comparison of the TSE's transactions with a
// database restored from the replica (package fiscal/afterrestore runs
// it): pending until the TSE answered, then the transactions the TSE
// signed that the restored box has no sale for.
type TSEAfterRestore struct {
	ID                string
	RestaurantID      string
	TSSID             string
	RestoredAt        time.Time
	ReplicatedThrough *time.Time // nil: the restore did not say
	State             string
	Attempts          int
	LastError         string // of the last attempt, while pending
	LastAttemptAt     *time.Time
	ComparedFrom      *time.Time // the TSE's list is read back to here (nil: as far as it is read)
	ComparedAt        *time.Time
	Missing           []TSEMissingTx // by number
}

// TSEMissingTx is a transaction the TSE signed that the restored box has
// no sale for, with what its receipt said.
type TSEMissingTx struct {
	TxID             string
	Number           int64
	SignatureCounter int64
	State            string
	TimeStart        time.Time
	TimeEnd          *time.Time
	ClientID         string
	ClientSerial     string
	ProcessType      string // Kassenbeleg-V1, Bestellung-V1, ...
	ProcessData      string // as signed
	ReceiptKind      string // the BON_TYP of a Kassenbeleg-V1 ("Beleg", "AVBelegstorno", ...), "" otherwise
	VAT              []TSEMissingVAT
	Payments         []TSEMissingPayment
	AcknowledgedAt   *time.Time
	AcknowledgedBy   string // user id
	AcknowledgedName string // that user's name
}

// TSEMissingVAT is a gross amount per VAT rate as the receipt said it
// (a decimal string, e.g. "21.42").
type TSEMissingVAT struct {
	VATRate string `json:"vat_rate"`
	Amount  string `json:"amount"`
}

// TSEMissingPayment is an amount per payment type as the receipt said it.
type TSEMissingPayment struct {
	PaymentType  string `json:"payment_type"` // CASH or NON_CASH
	Amount       string `json:"amount"`
	CurrencyCode string `json:"currency_code"`
}

const tseAfterRestoreColumns = `id, restaurant_id, tss_id, restored_at, replicated_through, state, attempts, last_error,
	last_attempt_at, compared_from, compared_at`

func scanTSEAfterRestore(sc scanner) (*TSEAfterRestore, error) {
	var a TSEAfterRestore
	var restored string
	var through, lastErr, lastAt, from, at sql.NullString
	if err := sc.Scan(&a.ID, &a.RestaurantID, &a.TSSID, &restored, &through, &a.State, &a.Attempts, &lastErr,
		&lastAt, &from, &at); err != nil {
		return nil, err
	}
	a.RestoredAt, a.ReplicatedThrough, a.LastError = ParseTime(restored), parseNullTime(through), lastErr.String
	a.LastAttemptAt, a.ComparedFrom, a.ComparedAt = parseNullTime(lastAt), parseNullTime(from), parseNullTime(at)
	a.Missing = []TSEMissingTx{}
	return &a, nil
}

// StartTSEAfterRestore records that the database was restored at
// restoredAt from a replica that held everything up to through (nil:
// unknown): a comparison pending until the TSE answers, which will read
// the TSE's list back to from (nil: as far as it reads). id is the
// restore's own: recording the same restore twice records it once.
func (s *Store) StartTSEAfterRestore(ctx context.Context, id, restaurantID, tssID string, restoredAt time.Time, through, from *time.Time) (*TSEAfterRestore, error) {
	err := s.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO tse_after_restore (id, restaurant_id, tss_id, restored_at, replicated_through,
			compared_from, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			id, restaurantID, tssID, FormatTime(restoredAt), nullTime(through), nullTime(from), FormatTime(tx.Now))
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.tseAfterRestore(ctx, `id = ?`, id)
}

// PendingTSEAfterRestore is the oldest comparison still waiting for the
// TSE; NotFound when none waits.
func (s *Store) PendingTSEAfterRestore(ctx context.Context, restaurantID string) (*TSEAfterRestore, error) {
	return s.tseAfterRestore(ctx, `restaurant_id = ? AND state = 'pending' ORDER BY created_at, id LIMIT 1`, restaurantID)
}

// LatestTSEAfterRestore is the latest restore's comparison with its
// missing transactions; NotFound when the box was never restored.
func (s *Store) LatestTSEAfterRestore(ctx context.Context, restaurantID string) (*TSEAfterRestore, error) {
	return s.tseAfterRestore(ctx, `restaurant_id = ? ORDER BY created_at DESC, id DESC LIMIT 1`, restaurantID)
}

func (s *Store) tseAfterRestore(ctx context.Context, where string, args ...any) (*TSEAfterRestore, error) {
	a, err := scanTSEAfterRestore(s.rs.QueryRowContext(ctx, `SELECT `+tseAfterRestoreColumns+` FROM tse_after_restore WHERE `+where, args...))
	if err == sql.ErrNoRows {
		return nil, NotFound("restore comparison")
	}
	if err != nil {
		return nil, err
	}
	a.Missing, err = queryAll(ctx, s.rs, scanTSEMissingTx, `SELECT `+tseMissingColumns+`
		FROM tse_after_restore_missing m LEFT JOIN users u ON u.id = m.acknowledged_by
		WHERE m.check_id = ? ORDER BY m.number`, a.ID)
	return a, err
}

const tseMissingColumns = `m.tx_id, m.number, m.signature_counter, m.state, m.time_start, m.time_end, m.client_id, m.client_serial,
	m.process_type, m.process_data, m.receipt_kind, m.vat_amounts, m.payments, m.acknowledged_at, m.acknowledged_by, COALESCE(u.name, '')`

func scanTSEMissingTx(sc scanner) (TSEMissingTx, error) {
	var m TSEMissingTx
	var start, vat, pay string
	var end, ackAt, ackBy sql.NullString
	if err := sc.Scan(&m.TxID, &m.Number, &m.SignatureCounter, &m.State, &start, &end, &m.ClientID, &m.ClientSerial,
		&m.ProcessType, &m.ProcessData, &m.ReceiptKind, &vat, &pay, &ackAt, &ackBy, &m.AcknowledgedName); err != nil {
		return m, err
	}
	m.TimeStart, m.TimeEnd, m.AcknowledgedAt, m.AcknowledgedBy = ParseTime(start), parseNullTime(end), parseNullTime(ackAt), ackBy.String
	m.VAT, m.Payments = []TSEMissingVAT{}, []TSEMissingPayment{}
	if err := json.Unmarshal([]byte(vat), &m.VAT); err != nil {
		return m, err
	}
	return m, json.Unmarshal([]byte(pay), &m.Payments)
}

// RecordTSEAfterRestoreAttempt counts an attempt that did not reach the
// TSE, with its error, so the page can say why it still waits.
func (s *Store) RecordTSEAfterRestoreAttempt(ctx context.Context, id, errMsg string) error {
	return s.write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE tse_after_restore SET attempts = attempts + 1, last_error = ?, last_attempt_at = ?
			WHERE id = ? AND state = 'pending'`, errMsg, FormatTime(tx.Now), id)
		return err
	})
}

// FinishTSEAfterRestore files the comparison's result: missing is what
// the TSE signed that the box lacks. A comparison already done keeps its
// first result.
func (s *Store) FinishTSEAfterRestore(ctx context.Context, id string, missing []TSEMissingTx) error {
	return s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tse_after_restore SET state = 'done', attempts = attempts + 1, last_error = NULL,
			last_attempt_at = ?, compared_at = ? WHERE id = ? AND state = 'pending'`,
			FormatTime(tx.Now), FormatTime(tx.Now), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		for _, m := range missing {
			if err := insertTSEMissingTx(ctx, tx, id, m); err != nil {
				return err
			}
		}
		return nil
	})
}

func insertTSEMissingTx(ctx context.Context, tx *Tx, checkID string, m TSEMissingTx) error {
	if m.VAT == nil {
		m.VAT = []TSEMissingVAT{}
	}
	if m.Payments == nil {
		m.Payments = []TSEMissingPayment{}
	}
	vat, err := json.Marshal(m.VAT)
	if err != nil {
		return err
	}
	pay, err := json.Marshal(m.Payments)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO tse_after_restore_missing (check_id, tx_id, number, signature_counter, state,
		time_start, time_end, client_id, client_serial, process_type, process_data, receipt_kind, vat_amounts, payments)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, checkID, m.TxID, m.Number, m.SignatureCounter, m.State,
		FormatTime(m.TimeStart), nullTime(m.TimeEnd), m.ClientID, m.ClientSerial, m.ProcessType, m.ProcessData, m.ReceiptKind,
		string(vat), string(pay))
	return err
}

// AcknowledgeTSEMissing records that userID has dealt with (re-entered)
// the latest comparison's missing transactions txIDs, or all of them
// when txIDs is empty. One already acknowledged keeps who and when. An id
// that is not on the list: a validation error naming it, nothing changed.
func (s *Store) AcknowledgeTSEMissing(ctx context.Context, restaurantID string, txIDs []string, userID string) error {
	return s.write(ctx, func(tx *Tx) error {
		var checkID string
		err := tx.QueryRowContext(ctx, `SELECT id FROM tse_after_restore WHERE restaurant_id = ?
			ORDER BY created_at DESC, id DESC LIMIT 1`, restaurantID).Scan(&checkID)
		if err == sql.ErrNoRows {
			return NotFound("restore comparison")
		}
		if err != nil {
			return err
		}
		for i, id := range txIDs {
			var one int
			err := tx.QueryRowContext(ctx, `SELECT 1 FROM tse_after_restore_missing WHERE check_id = ? AND tx_id = ?`, checkID, id).Scan(&one)
			if err == sql.ErrNoRows {
				return Invalid("tx_ids["+itoa(i)+"]", FUnknownSale, "names no transaction on the list of what is missing after the restore")
			}
			if err != nil {
				return err
			}
		}
		where, args := `check_id = ? AND acknowledged_at IS NULL`, []any{FormatTime(tx.Now), userID, checkID}
		if len(txIDs) > 0 {
			where += ` AND tx_id IN (?` + strings.Repeat(`, ?`, len(txIDs)-1) + `)`
			for _, id := range txIDs {
				args = append(args, id)
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE tse_after_restore_missing SET acknowledged_at = ?, acknowledged_by = ? WHERE `+where, args...)
		return err
	})
}

// TSESaleTxIDs reports which of ids the box has a sale for (a transaction
// it recorded itself, not one the reconciler only copied from the TSE).
func (s *Store) TSESaleTxIDs(ctx context.Context, tssID string, ids []string) (map[string]bool, error) {
	have := map[string]bool{}
	if len(ids) == 0 {
		return have, nil
	}
	args := []any{tssID}
	for _, id := range ids {
		args = append(args, id)
	}
	err := eachRow(ctx, s.rs, func(sc scanner) error {
		var id string
		if err := sc.Scan(&id); err != nil {
			return err
		}
		have[id] = true
		return nil
	}, `SELECT tx_id FROM tse_transactions WHERE tss_id = ? AND source = 'posbox' AND tx_id IN (?`+strings.Repeat(`, ?`, len(ids)-1)+`)`, args...)
	return have, err
}

// LatestTSESaleStart is when the TSE started the newest transaction the
// box recorded itself (nil when none is signed yet): with the replica's
// own word, where the comparison starts.
func (s *Store) LatestTSESaleStart(ctx context.Context, tssID string) (*time.Time, error) {
	var t sql.NullString
	err := s.rs.QueryRowContext(ctx, `SELECT MAX(time_start) FROM tse_transactions WHERE tss_id = ? AND source = 'posbox'`, tssID).Scan(&t)
	return parseNullTime(t), err
}
