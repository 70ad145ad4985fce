package server

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"posbox/internal/poll"
)

// pay is one payment line; eur is amount_eur ("" for none).
func pay(typ, amount, currency, eur string) map[string]any {
	p := map[string]any{"payment_type": typ, "amount": json.Number(amount)}
	if currency != "" {
		p["currency_code"] = currency
	}
	if eur != "" {
		p["amount_eur"] = json.Number(eur)
	}
	return p
}

// paidWith is a receipt of gross at rate paid with the payment lines.
func paidWith(rate, gross string, payments ...map[string]any) map[string]any {
	ps := make([]any, len(payments))
	for i, p := range payments {
		ps[i] = p
	}
	return map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT",
		"amounts_per_vat_rate": []any{map[string]any{"vat_rate": rate, "amount": json.Number(gross)}}, "amounts_per_payment_type": ps}
}

// A day with 10,00 € paid as 9,50 CHF, a sale paid half in EUR and half in
// CHF, EUR cash and a card: the closing and the DSFinV-K export count the
// francs at their euro value (Z_SE_ZAHLUNGEN, Z_SE_BARZAHLUNGEN,
// payment.csv, BASISWAEH_BETRAG) and in francs where the standard wants
// the currency (ZAHLWAEH_BETRAG, cash_per_currency.csv), to the cent.
// fiskaly is sent only what its receipt schema has: the francs.
func TestForeignCurrencyInTheClosingAndTheExport(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, chf := e.sell(t, paidWith("NORMAL", "10.00", pay("CASH", "9.50", "CHF", "10.00")), e.adminToken)
	_, mixed := e.sell(t, paidWith("NORMAL", "12.00", pay("CASH", "5.00", "EUR", ""), pay("CASH", "6.65", "CHF", "7.00")), e.adminToken)
	e.sell(t, paidWith("REDUCED_1", "20.00", pay("CASH", "20.00", "", "")), e.adminToken)
	e.sell(t, paidWith("NORMAL", "15.00", pay("NON_CASH", "15.00", "EUR", "")), e.adminToken)
	e.advance(30 * time.Second)
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })

	// What a till or the console lists: both amounts of each payment.
	got := e.listed(t, chf["id"])["amounts_per_payment_type"].([]any)
	if p := got[0].(map[string]any); len(got) != 1 || p["currency_code"] != "CHF" || p["amount"] != 9.5 || p["amount_eur"] != 10.0 {
		t.Fatalf("listed payments %v", got)
	}

	code, body := e.closeRegister(t, e.adminToken, "KASSE-01")
	if code != http.StatusCreated {
		t.Fatalf("closing %d %v", code, body)
	}
	closing := body["closing"].(map[string]any)
	// Cash: 20,00 + 5,00 EUR, and 9,50 + 6,65 = 16,15 CHF worth 17,00 €.
	if closing["total"] != 57.0 || closing["cash"] != 42.0 {
		t.Fatalf("closing total %v, cash %v", closing["total"], closing["cash"])
	}
	wantPay := []map[string]any{
		{"payment_type": "CASH", "currency_code": "EUR", "amount": 25.0, "amount_eur": 25.0},
		{"payment_type": "CASH", "currency_code": "CHF", "amount": 16.15, "amount_eur": 17.0},
		{"payment_type": "NON_CASH", "currency_code": "EUR", "amount": 15.0, "amount_eur": 15.0},
	}
	pays := closing["amounts_per_payment_type"].([]any)
	if len(pays) != len(wantPay) {
		t.Fatalf("closing payments %v", pays)
	}
	for i, w := range wantPay {
		for k, v := range w {
			if pays[i].(map[string]any)[k] != v {
				t.Errorf("closing payment %d: %v, want %v", i, pays[i], w)
			}
		}
	}

	x := e.readExport(t, "from=2026-11-22&to=2026-11-22")
	checkTotals(t, x, closing)
	cp := x.rows("cashpointclosing.csv")[0]
	if cp["Z_SE_ZAHLUNGEN"] != "57,00" || cp["Z_SE_BARZAHLUNGEN"] != "42,00" {
		t.Errorf("Z_SE_ZAHLUNGEN %s, Z_SE_BARZAHLUNGEN %s, want 57,00 and 42,00", cp["Z_SE_ZAHLUNGEN"], cp["Z_SE_BARZAHLUNGEN"])
	}
	for typ, want := range map[string]string{"Bar": "42,00", "Unbar": "15,00"} {
		if r := x.rows("payment.csv", "ZAHLART_TYP", typ); len(r) != 1 || r[0]["Z_ZAHLART_BETRAG"] != want {
			t.Errorf("payment.csv %s: %v, want one row of %s", typ, r, want)
		}
	}
	for cur, want := range map[string]string{"EUR": "25,00", "CHF": "16,15"} {
		if r := x.rows("cash_per_currency.csv", "ZAHLART_WAEH", cur); len(r) != 1 || r[0]["ZAHLART_BETRAG_WAEH"] != want {
			t.Errorf("cash_per_currency.csv %s: %v, want %s", cur, r, want)
		}
	}
	if r := x.rows("datapayment.csv", "BON_ID", chf["id"].(string)); len(r) != 1 || r[0]["ZAHLART_TYP"] != "Bar" ||
		r[0]["ZAHLWAEH_CODE"] != "CHF" || r[0]["ZAHLWAEH_BETRAG"] != "9,50" || r[0]["BASISWAEH_BETRAG"] != "10,00" {
		t.Errorf("datapayment of the franc sale %v", r)
	}
	r := x.rows("datapayment.csv", "BON_ID", mixed["id"].(string))
	if len(r) != 2 || r[0]["ZAHLWAEH_CODE"] != "EUR" || r[0]["ZAHLWAEH_BETRAG"] != "" || r[0]["BASISWAEH_BETRAG"] != "5,00" ||
		r[1]["ZAHLWAEH_CODE"] != "CHF" || r[1]["ZAHLWAEH_BETRAG"] != "6,65" || r[1]["BASISWAEH_BETRAG"] != "7,00" {
		t.Errorf("datapayment of the mixed sale %v", r)
	}
	if tr := x.rows("transactions.csv", "BON_ID", chf["id"].(string)); tr[0]["UMS_BRUTTO"] != "10,00" {
		t.Errorf("UMS_BRUTTO %v", tr)
	}
	// The TSE signed the receipt as fiskaly's schema has it: francs.
	if ts := x.rows("transactions_tse.csv", "BON_ID", chf["id"].(string)); ts[0]["TSE_VORGANGSDATEN"] != "Beleg^10.00_0.00_0.00_0.00_0.00^9.50:Bar:CHF" {
		t.Errorf("processData %v", ts[0]["TSE_VORGANGSDATEN"])
	}
}

