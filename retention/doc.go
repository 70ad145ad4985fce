// Package retention is the retention job (docs/RETENTION.md): what the
// law keeps stays, what it no longer needs goes, and the file gives the
// space back.
//
//   - job.go: one run: the cutoffs of every restaurant from the periods,
//     the prune (store.PruneRetention), then the vacuum.
//   - periods.go: the periods and how a cutoff is computed from them
//     (from the end of the calendar year, § 147 (4) AO).
//   - clock_guard.go: time records wait while the clock is implausible
//     (far ahead of the newest record, or a cutoff jumping over a year).
//   - vacuum.go: incremental vacuum after the prune, and the one
//     conversion of a file made before posbox set auto_vacuum (small
//     files, quiet box, no replication, the space free).
//   - disk_*.go, tempdir.go: the free space the conversion needs, on the
//     data dir and where SQLite puts its temporary copy.
//
// Fiscal records (receipts, their TSE data, closings, DSFinV-K data,
// fiscal master data, the TSE archive) have no period here: nothing of
// the cash desk is ever deleted. The package knows nothing of HTTP; main
// schedules it (start_retention.go).
package retention
