// Package closing takes the daily closings (Kassenabschluss) of the
// registers posbox signs for, on its own when the POS does not
// (docs/FISCAL.md, "Daily closings"). It knows nothing of HTTP; main
// schedules the job.
//
// auto.go: AutoCloser runs every minute on main's UTC cron; once a
// restaurant's local time has passed closing_time it closes the previous
// local day of every register with sales left. It keeps no state: what is
// closed is in the database, so a restart closes nothing twice. The
// closing itself is the store's (store/tse_closing.go): Z_NR is
// max + 1 in the closing's write transaction, with a unique index and a
// trigger that refuses any other number, a sale is in one closing only,
// and triggers make closings immutable.
package closing
