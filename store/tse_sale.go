package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// TSE error codes.
const (
	// ETSEQueueState: an admin action does not fit the item's state.
	ETSEQueueState = "tse_queue_state"
	// ETSENotConfigured: the caller's restaurant has no TSE (the
	// appliance's TSS signs for another restaurant).
	ETSENotConfigured = "tse_not_configured"
)

// Transaction states of the mirror: the provider's (tse.TxActive and
// its siblings), kept here so the store needs no provider package.
const (
	tseTxActive    = "ACTIVE"
	tseTxFinished  = "FINISHED"
	tseTxCancelled = "CANCELLED"
)

// TSE job statuses.
const (
	TSEJobPending    = "pending"
	TSEJobInFlight   = "in_flight"
	TSEJobDone       = "done"
	TSEJobAttention  = "attention"
	TSEJobSuperseded = "superseded"
)

// TSETransaction is one row of the local mirror of the TSE's transactions.
type TSETransaction struct {
	TxID              string
	RestaurantID      string
	TSSID             string
	ClientID          string
	ClientSerial      string
	ReceiptType       string
	TotalCents        int64
	Number            *int64 // nil until revision 1 is signed
	State             string // ACTIVE, FINISHED, CANCELLED
	LatestRevision    int    // latest revision the provider signed
	TimeStart         *time.Time
	TimeEnd           *time.Time
	SignatureCounter  *int64
	SignatureValue    string
	LogTime           *time.Time
	QRCodeData        string
	TSSSerialNumber   string
	ReceiptWithoutTSE bool
	SignedLate        bool
	OutageID          string
	Source            string // posbox or reconciled
	// Cancels is the sale this one reverses (a storno), CancelledBy the
	// storno that reversed this one; "" for none. Read by TSETransaction
	// and TSETransactions only.
	Cancels, CancelledBy string
	BusinessTime         time.Time
	CreatedAt            time.Time
	UpdatedAt            time.Time
}

// Signed reports whether the transaction has reached its final signed
// state (FINISHED or CANCELLED at the provider).
func (t *TSETransaction) Signed() bool {
	return t.TimeEnd != nil && (t.State == tseTxFinished || t.State == tseTxCancelled)
}

// NewTSESale is a sale to record and forward.
type NewTSESale struct {
	RestaurantID string
	TSSID        string
	TxID         string // fiskaly wants a v4 UUID
	ClientSerial string
	// ClientID is the terminal's id at the TSS: the one TSEClientID
	// returned, or a new one for a terminal seen for the first time.
	ClientID    string
	ReceiptType string
	TotalCents  int64
	// StartBody and FinishBody are revisions 1 and 2 as they will be
	// sent, built for ClientID before the transaction.
	StartBody, FinishBody []byte
	// Idempotency (optional): a key in scope IdemTSESale.
	Idempotency *IdempotencyKey
	// Detail is what the sale contained, for the DSFinV-K (nil: none).
	Detail *TSESaleDetail
	// Movement: the sale is this cash movement's receipt (nil: none).
	Movement *NewCashMovement
	// Count: the sale books this count's difference (nil: none).
	Count *NewCashCount
}

// ErrTSEClientChanged: the terminal was registered under another client
// id between TSEClientID and CreateTSESale (two first sales of a new
// terminal at once). The caller builds its bodies again for the id.
type ErrTSEClientChanged struct{ ClientID string }

func (e *ErrTSEClientChanged) Error() string {
	return "tse: the terminal's client id is now " + e.ClientID
}

// TSEClientID is the client id of a terminal serial at a TSS, or a
// not_found error for a terminal never seen.
func (s *Store) TSEClientID(ctx context.Context, tssID, serial string) (string, error) {
	var id string
	err := s.rs.QueryRowContext(ctx, `SELECT client_id FROM tse_clients WHERE tss_id = ? AND client_serial = ?`, tssID, serial).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", NotFound("terminal")
	}
	return id, err
}

