package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// EClosingEmpty: a closing was asked for a register with no sale to close.
const EClosingEmpty = "closing_empty"

// ClosingCountedTypes are the receipt types a closing counts as revenue
// and payment (the others are training, orders, transfers, aborts: no
// money changed hands). A transaction the TSE cancelled counts nothing.
var ClosingCountedTypes = []string{"RECEIPT", "INVOICE", "BENEFIT_IN_KIND"}

// countedSQL is the condition on t (tse_transactions) and d
// (tse_sale_details) of a sale a closing counts.
const countedSQL = `d.kind = 'receipt' AND t.receipt_type IN ('RECEIPT', 'INVOICE', 'BENEFIT_IN_KIND') AND t.state != 'CANCELLED'`

// TSEClosing is a daily closing (Kassenabschluss) of one cash register:
// immutable once taken (migration 00010's triggers).
type TSEClosing struct {
	ID           string
	RestaurantID string
	ClientSerial string
	ZNr          int64
	BusinessDate string // local YYYY-MM-DD
	CoveredUntil time.Time
	TxCount      int
	FirstTxID    string
	LastTxID     string
	TotalCents   int64
	// CashCents is the cash's euro value as the closing stored it: since
	// migration 00025 foreign cash at its euro value, before that EUR cash
	// only. CashEUR is the figure to show.
	CashCents int64
	Automatic bool
	CreatedBy string // user id, "" for the automatic closing
	CreatedAt time.Time
	VAT       []TSESaleVAT     // gross per VAT rate, counted sales
	Payments  []TSESalePayment // per payment type and currency
}

// PaidEUR is the euro value of all the closing's payments (DSFinV-K
// Z_SE_ZAHLUNGEN); ok is false when a foreign payment's is unknown.
func (c *TSEClosing) PaidEUR() (int64, bool) { return c.EURSum("") }

// CashEUR is the euro value of the closing's cash, foreign cash included
// (Z_SE_BARZAHLUNGEN); ok is false when a foreign payment's is unknown.
func (c *TSEClosing) CashEUR() (int64, bool) { return c.EURSum("CASH") }

// EURSum adds the euro values of the payments of one type ("" for all),
// every currency's; ok is false when one is unknown.
func (c *TSEClosing) EURSum(paymentType string) (int64, bool) {
	var sum int64
	for _, p := range c.Payments {
		if paymentType != "" && p.PaymentType != paymentType {
			continue
		}
		eur, ok := p.EUR()
		if !ok {
			return 0, false
		}
		sum += eur
	}
	return sum, true
}

// NewTSEClosing asks for a closing of a register's sales recorded before
// Until (the end of BusinessDate, or now) that no closing covers yet.
type NewTSEClosing struct {
	RestaurantID string
	ClientSerial string
	BusinessDate string
	Until        time.Time
	Automatic    bool
	CreatedBy    string
}

// CreateTSEClosing takes a closing in one write transaction: the sales it
// covers, the next Z_NR of the register (the unique index and the
// trigger of 00010 refuse any other), its totals. No sale to close is
// 409 closing_empty and writes nothing.
func (s *Store) CreateTSEClosing(ctx context.Context, n NewTSEClosing) (*TSEClosing, error) {
	var out *TSEClosing
	err := s.write(ctx, func(tx *Tx) error {
		// A closing of a past day covers what was recorded before the
		// day's end; one of today covers what was recorded up to now,
		// including a sale recorded in the same millisecond.
		until, before := n.Until, "<"
		if !until.Before(tx.Now) {
			until, before = tx.Now, "<="
		}
		from, err := closingFrom(ctx, tx, n.RestaurantID, n.ClientSerial)
		if err != nil {
			return err
		}
		var ids, counted []string
		if err := eachRow(ctx, tx, func(sc scanner) error {
			var id string
			var c bool
			if err := sc.Scan(&id, &c); err != nil {
				return err
			}
			if ids = append(ids, id); c {
				counted = append(counted, id)
			}
			return nil
		}, closingSalesSQL(before), n.RestaurantID, n.ClientSerial, from, FormatTime(until)); err != nil {
			return err
		}
		if len(ids) == 0 {
			return Errorf(EClosingEmpty, "register %s has no sale to close before %s", n.ClientSerial, FormatTime(until))
		}
		var z int64
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(z_nr), 0) + 1 FROM tse_closings WHERE restaurant_id = ? AND client_serial = ?`,
			n.RestaurantID, n.ClientSerial).Scan(&z); err != nil {
			return err
		}
		id := NewID()
		var createdBy sql.NullString
		if n.CreatedBy != "" {
			createdBy = sql.NullString{String: n.CreatedBy, Valid: true}
		}
		// Totals are filled below; the row is written first so that the
		// member rows can reference it, and it is never updated (the
		// trigger forbids it), so the totals are computed beforehand.
		vat, pay, total, cash, err := closingSums(ctx, tx, counted)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO tse_closings (id, restaurant_id, client_serial, z_nr, business_date, covered_until,
			tx_count, first_tx_id, last_tx_id, total_cents, cash_cents, automatic, created_by, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, n.RestaurantID, n.ClientSerial, z, n.BusinessDate, FormatTime(until), len(ids), ids[0], ids[len(ids)-1],
			total, cash, n.Automatic, createdBy, FormatTime(tx.Now)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO tse_closing_transactions (closing_id, tx_id) SELECT ?, value FROM json_each(?)`,
			id, jsonList(ids)); err != nil {
			return err
		}
		for _, v := range vat {
			if _, err := tx.ExecContext(ctx, `INSERT INTO tse_closing_totals (closing_id, kind, code, currency_code, cents) VALUES (?, 'vat', ?, 'EUR', ?)`,
				id, v.VATRate, v.Cents); err != nil {
				return err
			}
		}
		for _, p := range pay {
			if _, err := tx.ExecContext(ctx, `INSERT INTO tse_closing_totals (closing_id, kind, code, currency_code, cents, eur_cents)
				VALUES (?, 'payment', ?, ?, ?, ?)`, id, p.PaymentType, p.CurrencyCode, p.Cents, p.eurArg()); err != nil {
				return err
			}
		}
		out, err = tseClosing(ctx, tx, n.RestaurantID, id)
		return err
	})
	return out, err
}

