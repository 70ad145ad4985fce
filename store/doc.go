// Package store holds posbox's domain types and every SQL statement.
//
// It is the bottom layer: of posbox it imports only migrations
// (imports_test.go fails otherwise), so a type lives here when the store
// reads, writes or computes it. The layers above convert at their edge:
// fiscal/queue turns provider errors (package tse) into the codes and
// sentences stored here and keeps its own status types; server renders
// its own JSON (the TSE status, the ArbZG warnings) and names the API's
// routes, which no store error or comment does. Where a JSON shape is
// what the store persists, it is defined here once: an event's data
// (shift_event.go; server's shift answer embeds ShiftCore from it) and
// the cached TSS info (tse_info.go).
//
// # SQLite
//
// One file, DATA_DIR/posbox.db, opened only by Open (store.go). Two pools
// on it: a writer pool with exactly one connection whose transactions
// begin IMMEDIATE, and a query_only reader pool that keeps its
// connections and reads a WAL snapshot while a write runs, so writers
// queue in Go and "database is locked" is never an answer. WAL,
// foreign_keys=ON and synchronous=FULL: an acknowledged clock-in or queued
// sale survives a pulled plug.
//
// Writes go through one writer goroutine (writer.go, group commit):
// s.write(ctx, fn) queues fn; the writer runs the waiting operations in
// one transaction, each in its own savepoint (an operation that fails is
// rolled back alone), then one COMMIT and one fsync for all of them;
// nobody is answered before it. fn gets a *Tx with Now (the operation's
// instant) and afterCommit hooks. Invariants stay in the statements (the
// unique index on open time entries, the conditional UPDATE of a
// redemption limit, gap-free numbers), checked in order in the one
// transaction. writeAsync is for writes nobody waits for (the TSE
// worker's marks and completions); a lazy one joins the next batch.
// Statements a Tx runs are prepared on the writer connection after first
// use; reads go through s.rs (stmtcache.go), which prepares each query
// text once per reader connection. Both caches are bounded (256 texts).
//
// Authentication reads users and restaurants from memory (authview.go):
// the view is dropped as a whole after every commit that changed a row of
// users or restaurants, noticed by a pre-update hook on the writer
// connection (so no write function can forget), and a generation keeps a
// reader that loaded a row during a commit from putting it back. A write
// by another process is not seen.
//
// Every instant is TEXT 2006-01-02T15:04:05.000Z (UTC, milliseconds;
// FormatTime, ParseTime in time.go); no time.Time is bound to SQL. Local
// dates and wall times are TEXT YYYY-MM-DD and HH:MM in the restaurant's
// IANA timezone (localtime.go). Money is integer cents, percentages
// integer hundredths of a percent.
//
// # Errors
//
// Domain errors are *Error with a stable code (errors.go). A look-up that
// finds nothing is always a not_found error, checked with IsNotFound,
// never a nil record. Every invalid field is reported with a stable code
// from FieldCodes (field_codes.go), an English message for API users, and
// the code's params as key/value pairs:
//
//	f.Add("name", FLength, "must be 1-200 characters", "min", 1, "max", 200)
//	return Invalid("to", FBeforeField, "must not be before from", "field", "from")
//
// Clients translate the code, never the message (docs/API.md lists the
// codes). A new kind of error gets a new fieldCode entry, its row in
// docs/API.md and its ferr.<code> texts in console/assets/js/errors.js;
// the tests hold the three together.
//
// # Files
//
// Shared: store.go (Open, the pools), writer.go (group commit, Tx),
// stmtcache.go, authview.go, errors.go, field.go (Field[T]: absent, null
// or a value, for partial updates), field_codes.go, id.go, time.go,
// null.go, text.go (names without control characters), kv.go (small settings), backup.go (a consistent copy
// of the open database).
//
// People and the plan: user.go, auditor.go (the tax office's auditor: its
// last day and shape), auditor_log.go (the append-only log of its
// requests), restaurant.go, settings.go (the email and
// SMS settings saved from the console), shift.go, shift_event.go (the
// payloads of shift_change, clock_in and clock_out), shift_publish.go
// (drafts and publishing a week), shift_copy.go (copying a week).
//
// The time clock (docs/TIMECLOCK.md): time_entry.go, localtime.go,
// time_entry_correction.go (enter, close, correct, history; the
// corrections table is append-only by migration 00008's triggers),
// time_entry_open.go (the open-too-long flag, set in its event's
// transaction), arbzg.go (the pure ArbZG §§ 3, 4, 5 checks),
// labour_warning.go (those checks over stored entries and shifts, and the
// labour_law_warning event; warnings are computed, never stored),
// surcharge.go (§ 3b EStG hours, holidays from rickar/cal/v2/de),
// work_record.go (the MiLoG record per staff member and day).
//
// Discounts: discount.go, discount_schedule.go (the weekly windows;
// their rule is posbox/discount's), redemption.go (redeeming within the
// usage limit and, asked inside the same transaction, the schedule);
// idempotency.go (Idempotency-Key answers, kept
// IdempotencyRetention).
//
// The TSE's rows (the queue's logic is fiscal/queue's): tse_sale.go (the
// mirror of the provider's transactions and recording a sale),
// tse_sale_detail.go (what a sale contained: amounts, payments, lines,
// stored in the sale's transaction), tse_sale_storno.go (one storno per
// sale), tse_outbox.go (the queue's rows: head, claim, complete, retry,
// park), tse_outage.go, tse_reconcile.go, tse_selftest.go, tse_info.go
// (the TSS as last seen, cached in kv), tse_archive.go (the archive's
// rows: plan, states, verification, overlap check, its summary),
// tse_closing.go (daily closings), fiscal_export.go (a closing's sales as
// the DSFinV-K export reads them), fiscal_master.go (the owner's fiscal
// master data, the registers that sold).
//
// Events and notifications: event.go (InsertEvent, the one place events
// are written, also queues one delivery per enabled rule in the same
// transaction, so an event never commits without its deliveries),
// delivery.go (the delivery queue: a claim is one UPDATE … RETURNING in
// an immediate transaction, so no delivery is claimed twice),
// notification.go (rules), notification_log.go, report.go (the daily
// report).
//
// Retention (docs/RETENTION.md; package retention computes the cutoffs):
// retention.go (pruning time records, notifications and events in
// batches; the corrections' delete trigger of migration 00018 lets only
// what the recorded cutoff allows go; pseudonymising erased users),
// retention_guard.go (what the job reads to trust the clock and to find
// the box quiet), erase.go (the GDPR erasure of a deactivated user, its
// audit record and the admin's list of it), user_former.go (deleted users
// not yet erased),
// vacuum.go (incremental auto-vacuum: new files are made so before the
// first table, older ones switched by one VACUUM).
//
// storetest holds what several packages' tests share (a settable clock).
package store
