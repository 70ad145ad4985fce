// Package migrations holds the goose SQL migrations, embedded in the
// binary. The store applies them at start (and posbox migrate) through a
// short-lived pool of its own; a database newer than the binary is
// refused. It imports nothing; only store imports it. The schema's rules
// live in it: CHECKs, unique indexes and triggers make the invariants
// hold whatever the code does.
//
// One file per change: 00001 restaurants, users, shifts, time entries,
// events, kv; 00002 discounts; 00003 TSE; 00004 notifications; 00005
// idempotency keys; 00006 0 % discounts; 00007 token versions; 00008 the
// time clock (restaurant settings, staff numbers, the append-only
// time_entry_corrections, the open-entry flag); 00009 the TSE archive
// (tse_archives, its overlap triggers, an index of the mirror by
// signature counter); 00010 fiscal records (what a sale contained, daily
// closings, fiscal master data); 00011 time entries by user (the
// clock-out's labour-law checks); 00012 one storno per sale; 00013 users
// without an email (a rebuild of users outside goose's transaction, with
// foreign keys off on its connection, keeping every id); 00014 the email
// and SMS settings saved from the console; 00015 drafts and publishing of
// the shift plan; 00016 the comparison with the TSE after a restore from
// the replica; 00017 who confirmed the recovery sheet of which key;
// 00018 retention and the erasure of staff who left (docs/RETENTION.md);
// 00019 indexes that keep reads bounded as the history grows; 00020 a
// day's sales by business_time (the daily report, HQ); 00021 a
// register's closings by covered_until (a closing's sales); 00022 the
// retention guard's hold and the admins' confirmations of the clock;
// 00023 a restaurant's open entries through the one-open index; 00024
// small indexes for a listed sale's storno link and the archive's status;
// 00025 a payment's euro value (foreign currency) and the closing's, and
// who raises the events of sales;
// 00026 the §146a (4) AO registration: what is known in service, the
// changes that make a registration due, the submitted files (append-only);
// 00027 the TSE's life: one certificate warning per threshold, the
// archive's declared first counter, the guided replacement of a TSS;
// 00028 the tax office's auditor (a rebuild of users for the role, as
// 00013's) and the append-only log of the auditor's requests;
// 00029 the procedure document: the program-change log, the owner's
// sections and the generated versions, all append-only;
// 00030 the DATEV settings: consultant and client numbers, chart of
// accounts, account length and the account mapping; 00031 the cash
// book: each register's running cash balance, the cash movements and the
// cash counts, all append-only; 00032 whose float or tip payout a cash
// movement is (the waiter settlement); 00033 a discount's weekly
// schedule (its local time windows); 00034 discount codes: the
// discount's requires_code, the batches, the codes with their uses, the
// uses per guest and the code a redemption used; 00035 a discount's
// stacking: combinable and priority; 00036 the POS's
// catalogue: its categories and items (name, VAT rate) by the POS's ids,
// replaced whole when the till sends it; 00037 a redemption's part of
// the till's basket per line and VAT rate, its order and stacking; 00038 the sale that books a
// redemption (sale_redemptions) and a line's redemption_id; 00039 who
// may give a discount (approval), a redemption's approver and reason;
// 00040 a discount's redemptions by time.
package migrations

import "embed"

// FS holds every migration file; goose reads them from its root.
//
//go:embed *.sql
var FS embed.FS
