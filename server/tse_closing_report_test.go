package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// zSection is a section of the Z-report page as text, tags removed and
// white space collapsed: what a reader sees of it.
func zSection(tb testing.TB, page, id string) string {
	tb.Helper()
	i := strings.Index(page, `<section id="`+id+`"`)
	if i < 0 {
		tb.Fatalf("the report has no section %s:\n%s", id, page)
	}
	sec := page[i:]
	sec = sec[:strings.Index(sec, "</section>")]
	return strings.Join(strings.Fields(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(sec, " ")), " ")
}

func wantText(tb testing.TB, what, text string, wants ...string) {
	tb.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			tb.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// zReceiptNos maps the closing's sales' ids to their receipt numbers
// (BON_NR), as the report names them.
func (e *tseEnv) zReceiptNos(tb testing.TB, closingID string) map[string]int64 {
	tb.Helper()
	sales, err := e.st.ClosingSales(context.Background(), closingID)
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string]int64{}
	for _, s := range sales {
		out[s.TxID] = s.ReceiptNo
	}
	return out
}

// A day of sales at 19 % and 7 %, cash and card, a tip, two stornos, an
// aborted receipt and a training receipt, closed: the Z-report shows
// every figure as computed by hand to the cent, lists each storno with
// the receipt it reverses and the aborted receipt, and names the TSE's
// serial and counters, at A4 and at 80 mm; a storno in the next closing
// names the receipt and closing it reverses.
func TestZReportOfADay(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, staffTok := e.staff(t, "Sam Staff")
	pay := func(typ, amount string) map[string]any {
		return map[string]any{"payment_type": typ, "amount": json.Number(amount)}
	}
	vat := func(rate, amount string) map[string]any {
		return map[string]any{"vat_rate": rate, "amount": json.Number(amount)}
	}
	_, a := e.sell(t, map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT",
		"line_items":               []any{line("Schnitzel", "2", "10.70", "REDUCED_1"), line("Bier", "2", "4.50", "NORMAL")},
		"amounts_per_vat_rate":     []any{vat("NORMAL", "9.00"), vat("REDUCED_1", "21.40")},
		"amounts_per_payment_type": []any{pay("CASH", "30.40")}}, staffTok)
	_, b := e.sell(t, map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT",
		"amounts_per_vat_rate": []any{vat("NORMAL", "11.90")}, "amounts_per_payment_type": []any{pay("NON_CASH", "11.90")}}, staffTok)
	_, c := e.sell(t, sale("KASSE-01", 595), staffTok)
	_, cSt := e.sell(t, stornoBody("KASSE-01", "RECEIPT", 595, c["id"]), staffTok)
	_, d := e.sell(t, map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT",
		"amounts_per_vat_rate": []any{vat("REDUCED_1", "3.21")}, "amounts_per_payment_type": []any{pay("NON_CASH", "3.21")}}, staffTok)
	_, dSt := e.sell(t, map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT", "cancels": d["id"],
		"amounts_per_vat_rate": []any{vat("REDUCED_1", "-3.21")}, "amounts_per_payment_type": []any{pay("NON_CASH", "-3.21")}}, staffTok)
	e.sell(t, map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT", "business_case": "TrinkgeldAN",
		"amounts_per_vat_rate": []any{vat("NULL", "2.00")}, "amounts_per_payment_type": []any{pay("NON_CASH", "2.00")}}, staffTok)
	abort := sale("KASSE-01", 450)
	abort["receipt_type"] = "ABORT"
	_, ab := e.sell(t, abort, staffTok)
	training := sale("KASSE-01", 999)
	training["receipt_type"] = "TRAINING"
	e.sell(t, training, staffTok)
	_ = a

	status, body := e.closeRegister(t, staffTok, "KASSE-01")
	if status != http.StatusCreated {
		t.Fatalf("closing: %d %v", status, body)
	}
	id := body["closing"].(map[string]any)["id"].(string)
	no := e.zReceiptNos(t, id)
	nr := func(tx map[string]any) int64 { return no[tx["id"].(string)] }

	rec := e.do(t, "GET", "/api/tse/closings/"+id+"/report", nil, staffTok)
	wantStatus(t, rec, http.StatusOK)
	if ct, csp := rec.Header().Get("Content-Type"), rec.Header().Get("Content-Security-Policy"); ct != "text/html; charset=utf-8" || csp != consoleCSP {
		t.Fatalf("headers %q %q", ct, csp)
	}
	page := rec.Body.String()
	if strings.Contains(page, "<script") || strings.Contains(page, "style=") || !strings.Contains(page, `href="/assets/print.css"`) {
		t.Fatalf("the A4 page is not a plain print page:\n%s", page)
	}
	// 19 %: 9,00 + 11,90 + 5,95 - 5,95 = 20,90 gross, 20,90 / 1,19 = 17,56
	// net, 3,34 VAT; 7 %: 21,40 + 3,21 - 3,21 = 21,40, 20,00 net, 1,40
	// VAT; the staff's tip, 2,00, is no revenue: its own line.
	wantText(t, "the head", zSection(t, page, "z-head"), "Kasse KASSE-01", "Z-Nummer 1", "Geschäftstag 22.11.2026", "Vorgänge 9")
	wantText(t, "the VAT", zSection(t, page, "z-vat"),
		"19 % 17,56 € 3,34 € 20,90 €", "7 % 20,00 € 1,40 € 21,40 €", "Summe 37,56 € 4,74 € 42,30 €",
		"Trinkgeld für das Personal (kein Umsatz) 2,00 €", "Summe aller Belege 44,30 €")
	// Cash 30,40 + 5,95 - 5,95; card 11,90 + 3,21 - 3,21 + 2,00.
	wantText(t, "the payments", zSection(t, page, "z-payments"), "Bar 30,40 € 30,40 €", "Unbar (Karte u. a.) 13,90 € 13,90 €", "Summe 44,30 €")
	wantText(t, "the business cases", zSection(t, page, "z-cases"),
		"Umsatz 19 % 17,56 € 3,34 € 20,90 €", "Umsatz 7 % 20,00 € 1,40 € 21,40 €", "Trinkgeld (Arbeitnehmer) 0 % 2,00 € 0,00 € 2,00 €")
	wantText(t, "the tips", zSection(t, page, "z-movements"), "Trinkgeld für das Personal erhalten 2,00 €",
		"An das Personal bar ausgezahlt 0,00 €", "Sam Staff 2,00 € 0,00 €", "Anfangsbestand (Wechselgeld) 0 keiner gebucht",
		"Keine Kassenbewegungen.")
	stornos := zSection(t, page, "z-stornos")
	wantText(t, "the stornos", stornos, "Stornos: 2, Summe -9,16 €",
		fmt.Sprintf("Nr. %d 10:00:00 -5,95 € Beleg Nr. %d vom 22.11.2026, 10:00 Uhr (Z-Nr. 1)", nr(cSt), nr(c)),
		fmt.Sprintf("Nr. %d 10:00:00 -3,21 € Beleg Nr. %d vom 22.11.2026, 10:00 Uhr (Z-Nr. 1)", nr(dSt), nr(d)))
	if n := strings.Count(page, `class="storno"`); n != 2 {
		t.Errorf("%d storno rows, want 2", n)
	}
	wantText(t, "the aborted receipts", zSection(t, page, "z-aborted"), "Belegabbrüche: 1, Summe 4,50 €", fmt.Sprintf("Nr. %d 10:00:00 4,50 €", nr(ab)))
	wantText(t, "the training receipts", zSection(t, page, "z-training"), "Trainingsbelege: 1, Summe 9,99 €")
	wantText(t, "the kinds", zSection(t, page, "z-kinds"), "Beleg 7", "Belegabbruch 1", "Trainingsbeleg 1", "Alle Vorgänge 9")
	// No cash book: no expected cash, no count (TestZReportCashDesk has
	// both).
	wantText(t, "the cash", zSection(t, page, "z-cash"), "Bareinnahmen aus Verkäufen 30,40 €", "Kassenbewegungen 0,00 €",
		"Bar laut Abschluss 30,40 €", "Soll-Bestand bei Abschluss Kassenbuch nicht geführt", "Kassensturz (gezählt) keine Zählung")
	if strings.Contains(page, "noch nicht erfasst") && strings.Count(page, "noch nicht erfasst") != 1 {
		t.Errorf("the report still says a cash figure is not recorded:\n%s", page)
	}

	// The TSE: the simulator's serial, and the counters of the nine
	// signed sales, read from the API.
	tseText := zSection(t, page, "z-tse")
	var counters, numbers []int64
	serial := ""
	for _, tx := range []map[string]any{a, b, c, cSt, d, dSt, ab} {
		rec := e.do(t, "GET", "/api/tse/transactions/"+tx["id"].(string), nil, e.adminToken)
		got := decodeJSON(t, rec)["transaction"].(map[string]any)
		counters, numbers = append(counters, int64(num(got["signature_counter"]))), append(numbers, int64(num(got["number"])))
		serial = got["tse_serial_number"].(string)
	}
	wantText(t, "the TSE", tseText, "Seriennummer "+serial, fmt.Sprintf("Signaturzähler %d bis", counters[0]), fmt.Sprintf("Transaktionsnummern %d bis", numbers[0]))
	if serial == "" || strings.Contains(tseText, "Ohne TSE-Daten") {
		t.Errorf("TSE section %q", tseText)
	}

	// The 80 mm strip: the same figures, its own narrow style sheet.
	rec = e.do(t, "GET", "/api/tse/closings/"+id+"/report?layout=receipt", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	strip := rec.Body.String()
	if !strings.Contains(strip, `href="/assets/receipt.css"`) || strings.Contains(strip, "print.css") || strings.Count(strip, `class="storno"`) != 2 {
		t.Fatalf("the 80 mm page:\n%s", strip)
	}
	wantText(t, "the strip's VAT", zSection(t, strip, "z-vat"), "Summe 37,56 € 4,74 € 42,30 €", "Summe aller Belege 44,30 €")
	rec = e.do(t, "GET", "/api/tse/closings/"+id+"/report?layout=a5", nil, e.adminToken)
	wantStatus(t, rec, http.StatusUnprocessableEntity)
	if p := decodeJSON(t, rec); !strings.Contains(fmt.Sprint(p["errors"]), "layout") {
		t.Fatalf("%v", p)
	}
	rec = e.do(t, "GET", "/api/tse/closings/00000000-0000-4000-8000-000000000000/report", nil, e.adminToken)
	wantStatus(t, rec, http.StatusNotFound)

	// An hour later B is reversed: closing 2 lists that storno with the
	// receipt of closing 1 it reverses.
	e.clock.Add(time.Hour)
	_, bSt := e.sell(t, map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT", "cancels": b["id"],
		"amounts_per_vat_rate": []any{vat("NORMAL", "-11.90")}, "amounts_per_payment_type": []any{pay("NON_CASH", "-11.90")}}, staffTok)
	_, body = e.closeRegister(t, staffTok, "KASSE-01")
	id2 := body["closing"].(map[string]any)["id"].(string)
	no2 := e.zReceiptNos(t, id2)
	rec = e.do(t, "GET", "/api/tse/closings/"+id2+"/report", nil, staffTok)
	wantStatus(t, rec, http.StatusOK)
	page2 := rec.Body.String()
	wantText(t, "closing 2's stornos", zSection(t, page2, "z-stornos"), "Stornos: 1, Summe -11,90 €",
		fmt.Sprintf("Nr. %d 11:00:00 -11,90 € Beleg Nr. %d vom 22.11.2026, 10:00 Uhr (Z-Nr. 1)", no2[bSt["id"].(string)], nr(b)))
	wantText(t, "closing 2's VAT", zSection(t, page2, "z-vat"), "19 % -10,00 € -1,90 € -11,90 €")
	wantText(t, "closing 2's aborted receipts", zSection(t, page2, "z-aborted"), "Belegabbrüche: 0, Summe 0,00 €", "Keine Belegabbrüche.")
}