// CreateTSESale records a sale in one transaction: the terminal's client
// row (first use), the mirror row and both revisions in the outbox. With an
// idempotency key that was seen before it writes nothing and returns the
// replay instead. A terminal registered meanwhile under another id is
// *ErrTSEClientChanged, and nothing is written.
func (s *Store) CreateTSESale(ctx context.Context, n NewTSESale) (*TSETransaction, *IdempotentReplay, error) {
	var out *TSETransaction
	var replay *IdempotentReplay
	err := s.write(ctx, func(tx *Tx) error {
		now := FormatTime(tx.Now)
		if k := n.Idempotency; k != nil {
			r, err := lookupIdempotency(ctx, tx, *k)
			if err == nil {
				replay = r
				return nil
			}
			if !IsNotFound(err) {
				return err
			}
		}
		// A storno is checked here, in the transaction that records it:
		// of two stornos of one sale at once, the second sees the first.
		if err := checkStorno(ctx, tx, n); err != nil {
			return err
		}
		if k := n.Idempotency; k != nil {
			if err := insertIdempotency(ctx, tx, *k, IdempotentReplay{ResourceID: n.TxID}); err != nil {
				return err
			}
		}
		if err := ensureTSEClient(ctx, tx, n.RestaurantID, n.TSSID, n.ClientSerial, n.ClientID); err != nil {
			return err
		}
		clientID, start, finish := n.ClientID, n.StartBody, n.FinishBody
		res, err := tx.ExecContext(ctx, `INSERT INTO tse_transactions (tx_id, restaurant_id, tss_id, client_id, client_serial,
			receipt_type, total_cents, state, business_time, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, 'ACTIVE', ?, ?, ?)`,
			n.TxID, n.RestaurantID, n.TSSID, clientID, n.ClientSerial, n.ReceiptType, n.TotalCents, now, now, now)
		if err != nil {
			return err
		}
		if err := insertTSESaleDetail(ctx, tx, n); err != nil {
			return stornoConflict(err)
		}
		if err := bookRedemptions(ctx, tx, n); err != nil {
			return err
		}
		if err := recordCash(ctx, tx, n); err != nil {
			return err
		}
		receiptNo, err := res.LastInsertId() // the rowid: the receipt number (BON_NR)
		if err != nil {
			return err
		}
		// The sale's event commits with it: exactly once, as durable.
		if err := raiseSaleEvent(ctx, tx, n, receiptNo); err != nil {
			return err
		}
		for i, body := range [][]byte{start, finish} {
			state := tseTxActive
			if i == 1 {
				state = tseTxFinished
			}
			if err := insertTSEJob(ctx, tx, n.RestaurantID, n.TSSID, clientID, n.TxID, i+1, state, body); err != nil {
				return err
			}
		}
		out, err = tseTransaction(ctx, tx, n.RestaurantID, n.TxID)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return out, replay, nil
}

// insertTSEJob appends one revision to the outbox, due now.
func insertTSEJob(ctx context.Context, tx *Tx, restaurantID, tssID, clientID, txID string, revision int, state string, body []byte) error {
	now := FormatTime(tx.Now)
	_, err := tx.ExecContext(ctx, `INSERT INTO tse_jobs (id, restaurant_id, tss_id, client_id, tx_id, revision, target_state,
		body, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		NewID(), restaurantID, tssID, clientID, txID, revision, state, body, now, now)
	return err
}

// ensureTSEClient checks that a terminal serial has client id id,
// creating the row on first use; the worker registers it at the provider.
func ensureTSEClient(ctx context.Context, tx *Tx, restaurantID, tssID, serial, id string) error {
	var have string
	err := tx.QueryRowContext(ctx, `SELECT client_id FROM tse_clients WHERE tss_id = ? AND client_serial = ?`, tssID, serial).Scan(&have)
	switch {
	case err == nil && have == id:
		return nil
	case err == nil:
		return &ErrTSEClientChanged{ClientID: have}
	case !errors.Is(err, sql.ErrNoRows):
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO tse_clients (client_id, restaurant_id, tss_id, client_serial, created_at)
		VALUES (?, ?, ?, ?, ?)`, id, restaurantID, tssID, serial, FormatTime(tx.Now))
	return err
}

const tseTxColumns = `tx_id, restaurant_id, tss_id, client_id, client_serial, receipt_type, total_cents, number, state,
	latest_revision, time_start, time_end, signature_counter, signature_value, log_time, qr_code_data, tss_serial_number,
	receipt_without_tse, signed_late, outage_id, source, business_time, created_at, updated_at`

// tseStornoColumns are a mirror row's storno links (Cancels,
// CancelledBy), selected after tseTxColumns from tse_transactions. Both
// read indexes of the stornos only (00012, 00024), not every sale's.
const tseStornoColumns = `(SELECT cancels_tx_id FROM tse_sale_details INDEXED BY tse_sale_details_stornos
		WHERE tx_id = tse_transactions.tx_id AND cancels_tx_id IS NOT NULL),
	(SELECT tx_id FROM tse_sale_details WHERE cancels_tx_id = tse_transactions.tx_id AND cancels_void = 0)`

// scanTSETransactionLinks scans tseTxColumns then tseStornoColumns.
func scanTSETransactionLinks(sc scanner) (*TSETransaction, error) {
	var cancels, by sql.NullString
	t, err := scanTSETx(sc, &cancels, &by)
	if err != nil {
		return nil, err
	}
	t.Cancels, t.CancelledBy = cancels.String, by.String
	return t, nil
}

// scanTSETx scans tseTxColumns, then extra columns into extra.
func scanTSETx(sc scanner, extra ...any) (*TSETransaction, error) {
	var t TSETransaction
	var number, counter sql.NullInt64
	var start, end, logTime, sig, qr, serial, outage sql.NullString
	var business, created, updated string
	err := sc.Scan(append([]any{&t.TxID, &t.RestaurantID, &t.TSSID, &t.ClientID, &t.ClientSerial, &t.ReceiptType, &t.TotalCents, &number,
		&t.State, &t.LatestRevision, &start, &end, &counter, &sig, &logTime, &qr, &serial,
		&t.ReceiptWithoutTSE, &t.SignedLate, &outage, &t.Source, &business, &created, &updated}, extra...)...)
	if err != nil {
		return nil, err
	}
	t.Number, t.SignatureCounter = nullInt(number), nullInt(counter)
	t.TimeStart, t.TimeEnd, t.LogTime = parseNullTime(start), parseNullTime(end), parseNullTime(logTime)
	t.SignatureValue, t.QRCodeData, t.TSSSerialNumber, t.OutageID = sig.String, qr.String, serial.String, outage.String
	t.BusinessTime, t.CreatedAt, t.UpdatedAt = ParseTime(business), ParseTime(created), ParseTime(updated)
	return &t, nil
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func tseTransaction(ctx context.Context, q queryer, restaurantID, txID string) (*TSETransaction, error) {
	t, err := scanTSETransactionLinks(q.QueryRowContext(ctx, `SELECT `+tseTxColumns+`, `+tseStornoColumns+` FROM tse_transactions
		WHERE tx_id = ? AND restaurant_id = ?`, txID, restaurantID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("transaction")
	}
	return t, err
}

// TSETransaction reads one mirrored transaction of a restaurant.
func (s *Store) TSETransaction(ctx context.Context, restaurantID, txID string) (*TSETransaction, error) {
	return tseTransaction(ctx, s.rs, restaurantID, txID)
}

// TSETransactions lists the signed transactions (with a number) whose
// time_start lies in [from, to], by number.
func (s *Store) TSETransactions(ctx context.Context, restaurantID string, from, to time.Time) ([]*TSETransaction, error) {
	return queryAll(ctx, s.rs, scanTSETransactionLinks, `SELECT `+tseTxColumns+`, `+tseStornoColumns+` FROM tse_transactions
		WHERE restaurant_id = ? AND number IS NOT NULL AND time_start >= ? AND time_start <= ?
		ORDER BY number`, restaurantID, FormatTime(from), FormatTime(to))
}
