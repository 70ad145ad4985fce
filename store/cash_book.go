package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"time"
)

// Cash book error codes (docs/CASHDESK.md).
const (
	// ECashBookNotStarted: a count of a register whose cash book has not
	// begun (no movement booked yet: book the opening float first).
	ECashBookNotStarted = "cash_book_not_started"
	// ECashChanged: the drawer's balance moved between reading it and
	// booking the count (a sale or another count): count again.
	ECashChanged = "cash_changed"
)

// NewCashMovement is what the cash book keeps of a movement booked with
// a sale (NewTSESale.Movement): the sale is its signed receipt.
type NewCashMovement struct {
	Kind         string // opening_float, deposit, ... (migration 00031)
	Cents        int64  // signed: into the drawer > 0
	Reason       string
	VoucherNo    string
	ReversesTxID string // the movement this counter-entry reverses, "" for none
	BookedBy     string // user id
	BookedByName string
	// ForUser is whose float or tip payout it is when not BookedBy's
	// (a user id, "" for BookedBy); only those two kinds name one.
	ForUser string
}

// NewCashCount is a cash count; with a difference it is booked with the
// difference's sale (NewTSESale.Count), else by CreateCashCount.
type NewCashCount struct {
	ClientSerial string
	// LedgerSeq and ExpectedCents are the balance the count compares
	// with (CashBalanceOf): refused with ECashChanged if it moved since.
	LedgerSeq     int64
	ExpectedCents int64
	CountedCents  int64
	// Denominations counted (cents of a note or coin → how many); nil
	// when the count was given as one sum.
	Denominations map[int64]int64
	CountedBy     string
	CountedByName string
}

// CashBalance is a register's expected cash (Soll-Bestand) in euro.
type CashBalance struct {
	ClientSerial string
	Started      bool  // the cash book has begun (a movement was booked)
	LedgerSeq    int64 // the last ledger row (0 before the book begins)
	Cents        int64
	At           time.Time // when it last changed; zero before the book begins
}

// cashBalance is a register's last ledger row, read in q (a write
// transaction when a count is booked).
func cashBalance(ctx context.Context, q queryer, restaurantID, serial string) (CashBalance, error) {
	b := CashBalance{ClientSerial: serial}
	var at string
	err := q.QueryRowContext(ctx, `SELECT seq, balance_cents, created_at FROM cash_ledger
		WHERE restaurant_id = ? AND client_serial = ? ORDER BY seq DESC LIMIT 1`, restaurantID, serial).Scan(&b.LedgerSeq, &b.Cents, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return b, nil
	}
	b.Started, b.At = err == nil, ParseTime(at)
	return b, err
}

// CashBalanceOf is a register's expected cash now.
func (s *Store) CashBalanceOf(ctx context.Context, restaurantID, serial string) (CashBalance, error) {
	return cashBalance(ctx, s.rs, restaurantID, serial)
}

