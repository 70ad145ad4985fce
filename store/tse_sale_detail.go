package store

import (
	"context"
	"database/sql"
	"encoding/json"
)

// Sale kinds: a receipt (Kassenbeleg-V1) or an order for table service
// (Bestellung-V1).
const (
	SaleKindReceipt = "receipt"
	SaleKindOrder   = "order"
)

// TSESaleDetail is what a sale contained, kept for the DSFinV-K export
// (migration 00010): amounts in cents, the business case (GV_TYP), the
// table (ABRECHNUNGSKREIS), the sale it cancels and its line items.
type TSESaleDetail struct {
	Kind            string
	BusinessCase    string
	AllocationGroup string // "" for none
	CancelsTxID     string // "" for none
	OperatorID      string // who sold; "" when not known
	OperatorName    string
	VAT             []TSESaleVAT
	Payments        []TSESalePayment
	Lines           []TSESaleLine
}

// TSESaleVAT is the gross amount of one VAT rate.
type TSESaleVAT struct {
	VATRate string
	Cents   int64
}

// TSESalePayment is one payment (or a closing's total of one payment
// type in one currency).
type TSESalePayment struct {
	PaymentType  string // CASH or NON_CASH
	CurrencyCode string
	Cents        int64 // in CurrencyCode
	// EURCents is the euro value (DSFinV-K BASISWAEH_BETRAG): Cents for
	// EUR (filled when nil); for a foreign currency what the till said it
	// was worth, nil when unknown (recorded before migration 00025).
	EURCents *int64
}

// EUR is the payment's euro value, and whether it is known.
func (p TSESalePayment) EUR() (int64, bool) {
	if p.EURCents != nil {
		return *p.EURCents, true
	}
	if p.CurrencyCode == "EUR" {
		return p.Cents, true
	}
	return 0, false
}

// eurArg is the payment's eur_cents column: NULL when unknown (the
// trigger of 00025 refuses that for a new sale's payment).
func (p TSESalePayment) eurArg() sql.NullInt64 {
	v, ok := p.EUR()
	return sql.NullInt64{Int64: v, Valid: ok}
}

// scanEUR reads an eur_cents column into p.
func (p *TSESalePayment) scanEUR(v sql.NullInt64) {
	if v.Valid {
		p.EURCents = &v.Int64
	}
}

// scanSalePayment reads a row of salePaymentColumns.
func scanSalePayment(sc scanner) (txID string, p TSESalePayment, err error) {
	var eur sql.NullInt64
	err = sc.Scan(&txID, &p.PaymentType, &p.CurrencyCode, &p.Cents, &eur)
	p.scanEUR(eur)
	return txID, p, err
}

const salePaymentColumns = `tx_id, payment_type, currency_code, cents, eur_cents`

// TSESaleLine is one line item; quantity in thousandths.
type TSESaleLine struct {
	LineNo         int
	Text           string
	QuantityMilli  int64
	UnitPriceCents int64
	TotalCents     int64
	VATRate        string
	ItemNumber     string
	DiscountID     string
	BusinessCase   string
	RedemptionID   string // the redemption a discount line books, "" for none
}