// A payment in francs without its euro value, or an EUR payment with one,
// is refused naming the field, and nothing is recorded; a retry of a
// franc sale with the same Idempotency-Key but another euro value is a
// different sale.
func TestForeignCurrencyRefusals(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	for body, want := range map[string]map[string]any{
		"amounts_per_payment_type[0].amount_eur required":      paidWith("NORMAL", "10.00", pay("CASH", "9.50", "CHF", "")),
		"amounts_per_payment_type[0].amount_eur not_allowed":   paidWith("NORMAL", "10.00", pay("CASH", "10.00", "EUR", "10.00")),
		"amounts_per_payment_type[0].amount_eur sign_of_field": paidWith("NORMAL", "10.00", pay("CASH", "9.50", "CHF", "-10.00")),
		"amounts_per_payment_type sum_mismatch":                paidWith("NORMAL", "10.00", pay("CASH", "9.50", "CHF", "9.50")),
	} {
		rec := e.do(t, "POST", "/api/tse/transactions", want, e.adminToken)
		wantStatus(t, rec, http.StatusUnprocessableEntity)
		errs := decodeJSON(t, rec)["errors"].([]any)
		if f := errs[0].(map[string]any); len(errs) != 1 || f["field"].(string)+" "+f["code"].(string) != body {
			t.Errorf("errors %v, want %s", errs, body)
		}
	}
	// Only euro values differ: fiskaly would be sent the same receipt,
	// but it is another sale.
	twice := func(a, b string) map[string]any {
		return paidWith("NORMAL", "10.00", pay("CASH", "4.75", "CHF", a), pay("CASH", "4.75", "CHF", b))
	}
	key := []string{"Idempotency-Key", "franc-sale-1"}
	e.sell(t, twice("5.00", "5.00"), e.adminToken, key...)
	rec := e.do(t, "POST", "/api/tse/transactions", twice("4.00", "6.00"), e.adminToken, key...)
	wantStatus(t, rec, http.StatusUnprocessableEntity)
	if c := decodeJSON(t, rec)["code"]; c != "idempotency_key_reused" {
		t.Fatalf("code %v", c)
	}
	e.sell(t, twice("5.00", "5.00"), e.adminToken, key...)
	e.advance(30 * time.Second)
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })
	var items []map[string]any
	rec = e.do(t, "GET", "/api/tse/transactions?from=2026-11-20T00:00:00Z&to=2026-11-30T00:00:00Z", nil, e.adminToken)
	decodeInto(t, rec.Body.Bytes(), &items)
	if len(items) != 1 {
		t.Fatalf("%d sales recorded, want the one accepted", len(items))
	}
}
