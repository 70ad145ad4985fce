package retention

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"posbox/store"
)

// fiscalTables are the tables of the cash desk (receipts and their TSE
// revisions, closings, DSFinV-K data, the TSE archive's records, fiscal
// master data, discounts with their codes and redemptions at the till,
// restore checks), what records
// who confirmed the recovery sheet, and the procedure document with its
// program-change log (an Organisationsunterlage, kept ten years like the
// books: § 147 (1) Nr. 1 AO): seedFiscal puts a row in each.
var fiscalTables = []string{
	"tse_clients", "tse_jobs", "tse_transactions", "tse_outages", "tse_self_tests", "tse_archives",
	"tse_sale_details", "tse_sale_vat", "tse_sale_payments", "tse_sale_lines",
	"tse_closings", "tse_closing_transactions", "tse_closing_totals",
	"fiscal_master_data", "fiscal_registers", "discounts", "discount_schedule_windows", "discount_redemptions",
	"discount_code_batches", "discount_codes", "discount_code_guest_uses",
	"tse_after_restore", "tse_after_restore_missing", "replica_sheet_confirmations",
	"registration_known", "registration_submissions", "registration_changes",
	"program_changes", "procdoc_owner_texts", "procdoc_versions",
	"cash_ledger", "cash_counts", "cash_movements", "sale_redemptions",
	"discount_redemption_lines", "discount_redemption_rates",
}

