package store

import (
	"context"
	"database/sql"
	"errors"
	"regexp"
	"time"
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
	// Detail is nil for a sale without a recorded detail (none is
	// written for rows the reconciler adds, and closings take only
	// posbox's own sales).
	Detail                   *TSESaleDetail
	OutageCode, OutageReason string // "" when the sale went through no outage
}

// ClosingSales lists the sales a closing covers, in recording order. It
// reads a closing in five queries, whatever its size (a year's export
// reads each closing once).
func (s *Store) ClosingSales(ctx context.Context, closingID string) ([]*ClosedSale, error) {
	const covered = `SELECT tx_id FROM tse_closing_transactions WHERE closing_id = ?`
	out, err := queryAll(ctx, s.rdb, func(sc scanner) (*ClosedSale, error) {
		var t TSETransaction
		var number, counter, rowid sql.NullInt64
		var start, end, logTime, sig, qr, serial, outage, code, reason sql.NullString
		var business, created, updated string
		err := sc.Scan(&t.TxID, &t.RestaurantID, &t.TSSID, &t.ClientID, &t.ClientSerial, &t.ReceiptType, &t.TotalCents, &number,
			&t.State, &t.LatestRevision, &start, &end, &counter, &sig, &logTime, &qr, &serial,
			&t.ReceiptWithoutTSE, &t.SignedLate, &outage, &t.Source, &business, &created, &updated, &rowid, &code, &reason)
		if err != nil {
			return nil, err
		}
		t.Number, t.SignatureCounter = nullInt(number), nullInt(counter)
		t.TimeStart, t.TimeEnd, t.LogTime = parseNullTime(start), parseNullTime(end), parseNullTime(logTime)
		t.SignatureValue, t.QRCodeData, t.TSSSerialNumber, t.OutageID = sig.String, qr.String, serial.String, outage.String
		t.BusinessTime, t.CreatedAt, t.UpdatedAt = ParseTime(business), ParseTime(created), ParseTime(updated)
		return &ClosedSale{TSETransaction: &t, ReceiptNo: rowid.Int64, OutageCode: code.String, OutageReason: reason.String}, nil
	}, `SELECT `+qualified("t.", tseTxColumns)+`, t.rowid, o.reason_code, o.reason FROM tse_transactions t
		LEFT JOIN tse_outages o ON o.id = t.outage_id
		WHERE t.tx_id IN (`+covered+`) ORDER BY t.business_time, t.rowid`, closingID)
	if err != nil {
		return nil, err
	}
	byID := map[string]*ClosedSale{}
	for _, c := range out {
		byID[c.TxID] = c
	}
	type detailRow struct {
		id string
		d  TSESaleDetail
	}
	details, err := queryAll(ctx, s.rdb, func(sc scanner) (detailRow, error) {
		var r detailRow
		var group, cancels, opID, opName sql.NullString
		err := sc.Scan(&r.id, &r.d.Kind, &r.d.BusinessCase, &group, &cancels, &opID, &opName)
		r.d.AllocationGroup, r.d.CancelsTxID, r.d.OperatorID, r.d.OperatorName = group.String, cancels.String, opID.String, opName.String
		return r, err
	}, `SELECT tx_id, kind, business_case, allocation_group, cancels_tx_id, operator_id, operator_name
		FROM tse_sale_details WHERE tx_id IN (`+covered+`)`, closingID)
	if err != nil {
		return nil, err
	}
	for _, r := range details {
		if c := byID[r.id]; c != nil {
			d := r.d
			c.Detail = &d
		}
	}
	detail := func(id string) *TSESaleDetail {
		if c := byID[id]; c != nil {
			return c.Detail
		}
		return nil
	}
	if _, err := queryAll(ctx, s.rdb, func(sc scanner) (struct{}, error) {
		var id string
		var v TSESaleVAT
		if err := sc.Scan(&id, &v.VATRate, &v.Cents); err != nil {
			return struct{}{}, err
		}
		if d := detail(id); d != nil {
			d.VAT = append(d.VAT, v)
		}
		return struct{}{}, nil
	}, `SELECT tx_id, vat_rate, cents FROM tse_sale_vat WHERE tx_id IN (`+covered+`) ORDER BY tx_id, `+vatOrderSQL("vat_rate"), closingID); err != nil {
		return nil, err
	}
	if _, err := queryAll(ctx, s.rdb, func(sc scanner) (struct{}, error) {
		id, p, err := scanSalePayment(sc)
		if err != nil {
			return struct{}{}, err
		}
		if d := detail(id); d != nil {
			d.Payments = append(d.Payments, p)
		}
		return struct{}{}, nil
	}, `SELECT `+salePaymentColumns+` FROM tse_sale_payments WHERE tx_id IN (`+covered+`) ORDER BY tx_id, seq`, closingID); err != nil {
		return nil, err
	}
	if _, err := queryAll(ctx, s.rdb, func(sc scanner) (struct{}, error) {
		var id string
		var l TSESaleLine
		var item, discount sql.NullString
		if err := sc.Scan(&id, &l.LineNo, &l.Text, &l.QuantityMilli, &l.UnitPriceCents, &l.TotalCents, &l.VATRate, &item, &discount,
			&l.BusinessCase); err != nil {
			return struct{}{}, err
		}
		l.ItemNumber, l.DiscountID = item.String, discount.String
		if d := detail(id); d != nil {
			d.Lines = append(d.Lines, l)
		}
		return struct{}{}, nil
	}, `SELECT tx_id, line_no, text, quantity_milli, unit_price_cents, total_cents, vat_rate, item_number, discount_id, business_case
		FROM tse_sale_lines WHERE tx_id IN (`+covered+`) ORDER BY tx_id, line_no`, closingID); err != nil {
		return nil, err
	}
	return out, nil
}

