package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"posbox/internal/poll"
)

// cashDay is the ids of the cash desk's day (sellCashDay).
type cashDay struct {
	closing map[string]any
}

// sellCashDay records the day at the cash desk of KASSE-01, then
// closes it. By hand, in euro:
//
//	float (staff)               +150.00  Anfangsbestand, cash
//	cash sale 19 %               +23.90  Umsatz, cash
//	card sale 19 % + tip          40.00 + 2.00 TrinkgeldAN, card 42.00
//	tip payout (staff)            −2.00  TrinkgeldAN, cash
//	bank drop (admin)           −100.00  Geldtransit, cash
//	expense, lemons, R-77        −12.49  Auszahlung, cash
//	cash sale 19 % and storno     +5.00 −5.00  Umsatz, cash
//	expected cash               = 150 + 23.90 − 2 − 100 − 12.49 = 59.41
//	count 59.00                   −0.41  DifferenzSollIst, cash
//
// The closing: 19 % 23.90 + 40.00 + 5.00 − 5.00 = 63.90; not taxable
// 150 + 2 − 2 − 100 − 12.49 − 0.41 = 37.10; total 101.00; cash
// 59.00 (the count); card 42.00.
func sellCashDay(t *testing.T, e *tseEnv) cashDay {
	t.Helper()
	_, staffTok := e.staff(t, "Sam Staff")
	e.book(t, staffTok, map[string]any{"client_serial": "KASSE-01", "kind": "opening_float", "amount": json.Number("150.00")})
	e.sell(t, sale("KASSE-01", 2390), staffTok)
	tip := line("Trinkgeld", "1", "2.00", "NULL")
	tip["business_case"] = "TrinkgeldAN"
	e.sell(t, map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT",
		"amounts_per_vat_rate": []any{
			map[string]any{"vat_rate": "NORMAL", "amount": json.Number("40.00")},
			map[string]any{"vat_rate": "NULL", "amount": json.Number("2.00")}},
		"amounts_per_payment_type": []any{map[string]any{"payment_type": "NON_CASH", "amount": json.Number("42.00")}},
		"line_items":               []any{line("Flammkuchen", "4", "10.00", "NORMAL"), tip}}, staffTok)
	e.book(t, staffTok, map[string]any{"client_serial": "KASSE-01", "kind": "tip_payout", "amount": json.Number("2.00"), "reason": "Sam"})
	e.book(t, e.adminToken, map[string]any{"client_serial": "KASSE-01", "kind": "transfer_out", "amount": json.Number("100.00")})
	e.book(t, e.adminToken, map[string]any{"client_serial": "KASSE-01", "kind": "expense", "amount": json.Number("12.49"),
		"reason": "Zitronen", "voucher_no": "R-77"})
	_, plain := e.sell(t, sale("KASSE-01", 500), staffTok)
	st := sale("KASSE-01", -500)
	st["cancels"] = plain["id"]
	e.sell(t, st, staffTok)
	if got := e.expected(t, "KASSE-01"); got != "59.41" {
		t.Fatalf("expected cash %q, want 59.41", got)
	}
	rec := e.do(t, "POST", "/api/cash/counts", map[string]any{"client_serial": "KASSE-01", "counted": json.Number("59.00")}, staffTok)
	wantStatus(t, rec, http.StatusCreated)
	if c := jsonNumbers(t, rec.Body.Bytes())["count"].(map[string]any); c["difference"] != json.Number("-0.41") {
		t.Fatalf("count %v", c)
	}
	e.advance(30 * time.Second)
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })
	code, body := e.closeRegister(t, e.adminToken, "KASSE-01")
	if code != http.StatusCreated {
		t.Fatalf("closing %d %v", code, body)
	}
	return cashDay{closing: body["closing"].(map[string]any)}
}

// The day at the cash desk: the closing and the DSFinV-K export
// (cashpointclosing, businesscases, payment, cash_per_currency) agree to
// the cent with the figures worked out by hand in sellCashDay.
func TestCashDeskDayInTheClosingAndTheExport(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	day := sellCashDay(t, e)
	c := day.closing
	if c["total"] != 101.0 || c["cash"] != 59.0 {
		t.Fatalf("closing total %v cash %v, want 101.00 and 59.00", c["total"], c["cash"])
	}
	x := e.readExport(t, "from=2026-11-22&to=2026-11-22")
	checkTotals(t, x, c)
	cp := x.rows("cashpointclosing.csv")[0]
	if cp["Z_SE_ZAHLUNGEN"] != "101,00" || cp["Z_SE_BARZAHLUNGEN"] != "59,00" {
		t.Errorf("Z_SE_ZAHLUNGEN %s, Z_SE_BARZAHLUNGEN %s, want 101,00 and 59,00", cp["Z_SE_ZAHLUNGEN"], cp["Z_SE_BARZAHLUNGEN"])
	}
	for typ, want := range map[string]string{"Bar": "59,00", "Unbar": "42,00"} {
		if r := x.rows("payment.csv", "ZAHLART_TYP", typ); len(r) != 1 || r[0]["Z_ZAHLART_BETRAG"] != want {
			t.Errorf("payment.csv %s: %v, want %s", typ, r, want)
		}
	}
	if r := x.rows("cash_per_currency.csv", "ZAHLART_WAEH", "EUR"); len(r) != 1 || r[0]["ZAHLART_BETRAG_WAEH"] != "59,00" {
		t.Errorf("cash_per_currency.csv EUR: %v, want 59,00", r)
	}
	want := map[string]struct{ key, gross string }{
		"Umsatz":           {"1", "63,90000"},
		"Anfangsbestand":   {"5", "150,00000"},
		"TrinkgeldAN":      {"5", "0,00000"},
		"Geldtransit":      {"5", "-100,00000"},
		"Auszahlung":       {"5", "-12,49000"},
		"DifferenzSollIst": {"5", "-0,41000"},
	}
	rows := x.rows("businesscases.csv")
	if len(rows) != len(want) {
		t.Errorf("businesscases.csv has %d rows, want %d: %v", len(rows), len(want), rows)
	}
	for _, r := range rows {
		w, ok := want[r["GV_TYP"]]
		if !ok || r["UST_SCHLUESSEL"] != w.key || r["Z_UMS_BRUTTO"] != w.gross {
			t.Errorf("businesscases.csv %s: key %s gross %s, want %+v", r["GV_TYP"], r["UST_SCHLUESSEL"], r["Z_UMS_BRUTTO"], w)
		}
	}
	// The expense's receipt names its reason and voucher on its line.
	if r := x.rows("lines.csv", "GV_TYP", "Auszahlung"); len(r) != 1 || r[0]["ARTIKELTEXT"] != "Auszahlung (Ausgabe): Zitronen (Beleg R-77)" {
		t.Errorf("the expense's line %v", r)
	}
}