// CashBalances is the expected cash of every register of the restaurant
// that has a sale or a cash book, by serial.
func (s *Store) CashBalances(ctx context.Context, restaurantID string) ([]CashBalance, error) {
	serials, err := queryAll(ctx, s.rdb, func(sc scanner) (string, error) {
		var id string
		return id, sc.Scan(&id)
	}, registerSerialsSQL, restaurantID)
	if err != nil {
		return nil, err
	}
	out := make([]CashBalance, 0, len(serials))
	for _, serial := range serials {
		b, err := cashBalance(ctx, s.rdb, restaurantID, serial)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// recordCash writes what the cash book keeps of a sale, in the sale's
// transaction: the count whose difference it books, the movement it is,
// and its euro cash in the register's running balance once the book has
// begun (a movement begins it).
func recordCash(ctx context.Context, tx *Tx, n NewTSESale) error {
	countID := ""
	if n.Count != nil {
		id, err := insertCashCount(ctx, tx, n.RestaurantID, *n.Count, n.TxID)
		if err != nil {
			return err
		}
		countID = id
	}
	if m := n.Movement; m != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO cash_movements (tx_id, restaurant_id, client_serial, movement_no, kind, cents,
			reason, voucher_no, reverses_tx_id, count_id, booked_by, booked_by_name, for_user_id, created_at)
			VALUES (?, ?, ?, (SELECT coalesce(max(movement_no), 0) + 1 FROM cash_movements WHERE restaurant_id = ? AND client_serial = ?),
			?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			n.TxID, n.RestaurantID, n.ClientSerial, n.RestaurantID, n.ClientSerial, m.Kind, m.Cents, m.Reason, m.VoucherNo,
			nullStr(m.ReversesTxID), nullStr(countID), nullStr(m.BookedBy), m.BookedByName, nullStr(m.ForUser), tx.NowText()); err != nil {
			if isUnique(err) && m.ReversesTxID != "" {
				return Errorf(EAlreadyCancelled, "this movement has already been reversed; a movement is reversed once")
			}
			return err
		}
	}
	cents, ok := euroCash(n)
	if !ok {
		return nil
	}
	b, err := cashBalance(ctx, tx, n.RestaurantID, n.ClientSerial)
	if err != nil || (!b.Started && n.Movement == nil) {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO cash_ledger (restaurant_id, client_serial, tx_id, cents, balance_cents, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, n.RestaurantID, n.ClientSerial, n.TxID, cents, b.Cents+cents, tx.NowText())
	return err
}

// euroCash is a sale's euro cash (payments CASH in EUR) if the closing
// counts it (countedSQL's rule) and it is not zero.
func euroCash(n NewTSESale) (int64, bool) {
	d := n.Detail
	if d == nil || d.Kind != SaleKindReceipt || !slices.Contains(ClosingCountedTypes, n.ReceiptType) {
		return 0, false
	}
	var c int64
	for _, p := range d.Payments {
		if p.PaymentType == "CASH" && p.CurrencyCode == "EUR" {
			c += p.Cents
		}
	}
	return c, c != 0
}

// insertCashCount writes a count after checking, in the transaction,
// that the register's balance is still the one counted against.
func insertCashCount(ctx context.Context, tx *Tx, restaurantID string, c NewCashCount, differenceTxID string) (string, error) {
	b, err := cashBalance(ctx, tx, restaurantID, c.ClientSerial)
	switch {
	case err != nil:
		return "", err
	case !b.Started:
		return "", Errorf(ECashBookNotStarted, "register %s has no cash book yet: book its opening float first", c.ClientSerial)
	case b.LedgerSeq != c.LedgerSeq || b.Cents != c.ExpectedCents:
		return "", Errorf(ECashChanged, "the cash of register %s changed while it was counted (a sale or another count): count again", c.ClientSerial)
	}
	var denoms sql.NullString
	if c.Denominations != nil {
		j, err := json.Marshal(c.Denominations)
		if err != nil {
			return "", err
		}
		denoms = sql.NullString{String: string(j), Valid: true}
	}
	id := NewID()
	_, err = tx.ExecContext(ctx, `INSERT INTO cash_counts (id, restaurant_id, client_serial, count_no, ledger_seq, expected_cents,
		counted_cents, difference_cents, denominations, difference_tx_id, counted_by, counted_by_name, created_at)
		VALUES (?, ?, ?, (SELECT coalesce(max(count_no), 0) + 1 FROM cash_counts WHERE restaurant_id = ? AND client_serial = ?),
		?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, restaurantID, c.ClientSerial, restaurantID, c.ClientSerial, c.LedgerSeq, c.ExpectedCents, c.CountedCents,
		c.CountedCents-c.ExpectedCents, denoms, nullStr(differenceTxID), nullStr(c.CountedBy), c.CountedByName, tx.NowText())
	if isUnique(err) {
		return "", Errorf(ECashChanged, "register %s was counted at the same moment by someone else: count again", c.ClientSerial)
	}
	return id, err
}

// CreateCashCount books a count that found exactly the expected cash
// (one with a difference is booked with its sale).
func (s *Store) CreateCashCount(ctx context.Context, restaurantID string, c NewCashCount) (*CashCount, error) {
	var out *CashCount
	err := s.write(ctx, func(tx *Tx) error {
		if c.CountedCents != c.ExpectedCents {
			return errors.New("store: a count with a difference is booked with its sale")
		}
		id, err := insertCashCount(ctx, tx, restaurantID, c, "")
		if err != nil {
			return err
		}
		out, err = cashCount(ctx, tx, restaurantID, id)
		return err
	})
	return out, err
}
