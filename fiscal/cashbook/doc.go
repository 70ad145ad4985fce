// Package cashbook is the cash book of each register (docs/CASHDESK.md):
// cash movements that are not sales (the opening float, deposits,
// withdrawals, money to the bank, wages, expenses, tip payouts), booked
// as signed receipts with their DSFinV-K business case through the same
// queue as every sale, so that they are in the closing and the export
// like any receipt; their counter-entries; the expected cash
// (Soll-Bestand); and the cash count (Kassensturz), whose difference is
// booked as DifferenzSollIst in the count's own transaction.
//
// kinds.go names the movements, their business case, sign and who may
// book them; book.go books and reverses; count.go counts.
// What the database enforces (migration 00031): movements and counts are
// append-only and gap-free per register, a reversal negates its original
// once, the running balance adds up, and of two counts against one
// balance only one books a difference.
package cashbook