// closingSums totals a closing's counted sales: per VAT rate, per
// payment type and currency, the gross and the cash's euro value.
func closingSums(ctx context.Context, tx *Tx, counted []string) (vat []TSESaleVAT, pay []TSESalePayment, total, cash int64, err error) {
	vat, err = queryAll(ctx, tx, func(sc scanner) (TSESaleVAT, error) {
		var v TSESaleVAT
		return v, sc.Scan(&v.VATRate, &v.Cents)
	}, closingVATSQL, jsonList(counted))
	if err != nil {
		return nil, nil, 0, 0, err
	}
	pay, err = queryAll(ctx, tx, func(sc scanner) (TSESalePayment, error) {
		var p TSESalePayment
		var eur sql.NullInt64
		err := sc.Scan(&p.PaymentType, &p.CurrencyCode, &p.Cents, &eur)
		p.scanEUR(eur)
		return p, err
	}, closingPaymentsSQL, jsonList(counted))
	if err != nil {
		return nil, nil, 0, 0, err
	}
	for _, v := range vat {
		total += v.Cents
	}
	// cash_cents is the cash's euro value (Z_SE_BARZAHLUNGEN), foreign
	// cash at its euro value; one without a known value (a sale
	// recorded before migration 00025) adds nothing here, and the
	// closing's totals say it is unknown (CashEUR).
	for _, p := range pay {
		if eur, ok := p.EUR(); ok && p.PaymentType == "CASH" {
			cash += eur
		}
	}
	return vat, pay, total, cash, nil
}

// closingVATSQL and closingPaymentsSQL total the counted sales of a
// closing (a JSON list of tx_ids, closingSalesSQL's counted ones).
var (
	closingVATSQL = `SELECT vat_rate, sum(cents) FROM tse_sale_vat WHERE tx_id IN (SELECT value FROM json_each(?))
		GROUP BY vat_rate ORDER BY ` + vatOrderSQL("vat_rate")
	// A currency's euro total is known only when every payment's is.
	closingPaymentsSQL = `SELECT payment_type, currency_code, sum(cents), CASE WHEN count(eur_cents) = count(*) THEN sum(eur_cents) END
		FROM tse_sale_payments WHERE tx_id IN (SELECT value FROM json_each(?))
		GROUP BY payment_type, currency_code ORDER BY payment_type, currency_code != 'EUR', currency_code`
)

// vatOrderSQL orders VAT rates as processData does: 19, 7, 10.7, 5.5, 0 %.
func vatOrderSQL(col string) string {
	return `CASE ` + col + ` WHEN 'NORMAL' THEN 1 WHEN 'REDUCED_1' THEN 2 WHEN 'SPECIAL_RATE_1' THEN 3 WHEN 'SPECIAL_RATE_2' THEN 4 ELSE 5 END`
}

// jsonList is a JSON array of strings, for json_each.
func jsonList(ids []string) string {
	b := []byte{'['}
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, id...) // ids are UUIDs: nothing to escape
		b = append(b, '"')
	}
	return string(append(b, ']'))
}

const tseClosingColumns = `id, restaurant_id, client_serial, z_nr, business_date, covered_until, tx_count, first_tx_id, last_tx_id,
	total_cents, cash_cents, automatic, created_by, created_at`

