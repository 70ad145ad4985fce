// Package tsesim is the fiskaly-compatible TSE simulator (docs/TSE.md,
// "The simulator"): a TSS provider in a directory, with its own P-256 keys,
// fiskaly's states, limits, error codes and QR code data, gap-free
// transaction numbers and a signature counter that survives restarts and
// crashes. It is not a certified TSE, and says so wherever posbox shows it.
//
// It serves three users: `posbox tse-sim` (the HTTP face, Server, for
// training tills and for testing the fiskaly client), the appliance without
// a tse.json (the embedded simulator, in process, as a tse.Provider), and
// tests (in process, or over HTTP through tse/simtest). It imports tse for
// the wire types and the rules it shares with the client (tse.NewError,
// tse.ValidateReceipt, tse.TxLogMessage, ...) and tse/tsetar for the TAR;
// tse never imports it.
//
// On disk (the state dir, DATA_DIR/tse-sim/ for the embedded simulator;
// installations keep theirs, so the layout does not change):
// tss-<id>.key.pem per TSS (PKCS#8, 0600) and journal.jsonl, the journal
// that holds everything else, certificates included. Deleting the dir
// makes a new TSS with a new serial and numbering from 1.
//
// Files:
//
//   - simulator.go: Config, Open, fault injection (Fault) and the
//     in-process Provider on the default TSS.
//   - engine.go: TSSs, clients and transactions, changed only through
//     journal records (commit = append durably, then apply); every
//     function there runs with Simulator.mu held. upsertTx is fiskaly's
//     upsertTransaction: the revision rules, then the new revision built,
//     signed and committed.
//   - journal.go: the append-only JSON-lines journal, fsynced before an
//     answer, replayed on open; a torn last line is cut.
//   - logs.go: one TR-03151 log message per signature counter (transaction
//     and system logs), rebuilt byte for byte for exports.
//   - schema.go: reading an upsert body (standard_v1 receipt, order and
//     other; raw) into the processType and processData the TSS signs.
//   - jsonerr.go: a body of the wrong JSON shape answered in the words of
//     fiskaly's schema validation, never Go's decoder text.
//   - crypto.go: the TSS key on disk, the certificate and its CA, signing.
//   - history.go: a history signed elsewhere (posbox's seeder): sales
//     signed with the default TSS's key but not journaled, and the
//     journal record saying how far the TSS has counted before it.
//   - export.go: fiskaly's exports, a TR-03151 TAR built from the journal,
//     with fault injection (ExportFault) for the archive's tests.
//   - server.go: the HTTP face under /api/v2: fiskaly's paths, bodies,
//     errors, auth and request ids.
//   - clientlist.go: listClients and listClientTransactions, with the
//     paging and order parameters fiskaly's lists share.
//   - metadata.go: the TSS's metadata, read and merged.
//
// The tests are in package tsesim_test: they share their helpers with the
// fiskaly client's tests through tse/simtest (internal_test.go opens the
// few internals they need).
package tsesim
