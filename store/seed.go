package store

import (
	"context"
	"database/sql"
	"strings"
	"time"
)

// The seeder (internal/seed, in the binary built with -tags seed only)
// writes years of a busy restaurant's sales. A sale through
// CreateTSESale and CompleteTSEJob is three write transactions; a year
// is 110,000 of them. SeedFiscalDay writes days of sales (the seeder
// hands it a week), already signed, and their closings in one transaction with the same rows and columns
// those write (many rows a statement): what the box would hold had it sold
// them.

// SeedSale is one sale of a history, signed: the sale as CreateTSESale
// records it and the TSE's answers to its two revisions.
type SeedSale struct {
	NewTSESale
	Start, Finish TSESigned
	// RecordedAt is when the till sent it (business_time, created_at).
	RecordedAt time.Time
}

// SeedClosing is a closing of a history as CreateTSEClosing takes it:
// the sales it covers in their order and their totals (counted sales).
type SeedClosing struct {
	ClientSerial string
	BusinessDate string
	Until        time.Time
	TxIDs        []string
	TotalCents   int64
	CashCents    int64
	VAT          []TSESaleVAT
	Payments     []TSESalePayment
	At           time.Time // when the automatic closing ran
}

// seedTables are the tables SeedFiscalDay fills, in the order the
// foreign keys need, with the columns CreateTSESale, CompleteTSEJob
// and insertTSESaleDetail write.
var seedTables = []struct{ table, columns string }{
	{"tse_clients", "client_id, restaurant_id, tss_id, client_serial, registered_at, created_at"},
	{"tse_transactions", `tx_id, restaurant_id, tss_id, client_id, client_serial, receipt_type, total_cents,
		number, state, latest_revision, time_start, time_end, signature_counter, signature_value, log_time, qr_code_data,
		tss_serial_number, business_time, created_at, updated_at`},
	{"tse_sale_details", "tx_id, restaurant_id, kind, business_case, allocation_group, cancels_tx_id, operator_id, operator_name"},
	{"tse_sale_vat", "tx_id, vat_rate, cents"},
	{"tse_sale_payments", "tx_id, seq, payment_type, currency_code, cents, eur_cents"},
	{"tse_sale_lines", `tx_id, line_no, text, quantity_milli, unit_price_cents, total_cents,
		vat_rate, item_number, discount_id, business_case`},
	{"tse_jobs", `id, restaurant_id, tss_id, client_id, tx_id, revision, target_state, body, status, attempts,
		next_attempt_at, created_at, done_at`},
}

const (
	seedClient = iota
	seedTx
	seedDetail
	seedVAT
	seedPayment
	seedLine
	seedJob
)

// seedChunk rows go in one INSERT: a statement's fixed cost (its
// journal, the foreign key checks' setup) is most of a small row's.
const seedChunk = 64

// SeedMode sets the seeding store's writer connection up for years of
// rows: a 1 GiB page cache (the indexes of random ids stay in memory;
// past ten years' 4 GiB they would be read back from the file again and
// again), temporary b-trees in memory (profiles showed temp files opened
// per statement), and a checkpoint every 64 MiB of WAL instead of every
// 4 MiB (a page changed many times is written to the file once; every
// store on the file must ask for it, as any commit checkpoints past its
// own threshold). The settings end with the store; the file keeps none.
func (s *Store) SeedMode(ctx context.Context) error {
	return s.write(ctx, func(tx *Tx) error {
		for _, p := range []string{`PRAGMA cache_size = -1048576`, `PRAGMA temp_store = MEMORY`, `PRAGMA wal_autocheckpoint = 16384`} {
			if _, err := tx.ExecContext(ctx, p); err != nil {
				return err
			}
		}
		return nil
	})
}

