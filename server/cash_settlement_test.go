package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"posbox/internal/poll"
)

// settlement reads a settlement through the API (status 200).
func (e *tseEnv) settlement(tb testing.TB, token, userID, query string) map[string]any {
	tb.Helper()
	rec := e.do(tb, "GET", "/api/cash/settlement?user_id="+userID+query, nil, token)
	wantStatus(tb, rec, http.StatusOK)
	return jsonNumbers(tb, rec.Body.Bytes())["settlement"].(map[string]any)
}

// forWaiter is a sale body the till sends for a waiter.
func forWaiter(body map[string]any, userID string) map[string]any {
	body["operator_id"] = userID
	return body
}

// waiterSale is a sale at 19 % (and a TrinkgeldAN line when tip is not
// "") paid as given: payment type → amount.
func waiterSale(food, tip string, pays ...string) map[string]any {
	vat := []any{map[string]any{"vat_rate": "NORMAL", "amount": json.Number(food)}}
	lines := []any{line("Essen", "1", food, "NORMAL")}
	if tip != "" {
		vat = append(vat, map[string]any{"vat_rate": "NULL", "amount": json.Number(tip)})
		tl := line("Trinkgeld", "1", tip, "NULL")
		tl["business_case"] = "TrinkgeldAN"
		lines = append(lines, tl)
	}
	var payments []any
	for i := 0; i+1 < len(pays); i += 2 {
		payments = append(payments, map[string]any{"payment_type": pays[i], "amount": json.Number(pays[i+1])})
	}
	return map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT", "amounts_per_vat_rate": vat,
		"amounts_per_payment_type": payments, "line_items": lines}
}

// Two waiters' day on one register, sold by a till account for each of
// them; by hand, in euro:
//
//	Anna  float 100.00 (she books it)
//	      cash sale 23.90; card sale 40.00 + card tip 2.00 (card 42.00)
//	      tip payout 2.00 (she books it)
//	      → cash 23.90, card 42.00, total 65.90, no storno,
//	        tips cash 0.00, card 2.00, paid out 2.00, open 0.00,
//	        hand over 100.00 + 23.90 − 2.00 = 121.90
//	Ben   float 50.00 (the admin books it for him)
//	      cash sale 18.00 + cash tip 1.50 (cash 19.50); sale 30.00 paid
//	      10.00 cash + 20.00 card; cash sale 5.00 and its storno −5.00;
//	      tip payout 1.00 (the admin books it for him)
//	      → receipts 3, cash 19.50 + 10.00 + 5.00 − 5.00 = 29.50,
//	        card 20.00, total 49.50, 1 storno −5.00,
//	        tips cash 1.50, card 0.00, paid out 1.00, open 0.50,
//	        hand over 50.00 + 29.50 − 1.00 = 78.50
//
// The drawer expects 121.90 + 78.50 = 200.40: the two hand-overs.
func TestCashSettlementOfTwoWaiters(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	till, tillTok := e.staff(t, "Kasse Theke")
	anna, annaTok := e.staff(t, "Anna Albrecht")
	ben, benTok := e.staff(t, "Ben Berger")

	e.book(t, annaTok, map[string]any{"client_serial": "KASSE-01", "kind": "opening_float", "amount": json.Number("100.00")})
	m := e.book(t, e.adminToken, map[string]any{"client_serial": "KASSE-01", "kind": "opening_float", "amount": json.Number("50.00"),
		"for_user_id": ben.ID})
	if fu, _ := m["for_user"].(map[string]any); fu == nil || fu["name"] != "Ben Berger" {
		t.Fatalf("the float's for_user %v", m["for_user"])
	}
	_, annaCash := e.sell(t, forWaiter(sale("KASSE-01", 2390), anna.ID), tillTok)
	e.sell(t, forWaiter(waiterSale("40.00", "2.00", "NON_CASH", "42.00"), anna.ID), tillTok)
	e.sell(t, forWaiter(waiterSale("18.00", "1.50", "CASH", "19.50"), ben.ID), tillTok)
	e.sell(t, forWaiter(waiterSale("30.00", "", "CASH", "10.00", "NON_CASH", "20.00"), ben.ID), tillTok)
	_, plain := e.sell(t, forWaiter(sale("KASSE-01", 500), ben.ID), tillTok)
	st := forWaiter(sale("KASSE-01", -500), ben.ID)
	st["cancels"] = plain["id"]
	e.sell(t, st, tillTok)
	e.book(t, annaTok, map[string]any{"client_serial": "KASSE-01", "kind": "tip_payout", "amount": json.Number("2.00")})
	e.book(t, e.adminToken, map[string]any{"client_serial": "KASSE-01", "kind": "tip_payout", "amount": json.Number("1.00"),
		"for_user_id": ben.ID})

	want := map[string]map[string]string{
		anna.ID: {"receipts": "2", "cash": "23.90", "card": "42.00", "total": "65.90", "stornos.count": "0", "stornos.amount": "0.00",
			"tips.cash": "0.00", "tips.card": "2.00", "tips.paid_out": "2.00", "tips.open": "0.00", "float": "100.00", "hand_over": "121.90"},
		ben.ID: {"receipts": "3", "cash": "29.50", "card": "20.00", "total": "49.50", "stornos.count": "1", "stornos.amount": "-5.00",
			"tips.cash": "1.50", "tips.card": "0.00", "tips.paid_out": "1.00", "tips.open": "0.50", "float": "50.00", "hand_over": "78.50"},
	}
	for id, w := range want {
		got := e.settlement(t, e.adminToken, id, "&date=2026-11-22")
		for k, v := range w {
			if g := settlementField(got, k); g != v {
				t.Errorf("%s: %s = %s, want %s", got["user"].(map[string]any)["name"], k, g, v)
			}
		}
	}
	if got := e.expected(t, "KASSE-01"); got != "200.4" {
		t.Errorf("the drawer expects %s, want 200.40 (the two hand-overs)", got)
	}
	// The till account sold nothing of its own.
	if got := e.settlement(t, e.adminToken, till.ID, ""); settlementField(got, "receipts") != "0" ||
		settlementField(got, "hand_over") != "0.00" {
		t.Errorf("the till account's settlement %v", got)
	}
	// Staff read their own settlement, not another's.
	if got := e.settlement(t, annaTok, anna.ID, ""); settlementField(got, "hand_over") != "121.90" {
		t.Errorf("Anna's own settlement %v", got)
	}
	wantStatus(t, e.do(t, "GET", "/api/cash/settlement?user_id="+anna.ID, nil, benTok), http.StatusForbidden)
	wantStatus(t, e.do(t, "GET", "/api/cash/settlement/print?user_id="+anna.ID, nil, benTok), http.StatusForbidden)
	// from narrows the day: from 20:00 UTC on, Ben sold nothing.
	if got := e.settlement(t, e.adminToken, ben.ID, "&date=2026-11-22&from="+url.QueryEscape("2026-11-22T20:00:00Z")); settlementField(got, "receipts") != "0" ||
		settlementField(got, "float") != "0.00" || got["from"] != "2026-11-22T20:00:00.000Z" {
		t.Errorf("Ben's settlement from 20:00 UTC: %v", got)
	}
	// The sale's detail names Anna as its operator in the DSFinV-K export.
	e.advance(30 * time.Second)
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })
	if code, body := e.closeRegister(t, e.adminToken, "KASSE-01"); code != http.StatusCreated {
		t.Fatalf("closing %d %v", code, body)
	}
	x := e.readExport(t, "from=2026-11-22&to=2026-11-22")
	if r := x.rows("transactions.csv", "BON_ID", annaCash["id"].(string)); len(r) != 1 || r[0]["BEDIENER_NAME"] != "Anna Albrecht" ||
		r[0]["BEDIENER_ID"] != anna.ID {
		t.Errorf("the till's sale for Anna in transactions.csv: %v", r)
	}
	// The printed settlement, A4 and 80 mm.
	for _, layout := range []string{"", "&layout=receipt"} {
		rec := e.do(t, "GET", "/api/cash/settlement/print?user_id="+ben.ID+"&date=2026-11-22"+layout, nil, e.adminToken)
		wantStatus(t, rec, http.StatusOK)
		body := rec.Body.String()
		for _, s := range []string{"Bedienerabrechnung", "Ben Berger", "22.11.2026", "78,50 €", "29,50 €", "-5,00 €", "ganzer Tag"} {
			if !strings.Contains(body, s) {
				t.Errorf("print%s lacks %q", layout, s)
			}
		}
	}
}

