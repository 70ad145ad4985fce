package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"posbox/store"
)

// The contract walk's body for the acknowledgement (contract_test.go).
func init() { validBody["POST /api/tse/after-restore/acknowledge"] = map[string]any{"all": true} }

// seedAfterRestore records a restore whose comparison found two sales
// only the TSE had: a cash receipt at two rates and a card payment.
func seedAfterRestore(t testing.TB, e *testEnv) (id string, tx1, tx2 string) {
	t.Helper()
	ctx := context.Background()
	through := e.clock.Now().Add(-time.Minute)
	from := through.Add(-10 * time.Minute)
	a, err := e.st.StartTSEAfterRestore(ctx, store.NewID(), e.restaurant.ID, store.NewID(), e.clock.Now(), &through, &from)
	if err != nil {
		t.Fatal(err)
	}
	tx1, tx2 = store.NewID(), store.NewID()
	end := through.Add(2 * time.Second)
	missing := []store.TSEMissingTx{
		{TxID: tx1, Number: 41, SignatureCounter: 122, State: "FINISHED", TimeStart: through.Add(time.Second), TimeEnd: &end,
			ClientID: store.NewID(), ClientSerial: "KASSE-01", ProcessType: "Kassenbeleg-V1",
			ProcessData: "Beleg^23.80_5.35_0.00_0.00_0.00^10.00:Bar_19.15:Unbar", ReceiptKind: "Beleg",
			VAT:      []store.TSEMissingVAT{{VATRate: "NORMAL", Amount: "23.80"}, {VATRate: "REDUCED_1", Amount: "5.35"}},
			Payments: []store.TSEMissingPayment{{PaymentType: "CASH", Amount: "10.00", CurrencyCode: "EUR"}, {PaymentType: "NON_CASH", Amount: "19.15", CurrencyCode: "EUR"}}},
		{TxID: tx2, Number: 42, SignatureCounter: 124, State: "FINISHED", TimeStart: end, TimeEnd: &end,
			ClientID: store.NewID(), ClientSerial: "KASSE-02", ProcessType: "Kassenbeleg-V1",
			ProcessData: "Beleg^0.00_7.99_0.00_0.00_0.00^7.99:Unbar", ReceiptKind: "Beleg",
			VAT:      []store.TSEMissingVAT{{VATRate: "REDUCED_1", Amount: "7.99"}},
			Payments: []store.TSEMissingPayment{{PaymentType: "NON_CASH", Amount: "7.99", CurrencyCode: "EUR"}}},
	}
	if err := e.st.FinishTSEAfterRestore(ctx, a.ID, missing); err != nil {
		t.Fatal(err)
	}
	return a.ID, tx1, tx2
}

func afterRestoreOf(t *testing.T, e *testEnv, token string) map[string]any {
	t.Helper()
	rec := e.do(t, "GET", "/api/tse/after-restore", nil, token)
	wantStatus(t, rec, http.StatusOK)
	return decodeJSON(t, rec)["after_restore"].(map[string]any)
}

// Never restored: state none, an empty list. Staff may not look.
func TestAfterRestoreNone(t *testing.T) {
	e := newTestEnv(t)
	a := afterRestoreOf(t, e, e.adminToken)
	if a["state"] != "none" || a["restored_at"] != nil || len(a["missing"].([]any)) != 0 || a["open"] != float64(0) {
		t.Fatalf("never restored: %v", a)
	}
	_, staffToken := e.staff(t, "Sam Service")
	wantProblem(t, e.do(t, "GET", "/api/tse/after-restore", nil, staffToken), http.StatusForbidden, "forbidden")
	wantProblem(t, e.do(t, "POST", "/api/tse/after-restore/acknowledge", map[string]any{"all": true}, staffToken), http.StatusForbidden, "forbidden")
	wantProblem(t, e.do(t, "POST", "/api/tse/after-restore/acknowledge", map[string]any{"all": true}, e.adminToken), http.StatusNotFound, store.ENotFound)
}

