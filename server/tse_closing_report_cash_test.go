package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A day of the cash desk, booked through the API, one minute apart from
// 10:00 (local): the float 150,00; a cash sale 23,90 (19 %); a card sale
// 40,00 (7 %) with a card tip of 2,00 (a TrinkgeldAN line); the tip paid
// out in cash 2,00; 100,00 taken to the bank; an expense 12,49 (reason
// and voucher); a count finding 59,00 where 59,41 is expected
// (150 + 23,90 - 2 - 100 - 12,49), booking -0,41; a cash sale 5,00 and
// its storno; then the closing. By hand:
//
//	revenue: 19 % 23,90 + 5 - 5 = 23,90 gross, 23,90 / 1,19 = 20,08 net,
//	3,82 VAT; 7 % 40,00, 37,38 net, 2,62 VAT; 0 % the tip 2,00; sum
//	59,46 net, 6,44 VAT, 65,90 gross. Movements 150 - 2 - 100 - 12,49
//	- 0,41 = 35,10, all receipts 65,90 + 35,10 = 101,00.
//	payments: cash 150 + 23,90 - 2 - 100 - 12,49 - 0,41 + 5 - 5 = 59,00,
//	card 42,00, sum 101,00.
//	cash: from sales 23,90, movements 35,10, per closing 59,00, expected
//	(the cash book) 59,00; the count: Soll 59,41, Ist 59,00, -0,41.
//	tips: 2,00 received, -2,00 paid out; the business case TrinkgeldAN
//	nets to 0,00 as in the DSFinV-K.
//
// The next closing (a 10,00 cash sale half an hour later) has no count and no
// movement, its expected cash 69,00; a report of a register without a
// cash book says so (TestZReportOfADay).
func TestZReportCashDesk(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, staffTok := e.staff(t, "Sam Staff")
	step := func() { e.clock.Add(time.Minute) }
	book := func(tok string, kind, amount string, more ...string) map[string]any {
		body := map[string]any{"client_serial": "KASSE-01", "kind": kind, "amount": json.Number(amount)}
		if len(more) == 2 {
			body["reason"], body["voucher_no"] = more[0], more[1]
		}
		m := e.book(t, tok, body)
		step()
		return m
	}
	sell := func(body map[string]any) map[string]any {
		_, tx := e.sell(t, body, staffTok)
		step()
		return tx
	}
	float := book(staffTok, "opening_float", "150.00")
	sell(sale("KASSE-01", 2390))
	sell(map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT",
		"line_items": []any{line("Menü", "1", "40.00", "REDUCED_1"),
			map[string]any{"text": "Trinkgeld", "quantity": json.Number("1"), "unit_price": json.Number("2.00"), "vat_rate": "NULL", "business_case": "TrinkgeldAN"}},
		"amounts_per_vat_rate": []any{map[string]any{"vat_rate": "REDUCED_1", "amount": json.Number("40.00")},
			map[string]any{"vat_rate": "NULL", "amount": json.Number("2.00")}},
		"amounts_per_payment_type": []any{map[string]any{"payment_type": "NON_CASH", "amount": json.Number("42.00")}}})
	book(staffTok, "tip_payout", "2.00")
	book(e.adminToken, "transfer_out", "100.00")
	expense := book(e.adminToken, "expense", "12.49", "Zitronen", "R-77")
	rec := e.do(t, "POST", "/api/cash/counts", map[string]any{"client_serial": "KASSE-01", "counted": json.Number("59.00")}, staffTok)
	wantStatus(t, rec, http.StatusCreated)
	step()
	five := sell(sale("KASSE-01", 500))
	sell(stornoBody("KASSE-01", "RECEIPT", 500, five["id"]))

	status, body := e.closeRegister(t, staffTok, "KASSE-01")
	if status != http.StatusCreated {
		t.Fatalf("closing: %d %v", status, body)
	}
	id := body["closing"].(map[string]any)["id"].(string)
	no := e.zReceiptNos(t, id)
	rec = e.do(t, "GET", "/api/tse/closings/"+id+"/report", nil, staffTok)
	wantStatus(t, rec, http.StatusOK)
	page := rec.Body.String()
	for _, internal := range []string{"opening_float", "tip_payout", "transfer_out", "expense", "difference", "DifferenzSollIst", "TrinkgeldAN"} {
		if strings.Contains(page, internal) {
			t.Errorf("the report shows the internal name %q", internal)
		}
	}
	wantText(t, "the head", zSection(t, page, "z-head"), "Vorgänge 9")
	wantText(t, "the revenue", zSection(t, page, "z-vat"), "19 % 20,08 € 3,82 € 23,90 €", "7 % 37,38 € 2,62 € 40,00 €",
		"Summe 57,46 € 6,44 € 63,90 €", "Trinkgeld für das Personal (kein Umsatz) 2,00 €", "Kassenbewegungen (kein Umsatz) 35,10 €",
		"Summe aller Belege 101,00 €")
	if strings.Contains(zSection(t, page, "z-vat"), "0 %") {
		t.Error("the staff's tips are shown as revenue at 0 %")
	}
	wantText(t, "the payments", zSection(t, page, "z-payments"), "Bar 59,00 € 59,00 €", "Unbar (Karte u. a.) 42,00 € 42,00 €", "Summe 101,00 €")
	wantText(t, "the business cases", zSection(t, page, "z-cases"),
		"Umsatz 19 % 20,08 € 3,82 € 23,90 €", "Umsatz 7 % 37,38 € 2,62 € 40,00 €", "Anfangsbestand 0 % 150,00 € 0,00 € 150,00 €",
		"Auszahlung 0 % -12,49 € 0,00 € -12,49 €", "Differenz Soll/Ist 0 % -0,41 € 0,00 € -0,41 €",
		"Geldtransit 0 % -100,00 € 0,00 € -100,00 €", "Trinkgeld (Arbeitnehmer) 0 % 0,00 € 0,00 € 0,00 €")
	movements := zSection(t, page, "z-movements")
	wantText(t, "the movements", movements,
		"Anfangsbestand (Wechselgeld) 1 150,00 €", "Trinkgeld-Auszahlung an Personal 1 -2,00 €",
		"Geldtransit an Bank oder Tresor 1 -100,00 €", "Auszahlung (Ausgabe) 1 -12,49 €", "Kassendifferenz 1 -0,41 €", "Summe 5 35,10 €",
		"Trinkgeld für das Personal erhalten 2,00 €", "An das Personal bar ausgezahlt -2,00 €", "Sam Staff 2,00 € -2,00 €",
		fmt.Sprintf("Nr. %d 10:00:00 Anfangsbestand (Wechselgeld), gebucht von Sam Staff 150,00 €", no[float["id"].(string)]),
		fmt.Sprintf("Nr. %d 10:05:00 Auszahlung (Ausgabe): Zitronen (Beleg R-77), gebucht von %s -12,49 €", no[expense["id"].(string)], e.admin.Name),
		"10:06:00 Kassendifferenz aus der Zählung, gebucht von Sam Staff -0,41 €")
	if n := strings.Count(page, `class="movement"`); n != 5 {
		t.Errorf("%d movement rows, want 5", n)
	}
	wantText(t, "the cash", zSection(t, page, "z-cash"), "Bareinnahmen aus Verkäufen 23,90 €", "Kassenbewegungen 35,10 €",
		"Bar laut Abschluss 59,00 €", "Soll-Bestand bei Abschluss 59,00 €", "Kassensturz (gezählt) 1 Zählung",
		"Nr. 1, 10:06:00, gezählt von Sam Staff 59,41 € 59,00 € -0,41 €")

	// The 80 mm strip shows the same.
	rec = e.do(t, "GET", "/api/tse/closings/"+id+"/report?layout=receipt", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	strip := rec.Body.String()
	wantText(t, "the strip's revenue", zSection(t, strip, "z-vat"), "Summe 57,46 € 6,44 € 63,90 €", "Summe aller Belege 101,00 €")
	wantText(t, "the strip's movements", zSection(t, strip, "z-movements"), "Summe 5 35,10 €", "An das Personal bar ausgezahlt -2,00 €")
	wantText(t, "the strip's cash", zSection(t, strip, "z-cash"), "Soll-Bestand bei Abschluss 59,00 €", "59,41 € 59,00 € -0,41 €")

	// The next closing: a cash sale, no movement, no count in its period.
	e.clock.Add(30 * time.Minute)
	sell(sale("KASSE-01", 1000))
	_, body = e.closeRegister(t, staffTok, "KASSE-01")
	rec = e.do(t, "GET", "/api/tse/closings/"+body["closing"].(map[string]any)["id"].(string)+"/report", nil, staffTok)
	wantStatus(t, rec, http.StatusOK)
	page2 := rec.Body.String()
	wantText(t, "closing 2's revenue", zSection(t, page2, "z-vat"), "Summe 8,40 € 1,60 € 10,00 €")
	if strings.Contains(zSection(t, page2, "z-vat"), "Kassenbewegungen") || strings.Contains(zSection(t, page2, "z-vat"), "0 %") {
		t.Errorf("closing 2's revenue: %s", zSection(t, page2, "z-vat"))
	}
	wantText(t, "closing 2's movements", zSection(t, page2, "z-movements"), "Anfangsbestand (Wechselgeld) 0 keiner gebucht",
		"Summe 0 0,00 €", "Keine Kassenbewegungen.")
	wantText(t, "closing 2's cash", zSection(t, page2, "z-cash"), "Bareinnahmen aus Verkäufen 10,00 €", "Bar laut Abschluss 10,00 €",
		"Soll-Bestand bei Abschluss 69,00 €", "Kassensturz (gezählt) keine Zählung")
}