// SeedFiscalDay writes sales (signed) and then closings in one write
// transaction. A day of 300 sales is about 4,000 rows. It takes the
// writer's connection itself, outside the group commit: the writer wraps
// every operation in a SAVEPOINT, which copies each page a statement
// first changes into a journal (a fifth of the seeding's inserts), and the
// seeder waits for every write anyway, so nothing else is in flight.
func (s *Store) SeedFiscalDay(ctx context.Context, sales []SeedSale, closings []SeedClosing) error {
	rows := make([][][]any, len(seedTables))
	clients := map[string]bool{}
	for i := range sales {
		seedSaleRows(rows, clients, &sales[i])
	}
	conn, err := s.wdb.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	st := &seedBatch{tx: tx, stmts: map[string]*sql.Stmt{}}
	for t, rs := range rows {
		if err := st.insert(ctx, t, rs); err != nil {
			return err
		}
	}
	for i := range closings {
		if err := seedClosing(ctx, tx, &closings[i]); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// seedBatch is SeedFiscalDay's transaction with its prepared inserts.
type seedBatch struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

// insert inserts rows into seedTables[t], seedChunk a statement.
func (st *seedBatch) insert(ctx context.Context, t int, rows [][]any) error {
	verb := "INSERT"
	if t == seedClient {
		verb = "INSERT OR IGNORE" // a till's client row comes with its first sale
	}
	for len(rows) > 0 {
		n := min(len(rows), seedChunk)
		one := "(?" + strings.Repeat(", ?", len(rows[0])-1) + ")"
		q := verb + " INTO " + seedTables[t].table + " (" + seedTables[t].columns + ") VALUES " + one + strings.Repeat(", "+one, n-1)
		args := make([]any, 0, n*len(rows[0]))
		for _, r := range rows[:n] {
			args = append(args, r...)
		}
		stmt := st.stmts[q]
		if stmt == nil {
			var err error
			if stmt, err = st.tx.PrepareContext(ctx, q); err != nil {
				return err
			}
			st.stmts[q] = stmt
		}
		if _, err := stmt.ExecContext(ctx, args...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

// seedSaleRows adds a sale's rows to rows (by seedTables index).
func seedSaleRows(rows [][][]any, clients map[string]bool, s *SeedSale) {
	n, f := &s.NewTSESale, s.Finish
	at := FormatTime(s.RecordedAt)
	if !clients[n.ClientID] {
		clients[n.ClientID] = true
		rows[seedClient] = append(rows[seedClient], []any{n.ClientID, n.RestaurantID, n.TSSID, n.ClientSerial, at, at})
	}
	var end any
	if f.TimeEnd != nil {
		end = FormatTime(*f.TimeEnd)
	}
	rows[seedTx] = append(rows[seedTx], []any{n.TxID, n.RestaurantID, n.TSSID, n.ClientID, n.ClientSerial, n.ReceiptType,
		n.TotalCents, f.Number, f.State, f.Revision, FormatTime(f.TimeStart), end, f.SignatureCounter, f.SignatureValue,
		FormatTime(f.LogTime), f.QRCodeData, f.TSSSerialNumber, at, at, FormatTime(f.LogTime)})
	if d := n.Detail; d != nil {
		rows[seedDetail] = append(rows[seedDetail], []any{n.TxID, n.RestaurantID, d.Kind, d.BusinessCase, nullStr(d.AllocationGroup),
			nullStr(d.CancelsTxID), nullStr(d.OperatorID), nullStr(d.OperatorName)})
		for _, v := range d.VAT {
			rows[seedVAT] = append(rows[seedVAT], []any{n.TxID, v.VATRate, v.Cents})
		}
		for i, p := range d.Payments {
			rows[seedPayment] = append(rows[seedPayment], []any{n.TxID, i + 1, p.PaymentType, p.CurrencyCode, p.Cents, p.eurArg()})
		}
		for i, l := range d.Lines {
			rows[seedLine] = append(rows[seedLine], []any{n.TxID, i + 1, l.Text, l.QuantityMilli, l.UnitPriceCents, l.TotalCents,
				l.VATRate, nullStr(l.ItemNumber), nullStr(l.DiscountID), l.BusinessCase})
		}
	}
	for i, r := range []struct {
		body  []byte
		state string
		done  time.Time
	}{{n.StartBody, tseTxActive, s.Start.LogTime}, {n.FinishBody, tseTxFinished, f.LogTime}} {
		rows[seedJob] = append(rows[seedJob], []any{NewID(), n.RestaurantID, n.TSSID, n.ClientID, n.TxID, i + 1, r.state, r.body,
			TSEJobDone, 1, at, at, FormatTime(r.done)})
	}
}

// seedClosing is CreateTSEClosing's insert of a closing whose sales and
// totals are known.
func seedClosing(ctx context.Context, tx *sql.Tx, c *SeedClosing) error {
	var restaurantID string
	if err := tx.QueryRowContext(ctx, `SELECT restaurant_id FROM tse_transactions WHERE tx_id = ?`, c.TxIDs[0]).Scan(&restaurantID); err != nil {
		return err
	}
	var z int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(z_nr), 0) + 1 FROM tse_closings WHERE restaurant_id = ? AND client_serial = ?`,
		restaurantID, c.ClientSerial).Scan(&z); err != nil {
		return err
	}
	id := NewID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO tse_closings (id, restaurant_id, client_serial, z_nr, business_date, covered_until,
		tx_count, first_tx_id, last_tx_id, total_cents, cash_cents, automatic, created_by, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, restaurantID, c.ClientSerial, z, c.BusinessDate, FormatTime(c.Until), len(c.TxIDs), c.TxIDs[0], c.TxIDs[len(c.TxIDs)-1],
		c.TotalCents, c.CashCents, true, nil, FormatTime(c.At)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO tse_closing_transactions (closing_id, tx_id) SELECT ?, value FROM json_each(?)`,
		id, jsonList(c.TxIDs)); err != nil {
		return err
	}
	for _, v := range c.VAT {
		if _, err := tx.ExecContext(ctx, `INSERT INTO tse_closing_totals (closing_id, kind, code, currency_code, cents) VALUES (?, 'vat', ?, 'EUR', ?)`,
			id, v.VATRate, v.Cents); err != nil {
			return err
		}
	}
	for _, p := range c.Payments {
		if _, err := tx.ExecContext(ctx, `INSERT INTO tse_closing_totals (closing_id, kind, code, currency_code, cents, eur_cents)
			VALUES (?, 'payment', ?, ?, ?, ?)`, id, p.PaymentType, p.CurrencyCode, p.Cents, p.eurArg()); err != nil {
			return err
		}
	}
	return nil
}
