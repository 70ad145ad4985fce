package store

import (
	"context"
	"database/sql"
	"errors"
)

// ClosedSale is one sale of a closing as the DSFinV-K export reads it:
// the mirror row, what it contained, its receipt number and the outage it
// went through.
type ClosedSale struct {
	*TSETransaction
	// ReceiptNo is posbox's receipt number (BON_NR): the mirror row's
	// rowid, unique and increasing in recording order, also for sales the
	// TSE never signed.
	ReceiptNo int64
	// Detail is nil for a sale recorded before migration 00010 whose
	// finishing revision could not be read.
	Detail                   *TSESaleDetail
	OutageCode, OutageReason string // "" when the sale went through no outage
}

// ClosingSales lists the sales a closing covers, in recording order.
func (s *Store) ClosingSales(ctx context.Context, closingID string) ([]*ClosedSale, error) {
	type key struct {
		id           string
		rowid        int64
		code, reason sql.NullString
	}
	keys, err := queryAll(ctx, s.rdb, func(sc scanner) (key, error) {
		var k key
		return k, sc.Scan(&k.id, &k.rowid, &k.code, &k.reason)
	}, `SELECT t.tx_id, t.rowid, o.reason_code, o.reason FROM tse_closing_transactions c
		JOIN tse_transactions t ON t.tx_id = c.tx_id LEFT JOIN tse_outages o ON o.id = t.outage_id
		WHERE c.closing_id = ? ORDER BY t.business_time, t.rowid`, closingID)
	if err != nil {
		return nil, err
	}
	out := make([]*ClosedSale, 0, len(keys))
	for _, k := range keys {
		var t TSETransaction
		row, err := scanTSETransaction(s.rdb.QueryRowContext(ctx, `SELECT `+tseTxColumns+` FROM tse_transactions WHERE tx_id = ?`, k.id))
		if err != nil {
			return nil, err
		}
		t = *row
		cs := &ClosedSale{TSETransaction: &t, ReceiptNo: k.rowid, OutageCode: k.code.String, OutageReason: k.reason.String}
		if cs.Detail, err = tseSaleDetail(ctx, s.rdb, k.id); err != nil && !IsNotFound(err) {
			return nil, err
		}
		out = append(out, cs)
	}
	return out, nil
}

// ClosingOf is the closing that covers a sale, or a not_found error.
func (s *Store) ClosingOf(ctx context.Context, restaurantID, txID string) (*TSEClosing, error) {
	var id string
	err := s.rdb.QueryRowContext(ctx, `SELECT closing_id FROM tse_closing_transactions WHERE tx_id = ?`, txID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("closing")
	}
	if err != nil {
		return nil, err
	}
	return tseClosing(ctx, s.rdb, restaurantID, id)
}
