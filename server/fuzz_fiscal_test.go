package server

import (
	"net/http"
	"testing"
	"time"
)

// Fuzz targets of the fiscal records' body routes (see fuzz_test.go).

func FuzzCreateClosing(f *testing.F) {
	e := newTSEEnv(f, tseEnvOpts{budget: time.Second})
	_, tok := e.staff(f, "Sam Staff")
	e.sell(f, sale("KASSE-01", 1190), e.adminToken)
	fuzzRoute(f, fuzzTarget{e: e.testEnv, method: "POST", path: fixed("/api/tse/closings"), token: tok},
		`{"client_serial":"KASSE-01"}`, `{"client_serial":"KASSE-02","business_date":"2026-11-22"}`,
		`{"client_serial":""}`, `{"client_serial":"KASSE 01"}`, `{"client_serial":null}`, `{"business_date":"2026-13-01"}`)
}

func FuzzExportTSEArchive(f *testing.F) {
	e := newTSEEnv(f, tseEnvOpts{budget: time.Second, archive: true})
	fuzzRoute(f, fuzzTarget{e: e.testEnv, method: "POST", path: fixed("/api/tse/archives"), token: e.adminToken},
		`{"from":"2026-11-22","to":"2026-11-22"}`, `{"from":"2026-11-23","to":"2026-11-22"}`, `{"from":"2026-02-30","to":"2026-03-01"}`,
		`{"from":"2026-11-22"}`, `{"from":null,"to":"2026-11-22"}`, `{"from":"22.11.2026","to":"2026-11-22"}`)
}

func FuzzCreateTSEArchiveStart(f *testing.F) {
	e := newTSEEnv(f, tseEnvOpts{budget: time.Second, archive: true})
	e.sell(f, sale("KASSE-01", 1190), e.adminToken)
	fuzzRoute(f, fuzzTarget{e: e.testEnv, method: "POST", path: fixed("/api/tse/archive-starts"), token: e.adminToken},
		`{"first_signature_counter":3,"reason":"vor posbox signiert"}`, `{"first_signature_counter":1,"reason":"x"}`,
		`{"first_signature_counter":"3","reason":"x"}`, `{"reason":""}`, `{"first_signature_counter":9999999999999,"reason":"x"}`)
}

func FuzzStartTSEReplacement(f *testing.F) {
	e := newTestEnv(f) // the built-in simulator: refused, whatever the body
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/tse/replacement"), token: e.adminToken},
		`{}`, `{"force_reason":"abgelaufen"}`, `{"force_reason":null}`, `{"force_reason":1}`)
}

func FuzzPutMasterData(f *testing.F) {
	e := newTestEnv(f)
	fuzzRoute(f, fuzzTarget{e: e, method: "PUT", path: fixed("/api/fiscal/master-data"), token: e.adminToken},
		`{"business_name":"Trattoria Roma GmbH","street":"Hauptstr. 1","postcode":"10115","city":"Berlin","tax_number":"27/123/45678",`+
			`"registers":[{"client_serial":"KASSE-01","type":"till","brand":"Acme","model":"T1","acquired_on":"2026-01-15"}]}`,
		`{"business_name":"","registers":[{"client_serial":"KASSE-01"},{"client_serial":"KASSE-01"}]}`,
		`{"business_name":"A","tse_in_service_on":"2026-02-30"}`, `{"registers":null}`, `{"country":"Germany"}`,
		`{"registers":[{"client_serial":"K","decommissioned_on":"2025-01-01","acquired_on":"2026-01-01"}]}`)
}

func FuzzMarkRegistrationSubmitted(f *testing.F) {
	e := newCertifiedEnv(f)
	e.sell(f, sale("KASSE-01", 100), e.adminToken)
	wantStatus(f, e.do(f, "PUT", "/api/fiscal/master-data", completeMaster, e.adminToken), http.StatusOK)
	fuzzRoute(f, fuzzTarget{e: e.testEnv, method: "POST", path: fixed("/api/fiscal/registration/submitted"), token: e.adminToken},
		`{"submitted_on":"2026-11-22"}`, `{"submitted_on":"2026-11-23"}`, `{"submitted_on":"22.11.2026"}`, `{"submitted_on":null}`,
		`{}`, `{"submitted_on":"2026-02-30"}`, `{"submitted_on":20261122}`)
}

func FuzzPutOwnerText(f *testing.F) {
	e := newTSEEnv(f, tseEnvOpts{budget: time.Second})
	fuzzRoute(f, fuzzTarget{e: e.testEnv, method: "PUT", path: fixed("/api/fiscal/procedure-document/owner-text"), token: e.adminToken},
		`{"organisation":"GmbH\nInhaberin Ada","till_operation":"","cash_counting":"Abends","internal_control":"\tMonatlich"}`,
		`{"organisation":null}`, `{"cash_counting":"a\u0000b"}`, `{"internal_control":1}`, `{"owner":"x"}`)
}