func scanTSEClosing(sc scanner) (*TSEClosing, error) {
	var c TSEClosing
	var until, created string
	var by sql.NullString
	if err := sc.Scan(&c.ID, &c.RestaurantID, &c.ClientSerial, &c.ZNr, &c.BusinessDate, &until, &c.TxCount, &c.FirstTxID, &c.LastTxID,
		&c.TotalCents, &c.CashCents, &c.Automatic, &by, &created); err != nil {
		return nil, err
	}
	c.CoveredUntil, c.CreatedAt, c.CreatedBy = ParseTime(until), ParseTime(created), by.String
	return &c, nil
}

// closingTotals reads a closing's totals into it.
func closingTotals(ctx context.Context, q rowsQueryer, c *TSEClosing) error {
	type row struct {
		kind, code, cur string
		cents           int64
		eur             sql.NullInt64
	}
	rows, err := queryAll(ctx, q, func(sc scanner) (row, error) {
		var r row
		return r, sc.Scan(&r.kind, &r.code, &r.cur, &r.cents, &r.eur)
	}, `SELECT kind, code, currency_code, cents, eur_cents FROM tse_closing_totals WHERE closing_id = ?
		ORDER BY kind DESC, `+vatOrderSQL("code")+`, code, currency_code != 'EUR', currency_code`, c.ID)
	if err != nil {
		return err
	}
	c.VAT, c.Payments = []TSESaleVAT{}, []TSESalePayment{}
	for _, r := range rows {
		if r.kind == "vat" {
			c.VAT = append(c.VAT, TSESaleVAT{VATRate: r.code, Cents: r.cents})
		} else {
			p := TSESalePayment{PaymentType: r.code, CurrencyCode: r.cur, Cents: r.cents}
			p.scanEUR(r.eur) // an EUR row of a closing taken before 00025 has none: EUR() is its amount
			c.Payments = append(c.Payments, p)
		}
	}
	return nil
}

func tseClosing(ctx context.Context, q detailQueryer, restaurantID, id string) (*TSEClosing, error) {
	c, err := scanTSEClosing(q.QueryRowContext(ctx, `SELECT `+tseClosingColumns+` FROM tse_closings WHERE id = ? AND restaurant_id = ?`, id, restaurantID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, NotFound("closing")
	}
	if err != nil {
		return nil, err
	}
	return c, closingTotals(ctx, q, c)
}

// TSEClosing reads one closing of a restaurant.
func (s *Store) TSEClosing(ctx context.Context, restaurantID, id string) (*TSEClosing, error) {
	return tseClosing(ctx, s.rdb, restaurantID, id)
}

// ClosingFilter narrows a list of closings; zero fields are open.
type ClosingFilter struct {
	ClientSerial     string
	DateFrom, DateTo string // business dates, inclusive
	ZFrom, ZTo       int64  // inclusive; only with ClientSerial
}

// TSEClosings lists a restaurant's closings by register and Z_NR.
func (s *Store) TSEClosings(ctx context.Context, restaurantID string, f ClosingFilter) ([]*TSEClosing, error) {
	q := `SELECT ` + tseClosingColumns + ` FROM tse_closings WHERE restaurant_id = ?`
	args := []any{restaurantID}
	if f.ClientSerial != "" {
		q += ` AND client_serial = ?`
		args = append(args, f.ClientSerial)
	}
	if f.DateFrom != "" {
		q += ` AND business_date >= ?`
		args = append(args, f.DateFrom)
	}
	if f.DateTo != "" {
		q += ` AND business_date <= ?`
		args = append(args, f.DateTo)
	}
	if f.ZFrom > 0 {
		q += ` AND z_nr >= ?`
		args = append(args, f.ZFrom)
	}
	if f.ZTo > 0 {
		q += ` AND z_nr <= ?`
		args = append(args, f.ZTo)
	}
	cs, err := queryAll(ctx, s.rdb, scanTSEClosing, q+` ORDER BY client_serial, z_nr`, args...)
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		if err := closingTotals(ctx, s.rdb, c); err != nil {
			return nil, err
		}
	}
	return cs, nil
}

// TSEClosingTxIDs lists the sales a closing covers, in the order they
// were recorded.
func (s *Store) TSEClosingTxIDs(ctx context.Context, closingID string) ([]string, error) {
	return queryAll(ctx, s.rdb, func(sc scanner) (string, error) {
		var id string
		return id, sc.Scan(&id)
	}, `SELECT c.tx_id FROM tse_closing_transactions c JOIN tse_transactions t ON t.tx_id = c.tx_id
		WHERE c.closing_id = ? ORDER BY t.business_time, t.rowid`, closingID)
}
