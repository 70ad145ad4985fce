// Package tse is the provider boundary of the fiscal tree: what posbox
// needs from the TSE that signs every sale, and the client of the cloud
// TSE it signs with, fiskaly SIGN DE v2 (docs/TSE.md). The queue, the
// archive and the closings (fiscal/...) reach a TSE only through Provider
// and Exporter; the fiskaly client and the simulator (tse/tsesim, which
// imports this package) both answer them. It imports nothing of posbox but
// tse/tsetar and internal/retryafter, and sits below store.
//
// Files:
//
//   - provider.go: Provider, the wire types a TSE answers in (TSSInfo, Tx,
//     Receipt, ...), the upsert body as stored and resent byte for byte
//     (UpsertBody), Error and its classes.
//   - classify.go: which Class a provider answer falls in (docs/DESIGN.md,
//     TSE, "Error classes"); NewError builds a refusal with its class, for
//     the client and the simulator alike, so both faces of a failure look
//     alike to the queue. reason.go: the short sentence an admin reads for
//     a code.
//   - sale.go: a validated sale to sign, its DSFinV-K detail and the API's
//     TSS states.
//   - processdata.go: what fiskaly derives from a standard_v1 receipt (the
//     Kassenbeleg-V1 processData, the QR code data, the schema's checks).
//   - fiskaly.go: the client (its access token shared by concurrent calls,
//     a request id per request, Retry-After honoured); fiskaly_wire.go: the
//     JSON on the wire and the forms of it that are tolerated;
//     fiskaly_export.go: its TAR exports within fiskaly's limits.
//   - export.go, export_errors.go, export_split.go: Exporter, an export's
//     states and errors, and a counter range split into requests of at
//     most MaxExportRecords.
//   - verify.go: checking a revision's signature (VerifyTx) over its
//     TR-03151 transaction log message, and the key and serial forms
//     fiskaly reports. uuid.go: the ids fiskaly wants.
//
// The tests in package tse test the pieces; those in package tse_test
// drive the client over HTTP against the simulator (tse/simtest), which
// package tse cannot import.
package tse