// qualified prefixes every column of a list with a table alias:
// "a, b" → "t.a, t.b".
func qualified(alias, cols string) string {
	return alias + columnSep.ReplaceAllString(cols, ", "+alias)
}

var columnSep = regexp.MustCompile(`,\s*`)

// SaleClosingRef is the closing that covers a sale, as a storno's
// reference names it (DSFinV-K's REF_Z_NR, REF_Z_KASSE_ID and REF_DATUM,
// the closing's Z_ERSTELLUNG).
type SaleClosingRef struct {
	ZNr          int64
	ClientSerial string
	CreatedAt    time.Time
}

// ClosingRef names the closing that covers a sale: its number, register
// and when it was taken, in one indexed read, not the closing with its
// totals (which summed the referenced day's sales for every storno). A
// not_found error when no closing covers the sale yet.
func (s *Store) ClosingRef(ctx context.Context, restaurantID, txID string) (SaleClosingRef, error) {
	var ref SaleClosingRef
	var created string
	err := s.rs.QueryRowContext(ctx, `SELECT c.z_nr, c.client_serial, c.created_at FROM tse_closing_transactions ct
		JOIN tse_closings c ON c.id = ct.closing_id WHERE ct.tx_id = ? AND c.restaurant_id = ?`, txID, restaurantID).
		Scan(&ref.ZNr, &ref.ClientSerial, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return SaleClosingRef{}, NotFound("closing")
	}
	ref.CreatedAt = ParseTime(created)
	return ref, err
}

// SaleReceipt is a sale's receipt number (BON_NR, the mirror row's
// rowid) and when it was recorded, as a storno names the sale it
// reverses (the Z-report).
func (s *Store) SaleReceipt(ctx context.Context, restaurantID, txID string) (no int64, at time.Time, err error) {
	var business string
	err = s.rs.QueryRowContext(ctx, `SELECT rowid, business_time FROM tse_transactions WHERE tx_id = ? AND restaurant_id = ?`,
		txID, restaurantID).Scan(&no, &business)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, time.Time{}, NotFound("transaction")
	}
	return no, ParseTime(business), err
}
