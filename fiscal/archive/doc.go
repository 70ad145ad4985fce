// Package archive keeps the TSE's records on the box: it pulls the TSS's
// log messages as TAR exports (BSI TR-03151) incrementally by
// signature-counter range, verifies each TAR (every signature, counters
// without gap against the previous archive, every transaction posbox
// signed in the range present) and only then files it, read-only, with
// its SHA-256, under DATA_DIR/archive/tse. fiskaly keeps a TSS's data for
// three months; the tax office may ask for ten years (docs/FISCAL.md).
//
// Shaped like fiscal/queue: built by main (New), its job scheduled by main
// (Run, via Nightly; Resume at start), reached by the server through
// server.Archive. It knows nothing of HTTP; everything durable is in the
// store (store/tse_archive.go), so a restart resumes an export under the
// export id it was triggered with.
//
// Why by counter: the signature counter counts every signature of the TSS
// without gaps (transactions and system logs), so its ranges tile the
// TSS's whole history; dates do not (a transaction started before
// midnight finishes after it). Run plans, in one write transaction
// (store.PlanTSEArchiveRanges), the ranges from the last planned counter
// + 1 to the TSS's current one, split at tse.MaxExportRecords, each with
// its export id chosen and stored before anything is triggered. States
// pending → exporting → verifying → archived; failed only for an export
// of dates. No two incremental ranges overlap: triggers on planning and
// archiving refuse it, and ArchiveTSEArchive checks it for a clear error.
//
// archive.go: options, status (the archived chain from counter 1, the
// oldest signed transaction beyond it, open and rejected ranges; a
// warning from 60 days, fiskaly's three months less a month to act; an
// extra of GET /api/tse/status, not part of healthy) and the admin's
// export of dates (rows of kind dates, verified without the range bounds,
// filed as <serial>_<first>-<last>_dates_<id>.tar, never part of the
// chain, so they cannot hide a gap).
//
// job.go: planning and the export state machine within fiskaly's limits:
// at most 10 exports running; a poll or download of one export at most
// every 5 s, doubling to a minute, never before a Retry-After;
// E_TOO_MANY_EXPORTS, E_EXPORT_DUPLICATE_RATE_LIMITED and 429 block new
// starts (30 s doubling to 10 min); E_EXPORT_NOT_COMPLETED waits its
// Retry-After; an expired export or one in ERROR or CANCELLED gets a new
// export id. Five network failures in a row end the run. Waits go through
// Options.Sleep, which the tests replace with a move of the compressed
// clock; a recorder in the tests checks every limit.
//
// file.go: the TAR is downloaded into .<export id>.tar.tmp (0600; backups
// skip .*.tmp) while its SHA-256 is computed; after verification it is
// made 0400, renamed to <serial>_<first>-<last>.tar with <name>.sha256
// beside it (sha256sum's format), the folder is synced and the row
// archived with size and SHA-256. A file already there is never replaced
// (same content: a restart between rename and commit; other content: an
// error). New makes the files 0400 again after a restore wrote them 0600.
//
// verify.go: tsetar.Verify checks each signature against the TSS's public
// key (the TAR's own certificate only for a curve Go lacks), the serial,
// and counters strictly increasing from the range's first to its last;
// then every transaction the mirror holds as signed with its last
// signature in the range must be there with its number. A bad TAR is
// deleted, the range goes back to pending with verification failed, the
// finding, a new export id and its next attempt 12 hours on, and
// tse_error (archive_verification_failed) is raised in that transaction.
//
// nightly.go: Nightly.Check runs every minute on main's UTC cron; the
// export is due once per restaurant-local date from tse_archive_time
// (04:30) until three hours later, the date recorded in kv before the run.
//
// Nothing prunes archive/ (the backup's retention deletes only its own
// files; complete backups hold the archive). Not handled yet: a TSS used
// more than three months before posbox archived it (its first counters
// are gone at fiskaly, so the first range never passes and the status
// warns), and a replaced TSS's open ranges.
package archive