// insertTSESaleDetail writes a sale's detail with the sale.
func insertTSESaleDetail(ctx context.Context, tx *Tx, n NewTSESale) error {
	d := n.Detail
	if d == nil {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO tse_sale_details (tx_id, restaurant_id, kind, business_case, allocation_group, cancels_tx_id,
		operator_id, operator_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, n.TxID, n.RestaurantID, d.Kind, d.BusinessCase, nullStr(d.AllocationGroup),
		nullStr(d.CancelsTxID), nullStr(d.OperatorID), nullStr(d.OperatorName)); err != nil {
		return err
	}
	for _, v := range d.VAT {
		if _, err := tx.ExecContext(ctx, `INSERT INTO tse_sale_vat (tx_id, vat_rate, cents) VALUES (?, ?, ?)`, n.TxID, v.VATRate, v.Cents); err != nil {
			return err
		}
	}
	for i, p := range d.Payments {
		if _, err := tx.ExecContext(ctx, `INSERT INTO tse_sale_payments (tx_id, seq, payment_type, currency_code, cents, eur_cents) VALUES (?, ?, ?, ?, ?, ?)`,
			n.TxID, i+1, p.PaymentType, p.CurrencyCode, p.Cents, p.eurArg()); err != nil {
			return err
		}
	}
	for i, l := range d.Lines {
		if _, err := tx.ExecContext(ctx, `INSERT INTO tse_sale_lines (tx_id, line_no, text, quantity_milli, unit_price_cents, total_cents,
			vat_rate, item_number, discount_id, business_case, redemption_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			n.TxID, i+1, l.Text, l.QuantityMilli, l.UnitPriceCents, l.TotalCents, l.VATRate, nullStr(l.ItemNumber), nullStr(l.DiscountID), l.BusinessCase,
			nullStr(l.RedemptionID)); err != nil {
			return err
		}
	}
	return nil
}

func nullStr(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// detailQueryer reads one row or many, in a transaction or not.
type detailQueryer interface {
	queryer
	rowsQueryer
}

// TSESaleDetail reads what a sale contained. A sale without a recorded
// detail (learnt from the provider by the reconciler) is a not_found
// error.
func (s *Store) TSESaleDetail(ctx context.Context, txID string) (*TSESaleDetail, error) {
	ds, err := s.TSESaleDetails(ctx, []string{txID})
	if err != nil {
		return nil, err
	}
	if d, ok := ds[txID]; ok {
		return d, nil
	}
	return nil, NotFound("sale detail")
}

// TSESaleDetails reads what the sales txIDs contained, by transaction id,
// in four queries however many there are (a day's list reads hundreds).
// A sale without a recorded detail is missing from the map.
func (s *Store) TSESaleDetails(ctx context.Context, txIDs []string) (map[string]*TSESaleDetail, error) {
	ids, _ := json.Marshal(txIDs)
	out := map[string]*TSESaleDetail{}
	if err := eachRow(ctx, s.rdb, func(sc scanner) error {
		var id string
		var group, cancels, opID, opName sql.NullString
		d := &TSESaleDetail{VAT: []TSESaleVAT{}, Payments: []TSESalePayment{}, Lines: []TSESaleLine{}}
		if err := sc.Scan(&id, &d.Kind, &d.BusinessCase, &group, &cancels, &opID, &opName); err != nil {
			return err
		}
		d.AllocationGroup, d.CancelsTxID, d.OperatorID, d.OperatorName = group.String, cancels.String, opID.String, opName.String
		out[id] = d
		return nil
	}, `SELECT tx_id, kind, business_case, allocation_group, cancels_tx_id, operator_id, operator_name
		FROM tse_sale_details WHERE tx_id IN (SELECT value FROM json_each(?))`, string(ids)); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return out, nil
	}
	if err := eachRow(ctx, s.rdb, func(sc scanner) error {
		var id string
		var v TSESaleVAT
		if err := sc.Scan(&id, &v.VATRate, &v.Cents); err != nil {
			return err
		}
		if d := out[id]; d != nil {
			d.VAT = append(d.VAT, v)
		}
		return nil
	}, `SELECT tx_id, vat_rate, cents FROM tse_sale_vat WHERE tx_id IN (SELECT value FROM json_each(?))
		ORDER BY tx_id, CASE vat_rate WHEN 'NORMAL' THEN 1 WHEN 'REDUCED_1' THEN 2
		WHEN 'SPECIAL_RATE_1' THEN 3 WHEN 'SPECIAL_RATE_2' THEN 4 ELSE 5 END`, string(ids)); err != nil {
		return nil, err
	}
	if err := eachRow(ctx, s.rdb, func(sc scanner) error {
		id, p, err := scanSalePayment(sc)
		if err != nil {
			return err
		}
		if d := out[id]; d != nil {
			d.Payments = append(d.Payments, p)
		}
		return nil
	}, `SELECT `+salePaymentColumns+` FROM tse_sale_payments
		WHERE tx_id IN (SELECT value FROM json_each(?)) ORDER BY tx_id, seq`, string(ids)); err != nil {
		return nil, err
	}
	if err := eachRow(ctx, s.rdb, func(sc scanner) error {
		var id string
		var l TSESaleLine
		var item, discount, redemption sql.NullString
		if err := sc.Scan(&id, &l.LineNo, &l.Text, &l.QuantityMilli, &l.UnitPriceCents, &l.TotalCents, &l.VATRate, &item, &discount, &l.BusinessCase,
			&redemption); err != nil {
			return err
		}
		l.ItemNumber, l.DiscountID, l.RedemptionID = item.String, discount.String, redemption.String
		if d := out[id]; d != nil {
			d.Lines = append(d.Lines, l)
		}
		return nil
	}, `SELECT tx_id, line_no, text, quantity_milli, unit_price_cents, total_cents, vat_rate, item_number, discount_id, business_case,
		redemption_id FROM tse_sale_lines WHERE tx_id IN (SELECT value FROM json_each(?)) ORDER BY tx_id, line_no`, string(ids)); err != nil {
		return nil, err
	}
	return out, nil
}
