package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"
	"time"
)

// CashMovement is a booked cash movement with its receipt's state.
type CashMovement struct {
	TxID         string
	ClientSerial string
	No           int64 // gap-free per register
	Kind         string
	Cents        int64
	Reason       string
	VoucherNo    string
	ReversesTxID string // "" for none
	ReversedBy   string // the counter-entry's tx id, "" for none
	CountID      string // the count whose difference this is, "" for none
	BookedBy     string
	BookedByName string
	ForUser      string // whose float or tip payout it is, "" for BookedBy's
	ForUserName  string // that user's name now ("" for none)
	CreatedAt    time.Time
	Signed       bool // the TSE signed its receipt
	WithoutTSE   bool // its receipt went out without TSE data
}

const cashMovementColumns = `m.tx_id, m.client_serial, m.movement_no, m.kind, m.cents, m.reason, m.voucher_no, m.reverses_tx_id,
	(SELECT r.tx_id FROM cash_movements r WHERE r.reverses_tx_id = m.tx_id), m.count_id, m.booked_by, m.booked_by_name, m.created_at,
	m.for_user_id, (SELECT u.name FROM users u WHERE u.id = m.for_user_id), t.time_end IS NOT NULL AND t.state = 'FINISHED', t.receipt_without_tse`

func scanCashMovement(sc scanner) (*CashMovement, error) {
	var m CashMovement
	var reverses, reversedBy, count, by, forUser, forName sql.NullString
	var at string
	// No row leaves at empty, which ParseTime refuses with a panic.
	if err := sc.Scan(&m.TxID, &m.ClientSerial, &m.No, &m.Kind, &m.Cents, &m.Reason, &m.VoucherNo, &reverses, &reversedBy, &count,
		&by, &m.BookedByName, &at, &forUser, &forName, &m.Signed, &m.WithoutTSE); err != nil {
		return nil, err
	}
	m.ReversesTxID, m.ReversedBy, m.CountID, m.BookedBy = reverses.String, reversedBy.String, count.String, by.String
	m.ForUser, m.ForUserName = forUser.String, forName.String
	m.CreatedAt = ParseTime(at)
	return &m, nil
}

// CashMovementsFilter selects movements: a register ("" for all) and a
// time range [From, To).
type CashMovementsFilter struct {
	ClientSerial string
	From, To     time.Time
}

// CashMovements lists the movements booked in a range, oldest first.
func (s *Store) CashMovements(ctx context.Context, restaurantID string, f CashMovementsFilter) ([]*CashMovement, error) {
	return queryAll(ctx, s.rdb, scanCashMovement, `SELECT `+cashMovementColumns+` FROM cash_movements m
		JOIN tse_transactions t ON t.tx_id = m.tx_id
		WHERE m.restaurant_id = ? AND (? = '' OR m.client_serial = ?) AND m.created_at >= ? AND m.created_at < ?
		ORDER BY m.created_at, m.client_serial, m.movement_no`,
		restaurantID, f.ClientSerial, f.ClientSerial, FormatTime(f.From), FormatTime(f.To))
}

// CashMovementOf is one movement, by its receipt's tx id.
func (s *Store) CashMovementOf(ctx context.Context, restaurantID, txID string) (*CashMovement, error) {
	m, err := scanCashMovement(s.rs.QueryRowContext(ctx, `SELECT `+cashMovementColumns+` FROM cash_movements m
		JOIN tse_transactions t ON t.tx_id = m.tx_id WHERE m.restaurant_id = ? AND m.tx_id = ?`, restaurantID, txID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("cash movement")
	}
	return m, err
}

// CashCount is a booked cash count.
type CashCount struct {
	ID              string
	ClientSerial    string
	No              int64
	ExpectedCents   int64
	CountedCents    int64
	DifferenceCents int64
	Denominations   map[int64]int64 // nil when counted as one sum
	DifferenceTxID  string          // the DifferenzSollIst movement, "" for none
	CountedBy       string
	CountedByName   string
	CreatedAt       time.Time
}

const cashCountColumns = `id, client_serial, count_no, expected_cents, counted_cents, difference_cents, denominations,
	difference_tx_id, counted_by, counted_by_name, created_at`

func scanCashCount(sc scanner) (*CashCount, error) {
	var c CashCount
	var denoms, diffTx, by sql.NullString
	var at string
	if err := sc.Scan(&c.ID, &c.ClientSerial, &c.No, &c.ExpectedCents, &c.CountedCents, &c.DifferenceCents, &denoms, &diffTx,
		&by, &c.CountedByName, &at); err != nil {
		return nil, err
	}
	c.DifferenceTxID, c.CountedBy, c.CreatedAt = diffTx.String, by.String, ParseTime(at)
	if denoms.Valid {
		var m map[string]int64
		if err := json.Unmarshal([]byte(denoms.String), &m); err != nil {
			return nil, err
		}
		c.Denominations = map[int64]int64{}
		for k, v := range m {
			cents, err := strconv.ParseInt(k, 10, 64)
			if err != nil {
				return nil, err
			}
			c.Denominations[cents] = v
		}
	}
	return &c, nil
}

func cashCount(ctx context.Context, q queryer, restaurantID, id string) (*CashCount, error) {
	c, err := scanCashCount(q.QueryRowContext(ctx, `SELECT `+cashCountColumns+` FROM cash_counts WHERE restaurant_id = ? AND id = ?`,
		restaurantID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("cash count")
	}
	return c, err
}

// CashCountOfDifference is the count whose difference a sale books.
func (s *Store) CashCountOfDifference(ctx context.Context, restaurantID, txID string) (*CashCount, error) {
	c, err := scanCashCount(s.rs.QueryRowContext(ctx, `SELECT `+cashCountColumns+` FROM cash_counts
		WHERE restaurant_id = ? AND difference_tx_id = ?`, restaurantID, txID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("cash count")
	}
	return c, err
}

// CashCounts lists the counts of a range (filter as for movements),
// oldest first.
func (s *Store) CashCounts(ctx context.Context, restaurantID string, f CashMovementsFilter) ([]*CashCount, error) {
	return queryAll(ctx, s.rdb, scanCashCount, `SELECT `+cashCountColumns+` FROM cash_counts
		WHERE restaurant_id = ? AND (? = '' OR client_serial = ?) AND created_at >= ? AND created_at < ?
		ORDER BY created_at, client_serial, count_no`,
		restaurantID, f.ClientSerial, f.ClientSerial, FormatTime(f.From), FormatTime(f.To))
}

// LastCashCount is a register's latest count, not_found for none.
func (s *Store) LastCashCount(ctx context.Context, restaurantID, serial string) (*CashCount, error) {
	c, err := scanCashCount(s.rs.QueryRowContext(ctx, `SELECT `+cashCountColumns+` FROM cash_counts
		WHERE restaurant_id = ? AND client_serial = ? ORDER BY count_no DESC LIMIT 1`, restaurantID, serial))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("cash count")
	}
	return c, err
}
