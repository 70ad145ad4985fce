package retention

import (
	"context"
	"slices"
	"testing"
	"time"
)

// prunable are the only tables the job may change: the time records
// (after six years), notifications and events (after days), the users
// (an erased name pseudonymised) with their erasure records, kv (the
// cutoff the corrections' trigger reads) and the hold it keeps while it
// does not trust the clock. Every other table, whatever is
// added later, must come through a run untouched.
var prunable = []string{"time_entries", "time_entry_corrections", "shifts", "notification_deliveries",
	"notification_logs", "events", "users", "user_erasures", "kv", "retention_holds"}

// Fiscal records are never pruned: a box in 2038 holding receipts, TSE
// revisions, closings, archive records and master data from January 2026
// (twelve years, beyond every period) keeps every row of them unchanged
// through two runs of the job, while the job does remove the time records
// of that year.
func TestFiscalRecordsAreNeverPruned(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, local(2026, time.January, 10, 12, 0))
	seedFiscal(t, f, f.clock.Now())
	// The auditor log is kept too (migration 00028).
	f.exec(t, `INSERT INTO users (id, restaurant_id, email, name, role, password_hash, valid_until, created_at, updated_at)
		VALUES ('auditor-2026', '`+f.rest.ID+`', 'p@finanzamt.example', 'Prüfer', 'auditor', 'x', '2026-01-31', '2026-01-10T12:00:00.000Z', '2026-01-10T12:00:00.000Z')`,
		`INSERT INTO auditor_requests (restaurant_id, user_id, user_name, user_email, at, method, target, status)
		VALUES ('`+f.rest.ID+`', 'auditor-2026', 'Prüfer', 'p@finanzamt.example', '2026-01-10T12:00:00.000Z', 'GET', '/api/tse/closings', 200)`)
	f.exec(t, `INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, created_at, updated_at)
		VALUES ('te-2026', '`+f.rest.ID+`', '`+f.staff.ID+`', '2026-01-10T09:00:00.000Z', '2026-01-10T17:00:00.000Z', '2026-01-10T17:00:00.000Z', '2026-01-10T17:00:00.000Z')`)
	before := f.tableSums(t)
	for _, name := range append(slices.Clone(fiscalTables), "auditor_requests") {
		if before[name] == "" || before[name][:2] == "0 " {
			t.Fatalf("the seed left %s empty: %q", name, before[name])
		}
	}

	f.clock.Set(local(2038, time.March, 1, 3, 30))
	f.touch(t)
	for run := 1; run <= 2; run++ {
		if _, err := f.job().Run(ctx); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
	}
	after := f.tableSums(t)
	for name, sum := range before {
		if slices.Contains(prunable, name) {
			continue
		}
		if after[name] != sum {
			t.Errorf("%s changed: before %s, after %s", name, sum, after[name])
		}
	}
	if n := f.count(t, `SELECT count(*) FROM time_entries`); n != 0 {
		t.Errorf("the 2026 time entry is still there in 2038 (%d rows): the job did not run", n)
	}
}

// otherTables are neither fiscal nor pruned: settings, the schema's
// version, the admins' confirmations of the clock (kept for good: they
// say why time records went) and the auditor log (append-only, kept for
// good: what the tax office's auditor saw), which the job leaves alone
// like the fiscal tables.
var otherTables = []string{"restaurants", "notification_settings", "email_settings", "sms_settings", "datev_settings",
	"idempotency_keys", "goose_db_version", "retention_confirmations", "auditor_requests",
	// The TSE's life (docs/TSE.md): kept like the fiscal records.
	"tse_certificate_warnings", "tse_archive_starts", "tse_replacements",
	// The POS catalogue: the till's menu as it last sent it, replaced
	// whole at each sync; no personal data, no record (a receipt keeps
	// its own texts).
	"pos_categories", "pos_items"}

// Every table is classified: a table added later must be named prunable,
// fiscal or other here (and in docs/RETENTION.md), so that nobody adds
// one the job might touch, or personal data no period covers, unseen.
func TestEveryTableIsClassified(t *testing.T) {
	f := newFixture(t, local(2026, time.January, 10, 12, 0))
	names, err := queryStrings(f.st.ReadDB(), `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if !slices.Contains(prunable, name) && !slices.Contains(fiscalTables, name) && !slices.Contains(otherTables, name) {
			t.Errorf("table %s is neither prunable, fiscal nor other: classify it (retention/fiscal_test.go, docs/RETENTION.md)", name)
		}
	}
}
