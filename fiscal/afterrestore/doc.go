// Package afterrestore lists what the TSE signed that a box restored from
// the replica does not have: the replica runs about a second behind, so
// the last sales before a crash can be signed at the TSE and lost with
// the old box's card. The owner re-enters them from this list.
//
// The restore (posbox restore --from URL, cmd_restore.go) leaves a marker
// in the data dir (MarkRestored) with what the replica held; the first
// start (start_after_restore.go) turns it into a pending comparison in
// the store (Checker.Begin) before the tills can sell, and the Checker
// pages the TSE's list (tse.Provider.ListTx) back to shortly before that
// point, retrying until the TSE answers while the box sells on. Each
// transaction of the TSS the box has no sale for (a tse_transactions row
// it recorded itself, source 'posbox'; one the reconciler only copied
// from the TSE counts as missing) is filed with what its receipt said,
// read out of the signed processData (receipt.go). The comparison and
// its list live in the store (store/tse_after_restore.go) until the owner
// has acknowledged each one; the server shows them (GET
// /api/tse/after-restore). Report prints the same list at restore time.
//
// Files: marker.go the restore's marker, compare.go the comparison,
// receipt.go the processData, checker.go the first start and the retries,
// report.go the terminal's list.
package afterrestore