// The list shows what the receipts said; bad input is refused and changes
// nothing; one acknowledged, then the rest, each with who and when.
func TestAfterRestoreListAndAcknowledge(t *testing.T) {
	e := newTestEnv(t)
	_, tx1, tx2 := seedAfterRestore(t, e)
	a := afterRestoreOf(t, e, e.adminToken)
	missing := a["missing"].([]any)
	if a["state"] != "done" || a["open"] != float64(2) || len(missing) != 2 || a["replicated_through"] == nil || a["compared_at"] == nil {
		t.Fatalf("comparison: %v", a)
	}
	first := missing[0].(map[string]any)
	vat := first["amounts_per_vat_rate"].([]any)
	if first["id"] != tx1 || first["number"] != float64(41) || first["client_serial"] != "KASSE-01" || first["receipt_kind"] != "Beleg" ||
		len(vat) != 2 || vat[0].(map[string]any)["amount"] != 23.8 || first["acknowledged_by"] != nil {
		t.Fatalf("first missing: %v", first)
	}

	for _, c := range []struct {
		body  any
		field string
	}{
		{map[string]any{}, "tx_ids"},
		{map[string]any{"all": false}, "tx_ids"},
		{map[string]any{"tx_ids": []string{}}, "tx_ids"},
		{map[string]any{"all": true, "tx_ids": []string{tx1}}, "tx_ids"},
		{map[string]any{"tx_ids": []string{tx1, "42"}}, "tx_ids[1]"},
		{map[string]any{"tx_ids": []string{tx1, store.NewID()}}, "tx_ids[1]"},
	} {
		wantFieldError(t, e.do(t, "POST", "/api/tse/after-restore/acknowledge", c.body, e.adminToken), c.field)
	}
	wantProblem(t, e.do(t, "POST", "/api/tse/after-restore/acknowledge", `{"tx_ids":"x"}`, e.adminToken), http.StatusUnprocessableEntity, store.EValidation)
	wantProblem(t, e.do(t, "POST", "/api/tse/after-restore/acknowledge", `{"everything":true}`, e.adminToken), http.StatusBadRequest, "unknown_field")
	if a := afterRestoreOf(t, e, e.adminToken); a["open"] != float64(2) {
		t.Fatalf("a refused request changed the list: %v", a)
	}

	rec := e.do(t, "POST", "/api/tse/after-restore/acknowledge", map[string]any{"tx_ids": []string{tx1}}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	a = decodeJSON(t, rec)["after_restore"].(map[string]any)
	first = a["missing"].([]any)[0].(map[string]any)
	by, _ := first["acknowledged_by"].(map[string]any)
	if a["open"] != float64(1) || by["name"] != "Ada Admin" || by["id"] != e.admin.ID || first["acknowledged_at"] != "2026-11-22T09:00:00.000Z" {
		t.Fatalf("after acknowledging one: %v", a)
	}
	e.clock.Add(time.Minute)
	wantStatus(t, e.do(t, "POST", "/api/tse/after-restore/acknowledge", map[string]any{"all": true}, e.adminToken), http.StatusOK)
	a = afterRestoreOf(t, e, e.adminToken)
	first, second := a["missing"].([]any)[0].(map[string]any), a["missing"].([]any)[1].(map[string]any)
	if a["open"] != float64(0) || second["id"] != tx2 || second["acknowledged_at"] != "2026-11-22T09:01:00.000Z" ||
		first["acknowledged_at"] != "2026-11-22T09:00:00.000Z" {
		t.Fatalf("after acknowledging all: %v", a)
	}
}

// Fuzz target of the acknowledgement (see fuzz_test.go): a comparison
// with two missing sales, any body.
func FuzzAcknowledgeAfterRestore(f *testing.F) {
	e := newTestEnv(f)
	_, tx1, _ := seedAfterRestore(f, e)
	fuzzRoute(f, fuzzTarget{e: e, method: "POST", path: fixed("/api/tse/after-restore/acknowledge"), token: e.adminToken},
		`{"all":true}`, `{"tx_ids":["`+tx1+`"]}`, `{"tx_ids":[]}`, `{"all":false}`, `{"all":true,"tx_ids":["`+tx1+`"]}`,
		`{"tx_ids":["x"]}`, `{"tx_ids":null}`, `{"all":"yes"}`)
}