// settlementField is a settlement member as text ("tips.card"): a
// count as it is, an amount with two decimals.
func settlementField(s map[string]any, path string) string {
	var v any = s
	for _, k := range strings.Split(path, ".") {
		v = v.(map[string]any)[k]
	}
	n, ok := v.(json.Number)
	if !ok {
		return fmt.Sprint(v)
	}
	if path == "receipts" || path == "stornos.count" {
		return n.String()
	}
	f, err := n.Float64()
	if err != nil {
		return "?"
	}
	return fmt.Sprintf("%.2f", f)
}

// operator_id names an active user of the restaurant, else 422
// not_active_user; it is not in the idempotency hash: the same key sent
// again by the waiter herself, without it, is the same sale.
func TestSaleOperatorID(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, tillTok := e.staff(t, "Kasse Theke")
	anna, annaTok := e.staff(t, "Anna Albrecht")
	gone, _ := e.staff(t, "Gerd Gegangen")
	wantStatus(t, e.do(t, "PUT", "/api/users/"+gone.ID, map[string]any{"is_active": false}, e.adminToken), http.StatusOK)
	for _, id := range []string{gone.ID, "01a21940-0000-7000-8000-000000000000", "nope"} {
		rec := e.do(t, "POST", "/api/tse/transactions", forWaiter(sale("KASSE-01", 100), id), tillTok)
		wantStatus(t, rec, http.StatusUnprocessableEntity)
		if !strings.Contains(rec.Body.String(), `"field":"operator_id"`) || !strings.Contains(rec.Body.String(), "not_active_user") {
			t.Errorf("operator_id %s: %s", id, rec.Body.String())
		}
	}
	_, first := e.sell(t, forWaiter(sale("KASSE-01", 700), anna.ID), tillTok, "Idempotency-Key", "sale-7")
	_, again := e.sell(t, sale("KASSE-01", 700), annaTok, "Idempotency-Key", "sale-7")
	if first["id"] != again["id"] {
		t.Errorf("the retry is another sale: %v, %v", first["id"], again["id"])
	}
	if got := e.settlement(t, e.adminToken, anna.ID, ""); settlementField(got, "receipts") != "1" || settlementField(got, "cash") != "7.00" {
		t.Errorf("Anna's settlement %v", got)
	}
}