// seedFiscal records, at `at`, a signed sale with two TSE revisions, its
// storno, a closing, an archived TSE export and every other fiscal kind,
// all sold by the staff member.
func seedFiscal(t *testing.T, f *fixture, at time.Time) {
	t.Helper()
	r, u, when, day := f.rest.ID, f.staff.ID, ts(at), at.In(berlin).Format(time.DateOnly)
	sale, storno, closing, check := store.NewID(), store.NewID(), store.NewID(), store.NewID()
	disc, batch, code, red := store.NewID(), store.NewID(), store.NewID(), store.NewID()
	q := func(format string, args ...any) string { return fmt.Sprintf(format, args...) }
	f.exec(t,
		q(`INSERT INTO tse_clients (client_id, restaurant_id, tss_id, client_serial, registered_at, created_at) VALUES ('c1', '%s', 'tss1', 'KASSE-1', '%s', '%s')`, r, when, when),
		q(`INSERT INTO tse_transactions (tx_id, restaurant_id, tss_id, client_id, client_serial, receipt_type, total_cents, number, state, latest_revision,
			time_start, time_end, signature_counter, signature_value, business_time, created_at, updated_at)
			VALUES ('%s', '%s', 'tss1', 'c1', 'KASSE-1', 'RECEIPT', 1250, 1, 'FINISHED', 2, '%s', '%s', 2, 'sig', '%s', '%s', '%s')`, sale, r, when, when, when, when, when),
		q(`INSERT INTO tse_transactions (tx_id, restaurant_id, tss_id, client_id, state, latest_revision, business_time, created_at, updated_at, total_cents, number)
			VALUES ('%s', '%s', 'tss1', 'c1', 'FINISHED', 2, '%s', '%s', '%s', -1250, 2)`, storno, r, when, when, when),
		q(`INSERT INTO tse_jobs (id, restaurant_id, tss_id, client_id, tx_id, revision, target_state, body, status, next_attempt_at, created_at, done_at)
			VALUES ('%s', '%s', 'tss1', 'c1', '%s', 1, 'ACTIVE', x'7b7d', 'done', '%s', '%s', '%s')`, store.NewID(), r, sale, when, when, when),
		q(`INSERT INTO tse_jobs (id, restaurant_id, tss_id, client_id, tx_id, revision, target_state, body, status, next_attempt_at, created_at, done_at)
			VALUES ('%s', '%s', 'tss1', 'c1', '%s', 2, 'FINISHED', x'7b7d', 'done', '%s', '%s', '%s')`, store.NewID(), r, sale, when, when, when),
		q(`INSERT INTO tse_outages (id, restaurant_id, tss_id, started_at, ended_at, reason_code, reason) VALUES ('%s', '%s', 'tss1', '%s', '%s', 'timeout', 'TSE answered late')`, store.NewID(), r, when, when),
		q(`INSERT INTO tse_self_tests (id, restaurant_id, tss_id, state, started_at, finished_at) VALUES ('%s', '%s', 'tss1', 'PASSED', '%s', '%s')`, store.NewID(), r, when, when),
		q(`INSERT INTO tse_archives (id, restaurant_id, tss_id, tss_serial, kind, first_counter, last_counter, export_id, state, next_attempt_at,
			verification, file_name, sha256, created_at, updated_at, archived_at)
			VALUES ('%s', '%s', 'tss1', 'SER1', 'incremental', 1, 4, 'exp1', 'archived', '%s', 'passed', 'tse-1-4.tar', 'ab', '%s', '%s', '%s')`, store.NewID(), r, when, when, when, when),
		q(`INSERT INTO tse_sale_details (tx_id, restaurant_id, kind, business_case, operator_id, operator_name) VALUES ('%s', '%s', 'receipt', 'Umsatz', '%s', 'Kim Koch')`, sale, r, u),
		q(`INSERT INTO tse_sale_details (tx_id, restaurant_id, kind, business_case, cancels_tx_id, operator_id, operator_name) VALUES ('%s', '%s', 'receipt', 'Umsatz', '%s', '%s', 'Kim Koch')`, storno, r, sale, u),
		q(`INSERT INTO tse_sale_vat (tx_id, vat_rate, cents) VALUES ('%s', 'REDUCED_1', 1250)`, sale),
		q(`INSERT INTO tse_sale_payments (tx_id, seq, payment_type, currency_code, cents, eur_cents) VALUES ('%s', 1, 'CASH', 'EUR', 1250, 1250)`, sale),
		q(`INSERT INTO tse_sale_lines (tx_id, line_no, text, quantity_milli, unit_price_cents, total_cents, vat_rate, business_case)
			VALUES ('%s', 1, 'Schnitzel', 1000, 1250, 1250, 'REDUCED_1', 'Umsatz')`, sale),
		q(`INSERT INTO tse_closings (id, restaurant_id, client_serial, z_nr, business_date, covered_until, tx_count, first_tx_id, last_tx_id, total_cents, cash_cents, automatic, created_at)
			VALUES ('%s', '%s', 'KASSE-1', 1, '%s', '%s', 2, '%s', '%s', 0, 0, 1, '%s')`, closing, r, day, when, sale, storno, when),
		q(`INSERT INTO tse_closing_transactions (closing_id, tx_id) VALUES ('%s', '%s'), ('%s', '%s')`, closing, sale, closing, storno),
		q(`INSERT INTO tse_closing_totals (closing_id, kind, code, cents) VALUES ('%s', 'vat', 'REDUCED_1', 0)`, closing),
		q(`INSERT INTO fiscal_master_data (restaurant_id, business_name, updated_at) VALUES ('%s', 'Zur Linde GmbH', '%s')`, r, when),
		q(`INSERT INTO fiscal_registers (restaurant_id, client_serial, in_service_on, updated_at) VALUES ('%s', 'KASSE-1', '%s', '%s')`, r, day, when),
		q(`INSERT INTO discounts (id, restaurant_id, name, discount_type, value, valid_from, created_at, updated_at)
			VALUES ('%s', '%s', 'Stammgast', 'percentage', 1000, '%s', '%s', '%s')`, disc, r, when, when, when),
		q(`INSERT INTO discount_schedule_windows (discount_id, weekday, from_minute, to_minute) VALUES ('%s', 5, 1020, 1140)`, disc),
		q(`INSERT INTO discount_code_batches (id, restaurant_id, discount_id, created_by, created_at, count, uses_per_code, once_per_guest)
			VALUES ('%s', '%s', '%s', '%s', '%s', 1, 2, 1)`, batch, r, disc, f.admin.ID, when),
		q(`INSERT INTO discount_codes (id, restaurant_id, code, batch_id, discount_id, uses, max_uses, once_per_guest, last_used_at)
			VALUES ('%s', '%s', 'K7QP-MX3D', '%s', '%s', 1, 2, 1, '%s')`, code, r, batch, disc, when),
		q(`INSERT INTO discount_code_guest_uses (code_id, guest_ref, created_at) VALUES ('%s', 'Karte 7', '%s')`, code, when),
		q(`INSERT INTO discount_redemptions (id, restaurant_id, discount_id, discount_name, order_total_cents, eligible_cents, amount_cents, redeemed_by, created_at, code_id, code)
			VALUES ('%s', '%s', '%s', 'Stammgast', 1250, 1250, 125, '%s', '%s', '%s', 'K7QP-MX3D')`, red, r, disc, u, when, code),
		q(`INSERT INTO tse_after_restore (id, restaurant_id, tss_id, restored_at, state, created_at) VALUES ('%s', '%s', 'tss1', '%s', 'done', '%s')`, check, r, when, when),
		q(`INSERT INTO tse_after_restore_missing (check_id, tx_id, number, signature_counter, state, time_start, client_id, acknowledged_at, acknowledged_by)
			VALUES ('%s', 'tx-missing', 3, 5, 'FINISHED', '%s', 'c1', '%s', '%s')`, check, when, when, f.admin.ID),
		q(`INSERT INTO replica_sheet_confirmations (public_key, confirmed_by, confirmed_by_name, confirmed_at) VALUES ('age1x', '%s', 'Anna Admin', '%s')`, f.admin.ID, when),
		q(`INSERT INTO registration_known (restaurant_id, kind, subject, in_service_on, seen_at) VALUES ('%s', 'register', 'KASSE-1', '%s', '%s')`, r, day, when),
		q(`INSERT INTO registration_submissions (id, restaurant_id, submitted_on, file, sha256, created_by, created_at)
			VALUES ('sub1', '%s', '%s', '<Aufzeichnung146a/>', '%s', '%s', '%s')`, r, day, strings.Repeat("ab", 32), f.admin.ID, when),
		q(`INSERT INTO registration_changes (id, restaurant_id, change, subject, on_date, due_on, created_at, submission_id)
			VALUES ('%s', '%s', 'register_in_service', 'KASSE-1', '%s', '%s', '%s', 'sub1')`, store.NewID(), r, day, day, when),
		q(`INSERT INTO program_changes (version, build, schema_version, schema_from, first_seen_at) VALUES ('v1.0.0', 'abc', 29, 0, '%s')`, when),
		q(`INSERT INTO procdoc_owner_texts (restaurant_id, version, organisation, till_operation, cash_counting, internal_control, saved_by, saved_at)
			VALUES ('%s', 1, 'GmbH', '', '', '', '%s', '%s')`, r, f.admin.ID, when),
		q(`INSERT INTO procdoc_versions (restaurant_id, version, sha256, content, generated_at) VALUES ('%s', 1, '%064d', '{}', '%s')`, r, 0, when),
		q(`INSERT INTO cash_movements (tx_id, restaurant_id, client_serial, movement_no, kind, cents, booked_by, booked_by_name, created_at)
			VALUES ('%s', '%s', 'KASSE-1', 1, 'opening_float', 1250, '%s', 'Kim Koch', '%s')`, sale, r, u, when),
		q(`INSERT INTO cash_ledger (restaurant_id, client_serial, tx_id, cents, balance_cents, created_at) VALUES ('%s', 'KASSE-1', '%s', 1250, 1250, '%s')`, r, sale, when),
		q(`INSERT INTO cash_counts (id, restaurant_id, client_serial, count_no, ledger_seq, expected_cents, counted_cents, difference_cents,
			counted_by, counted_by_name, created_at) VALUES ('%s', '%s', 'KASSE-1', 1, (SELECT max(seq) FROM cash_ledger), 1250, 1250, 0, '%s', 'Kim Koch', '%s')`,
			store.NewID(), r, u, when),
		q(`INSERT INTO sale_redemptions (redemption_id, tx_id) VALUES ('%s', '%s')`, red, sale),
		q(`INSERT INTO discount_redemption_lines (redemption_id, line_no, vat_rate, cents) VALUES ('%s', 0, 'NORMAL', 125)`, red),
		q(`INSERT INTO discount_redemption_rates (redemption_id, vat_rate, cents) VALUES ('%s', 'NORMAL', 125)`, red),
	)
}
