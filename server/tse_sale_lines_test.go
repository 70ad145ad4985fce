package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"posbox/tse"
)

// line is a line item of a sale body.
func line(text, qty, price, rate string) map[string]any {
	return map[string]any{"text": text, "quantity": json.Number(qty), "unit_price": json.Number(price), "vat_rate": rate}
}

// A sale with line items is signed as the receipt it always was, and its
// lines are kept for the DSFinV-K.
func TestTSESaleWithLineItems(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	body := map[string]any{
		"client_serial": "KASSE-01", "receipt_type": "RECEIPT", "allocation_group": "Tisch 4",
		"amounts_per_vat_rate": []any{
			map[string]any{"vat_rate": "NORMAL", "amount": json.Number("7.80")},
			map[string]any{"vat_rate": "REDUCED_1", "amount": json.Number("9.33")}},
		"amounts_per_payment_type": []any{map[string]any{"payment_type": "CASH", "amount": json.Number("17.13")}},
		"line_items": []any{
			line("Bier 0,5 l", "2", "3.90", "NORMAL"),
			line("Schnitzel", "1", "12.90", "REDUCED_1"),
			line("Käse 0,333 kg", "0.333", "10.00", "REDUCED_1"), // 3.33
			map[string]any{"text": "Stammgast -10 %", "quantity": json.Number("1"), "unit_price": json.Number("-6.90"),
				"vat_rate": "REDUCED_1", "discount_id": "0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01"},
		},
	}
	status, tx := e.sell(t, body, e.adminToken)
	if status != http.StatusCreated || tx["total"] != 17.13 {
		t.Fatalf("status %d: %v", status, tx)
	}
	if p := e.providerTx(t, tx["id"].(string)); p.ProcessType != tse.ProcessTypeReceipt || !strings.HasPrefix(p.ProcessData, "Beleg^7.80_9.33_") {
		t.Fatalf("signed as %s %q", p.ProcessType, p.ProcessData)
	}
	d, err := e.st.TSESaleDetail(context.Background(), tx["id"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Lines) != 4 || d.Lines[2].TotalCents != 333 || d.Lines[3].BusinessCase != "Rabatt" || d.Lines[0].BusinessCase != "Umsatz" ||
		d.AllocationGroup != "Tisch 4" || len(d.VAT) != 2 || d.VAT[1].Cents != 933 || d.Payments[0].Cents != 1713 {
		t.Fatalf("detail %+v", d)
	}
}

// An order is signed as standard_v1.order (Bestellung-V1) with its lines,
// and answers like any sale.
func TestTSEOrderSignedAsBestellung(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, staffTok := e.staff(t, "Sam Staff")
	body := map[string]any{"client_serial": "KASSE-01", "kind": "order", "allocation_group": "Tisch 4",
		"line_items": []any{line("Bier \"Hell\"", "2", "3.90", "NORMAL"), line("Schnitzel", "1", "12.90", "REDUCED_1")}}
	status, tx := e.sell(t, body, staffTok)
	if status != http.StatusCreated || tx["receipt_type"] != "ORDER" || tx["total"] != 20.7 {
		t.Fatalf("status %d: %v", status, tx)
	}
	p := e.providerTx(t, tx["id"].(string))
	if p.ProcessType != "Bestellung-V1" || p.ProcessData != "2;\"Bier \"\"Hell\"\"\";3.90\r1;\"Schnitzel\";12.90" {
		t.Fatalf("signed as %s %q", p.ProcessType, p.ProcessData)
	}
	if err := tse.VerifyTx(e.sim.PublicKey(), p); err != nil {
		t.Fatal(err)
	}
}

// Bodies that break the rules are refused as problem+json naming the
// field, and nothing is recorded. The rules themselves are tested in
// package fiscal (validate_test.go); these cases cross each path: a line,
// the lines' sums, an order, and a storno whose sale the store knows not.
func TestTSESaleLineItemsValidation(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	withLines := func(lines ...any) map[string]any {
		b := sale("KASSE-01", 780)
		b["line_items"] = lines
		return b
	}
	cases := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"lines do not add up", withLines(line("Bier", "2", "3.89", "NORMAL")), "line_items"},
		{"quantity with four decimals", withLines(line("Käse", "0.3333", "10.00", "NORMAL")), "line_items[0].quantity"},
		{"cancels no sale", func() map[string]any {
			b := sale("KASSE-01", -100)
			b["cancels"] = "0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01"
			return b
		}(), "cancels"},
		{"order amounts disagree", map[string]any{"client_serial": "KASSE-01", "kind": "order", "line_items": []any{line("Bier", "1", "3.90", "NORMAL")},
			"amounts_per_vat_rate": []any{map[string]any{"vat_rate": "NORMAL", "amount": json.Number("3.80")}}}, "line_items"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := e.do(t, "POST", "/api/tse/transactions", c.body, e.adminToken)
			wantStatus(t, rec, http.StatusUnprocessableEntity)
			if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
				t.Fatalf("content type %q", ct)
			}
			p := decodeJSON(t, rec)
			errs, _ := p["errors"].([]any)
			found := false
			for _, x := range errs {
				if x.(map[string]any)["field"] == c.field {
					found = true
				}
			}
			if p["code"] != "validation_failed" || !found {
				t.Fatalf("want field %s: %v", c.field, p)
			}
		})
	}
	var n int
	if err := e.st.ReadDB().QueryRow(`SELECT count(*) FROM tse_transactions`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d transactions recorded (%v)", n, err)
	}
}

// A storno names the sale it reverses and must reverse all of it.
func TestTSEStornoReferencesTheSale(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, orig := e.sell(t, sale("KASSE-01", 500), e.adminToken)
	b := sale("KASSE-01", -400)
	b["cancels"] = orig["id"]
	rec := e.do(t, "POST", "/api/tse/transactions", b, e.adminToken)
	wantStatus(t, rec, http.StatusUnprocessableEntity)
	b = sale("KASSE-01", -500)
	b["cancels"] = orig["id"]
	status, storno := e.sell(t, b, e.adminToken)
	if status != http.StatusCreated || storno["total"] != -5.0 {
		t.Fatalf("status %d: %v", status, storno)
	}
	d, err := e.st.TSESaleDetail(context.Background(), storno["id"].(string))
	if err != nil || d.CancelsTxID != orig["id"] {
		t.Fatalf("detail %+v %v", d, err)
	}
}
