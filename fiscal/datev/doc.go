// Package datev makes the accountant's DATEV booking batch (DATEV-Format,
// EXTF Buchungsstapel) of a month's daily closings, and holds the account
// mapping with its SKR03 and SKR04 defaults and its validation. It knows
// nothing of HTTP or SQL: server gathers the closings and the settings
// from store. The format, the booking scheme and the sources of every
// default: docs/FISCAL.md, "The DATEV batch".
package datev
