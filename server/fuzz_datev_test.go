package server

import "testing"

func FuzzPutDATEVAccounts(f *testing.F) {
	e := newTestEnv(f)
	fuzzRoute(f, fuzzTarget{e: e, method: "PUT", path: fixed("/api/fiscal/datev/accounts"), token: e.adminToken},
		`{"consultant_number":1234567,"client_number":42,"chart":"SKR04","accounts":{"vouchers":"3272"}}`,
		`{"chart":"SKR03","account_length":5}`, `{"chart":"SKR03","accounts":{"cash":"1360"}}`, `{"chart":"SKR03","accounts":{"x":"1"}}`,
		`{"chart":null}`, `{"chart":"SKR03","consultant_number":"1234567"}`, `{"chart":"SKR03","accounts":{"cash":"１０００"}}`)
}
