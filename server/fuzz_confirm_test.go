package server

import (
	"context"
	"testing"

	"posbox/store"
)

// The recovery sheet's confirmation body (TestEveryBodyRouteIsFuzzed).
// Every input is refused or confirms the sheet once; none is a 5xx.
func FuzzConfirmRecoverySheet(f *testing.F) {
	e := newTestEnv(f)
	e.serve(f, Config{Replica: newSheetReplica("age1fuzz", sheetKey)})
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/replica/recovery-sheet/confirm"), token: e.adminToken},
		`{"public_key":"age1fuzz"}`, `{"public_key":"age1other"}`, `{"public_key":""}`, `{"public_key":null}`,
		`{"public_key":1}`, `{"public_key":"age1fuzz","confirmed":true}`)
}

// The retention guard's confirmation body (TestEveryBodyRouteIsFuzzed):
// with a hold in place, every input is refused or confirms; none is a 5xx.
func FuzzConfirmRetentionClock(f *testing.F) {
	e := newTestEnv(f)
	if err := e.st.HoldRetention(context.Background(), e.restaurant.ID, store.RetentionHold{Reason: store.HoldCutoffJump,
		DeleteBefore: "2019-01-01", LastDeleteBefore: "2017-01-01"}); err != nil {
		f.Fatal(err)
	}
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/retention/confirm-clock"), token: e.adminToken},
		`{"delete_before":"2019-01-01"}`, `{"delete_before":"2019-02-30"}`, `{"delete_before":""}`, `{"delete_before":null}`,
		`{"delete_before":20190101}`, `{"delete_before":"2019-01-01","all":true}`)
}
