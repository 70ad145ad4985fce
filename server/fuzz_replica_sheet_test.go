package server

import "testing"

// The recovery sheet's confirmation body (TestEveryBodyRouteIsFuzzed).
// Every input is refused or confirms the sheet once; none is a 5xx.
func FuzzConfirmRecoverySheet(f *testing.F) {
	e := newTestEnv(f)
	e.serve(f, Config{Replica: newSheetReplica("age1fuzz", sheetKey)})
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/replica/recovery-sheet/confirm"), token: e.adminToken},
		`{"public_key":"age1fuzz"}`, `{"public_key":"age1other"}`, `{"public_key":""}`, `{"public_key":null}`,
		`{"public_key":1}`, `{"public_key":"age1fuzz","confirmed":true}`)
}
