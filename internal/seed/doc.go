// Package seed builds the history of a busy restaurant in a new data dir
// (`posbox seed`, compiled into the binary built with -tags seed only;
// docs/PERFORMANCE.md, "The seeded history"): 30 staff with turnover,
// a weekly published shift plan, time entries with breaks and
// corrections, 300 receipts a day with line items (some orders and
// stornos) signed by the embedded simulator's TSS, a closing per register
// a day, and notification deliveries, for a number of days ending today
// in the restaurant's timezone. Today is filled up to the present, so a
// box started on the dir carries on from it.
//
// Everything goes through the store's write functions with the store's
// clock moved to the instant each write happened, except the sales and
// their closings: those take store.SeedFiscalDay, the same rows in one
// transaction a day. Sales before today are signed with the TSS's key by
// tsesim.SignHistory (real signatures, QR codes and numbers, not in the
// simulator's journal: see tse/tsesim/history.go); today's are signed by
// the simulator itself, so its journal holds them for the archive.
//
// Files: seed.go (Run, the day loop), clock.go, staff.go (hiring and
// leaving), sales.go (the day's sales), sign.go (signing them),
// labour.go (shifts and time entries), notify.go (events and
// deliveries), archive.go (the nightly archive), version.go (what the
// bench's seed cache is keyed by).
package seed