// The day in the DATEV batch: the takings through the transit
// account, the cash of the sales (59.00 less the movements' 37.10: 21.90,
// the tip paid out included), each movement cash against its account;
// the tip received and paid out nets to nothing.
func TestCashDeskDayInTheDATEVBatch(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	sellCashDay(t, e)
	wantStatus(t, e.do(t, "PUT", "/api/fiscal/datev/accounts", map[string]any{"consultant_number": 1234567, "client_number": 42,
		"chart": "SKR03"}, e.adminToken), http.StatusOK)
	wantProblem(t, e.do(t, "GET", "/api/fiscal/datev?month=2026-11", nil, e.adminToken), http.StatusConflict, "datev_account_missing")
	rec := e.do(t, "GET", "/api/fiscal/datev/accounts", nil, e.adminToken)
	accounts := map[string]any{}
	for _, a := range decodeJSON(t, rec)["datev"].(map[string]any)["accounts"].([]any) {
		m := a.(map[string]any)
		accounts[m["key"].(string)] = m["account"]
	}
	accounts["cash_difference"] = "2750"
	wantStatus(t, e.do(t, "PUT", "/api/fiscal/datev/accounts", map[string]any{"consultant_number": 1234567, "client_number": 42,
		"chart": "SKR03", "accounts": accounts}, e.adminToken), http.StatusOK)
	f := readDATEV(t, e, "2026-11")
	var rows []string
	var cash int64 // Kasse's net, debit positive
	for _, b := range f.bookings {
		rows = append(rows, strings.Join([]string{b[0], b[1], b[6], b[7], b[13]}, "|"))
		if b[6] == "1000" {
			c := units(t, b[0]) / 1000
			if b[1] == "H" {
				c = -c
			}
			cash += c
		}
	}
	want := []string{
		"63,90|S|1360|8400|Erlöse 19 %, Z 1 Kasse KASSE-01",
		"21,90|S|1000|1360|Bareinnahmen, Z 1 Kasse KASSE-01",
		"42,00|S|1361|1360|Unbare Zahlungen, Z 1 Kasse KASSE-01",
		"150,00|S|1000|1360|Anfangsbestand (Wechselgeld), Z 1 Kasse KASSE-01",
		"100,00|H|1000|1360|Geldtransit an Bank oder Tresor, Z 1 Kasse KASSE-01",
		"12,49|H|1000|4900|Auszahlung (Ausgabe): Zitronen (Beleg R-77), Z 1 Kasse KASSE",
		"0,41|H|1000|2750|Kassendifferenz: Zählung Ist 59,00 €, Soll 59,41 €, Z 1 Kass",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("bookings\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	if cash != 5900 {
		t.Fatalf("Kasse nets %d cents, the counted drawer 5900", cash)
	}
}

// The day on its Z-report: revenue 63.90 at 19 % (53.70 net,
// 10.20 VAT), the tip and the movements beside it, 101.00 in all; cash
// 59.00 and card 42.00; the storno; the count 0.41 short; 59.00 expected
// at the closing.
func TestCashDeskDayOnTheZReport(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	day := sellCashDay(t, e)
	rec := e.do(t, "GET", "/api/tse/closings/"+day.closing["id"].(string)+"/report", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	page := rec.Body.String()
	wantText(t, "the revenue", zSection(t, page, "z-vat"), "19 % 53,70 € 10,20 € 63,90 €", "Summe 53,70 € 10,20 € 63,90 €",
		"Trinkgeld für das Personal (kein Umsatz) 2,00 €", "Kassenbewegungen (kein Umsatz) 35,10 €", "Summe aller Belege 101,00 €")
	wantText(t, "the payments", zSection(t, page, "z-payments"), "Bar 59,00 € 59,00 €", "Unbar (Karte u. a.) 42,00 € 42,00 €", "Summe 101,00 €")
	wantText(t, "the movements", zSection(t, page, "z-movements"), "Anfangsbestand (Wechselgeld) 1 150,00 €",
		"Geldtransit an Bank oder Tresor 1 -100,00 €", "Auszahlung (Ausgabe) 1 -12,49 €", "Kassendifferenz 1 -0,41 €",
		"Trinkgeld-Auszahlung an Personal 1 -2,00 €", "Summe 5 35,10 €", "Sam Staff 2,00 € -2,00 €")
	wantText(t, "the cash", zSection(t, page, "z-cash"), "Bar laut Abschluss 59,00 €", "Soll-Bestand bei Abschluss 59,00 €",
		"59,41 € 59,00 € -0,41 €")
	if !strings.Contains(page, "Stornos: 1, Summe -5,00 €") {
		t.Error("the report does not show the storno")
	}
}
