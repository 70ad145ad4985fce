package server

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"

	"posbox/fiscal/datev"
	"posbox/store"
)

// datevFile is a DATEV batch read back: the header, the column names and
// the bookings, each a row of fields.
type datevFile struct {
	header, columns []string
	bookings        [][]string
}

// readDATEV downloads the month's batch and parses it as DATEV does:
// Windows-1252, CRLF, semicolons, quoted text.
func readDATEV(t *testing.T, e *tseEnv, month string) datevFile {
	t.Helper()
	rec := e.do(t, "GET", "/api/fiscal/datev?month="+month, nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if cd := rec.Header().Get("Content-Disposition"); cd != `attachment; filename="EXTF_Buchungsstapel_`+strings.ReplaceAll(month, "-", "")+`01_`+
		strings.ReplaceAll(month, "-", "")+`30.csv"` {
		t.Fatalf("Content-Disposition %q", cd)
	}
	raw := rec.Body.Bytes()
	if bytes.Contains(raw, []byte("ü")) || !bytes.Contains(raw, []byte{'S', 'c', 'h', 'l', 0xFC, 's', 's', 'e', 'l'}) {
		t.Fatal("the file is not Windows-1252: Schlüssel is not S c h l 0xFC s s e l")
	}
	if !bytes.HasSuffix(raw, []byte("\r\n")) || bytes.Count(raw, []byte("\n")) != bytes.Count(raw, []byte("\r\n")) {
		t.Fatal("a line does not end in CRLF")
	}
	text, err := charmap.Windows1252.NewDecoder().Bytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(bytes.NewReader(text))
	r.Comma, r.FieldsPerRecord = ';', -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return datevFile{header: rows[0], columns: rows[1], bookings: rows[2:]}
}

// sellDATEVDay records the day the DATEV tests book: 19 % and 7 %, cash
// and card, an employee's tip on the card, a sale and its storno.
func sellDATEVDay(t *testing.T, e *tseEnv) {
	_, staffTok := e.staff(t, "Sam Staff")
	e.sell(t, map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT",
		"amounts_per_vat_rate": []any{
			map[string]any{"vat_rate": "NORMAL", "amount": json.Number("7.80")},
			map[string]any{"vat_rate": "REDUCED_1", "amount": json.Number("12.90")}},
		"amounts_per_payment_type": []any{map[string]any{"payment_type": "CASH", "amount": json.Number("20.70")}},
		"line_items":               []any{line("Bier 0,5 l", "2", "3.90", "NORMAL"), line("Schnitzel", "1", "12.90", "REDUCED_1")}}, staffTok)
	tip := line("Trinkgeld", "1", "2.00", "NULL")
	tip["business_case"] = "TrinkgeldAN"
	e.sell(t, map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT",
		"amounts_per_vat_rate": []any{
			map[string]any{"vat_rate": "NORMAL", "amount": json.Number("10.00")},
			map[string]any{"vat_rate": "NULL", "amount": json.Number("2.00")}},
		"amounts_per_payment_type": []any{map[string]any{"payment_type": "NON_CASH", "amount": json.Number("12.00")}},
		"line_items":               []any{line("Flammkuchen", "1", "10.00", "NORMAL"), tip}}, staffTok)
	_, plain := e.sell(t, sale("KASSE-01", 500), staffTok)
	storno := sale("KASSE-01", -500)
	storno["cancels"] = plain["id"]
	e.sell(t, storno, staffTok)
	if code, body := e.closeRegister(t, staffTok, "KASSE-01"); code != http.StatusCreated {
		t.Fatalf("closing %d %v", code, body)
	}
}

// A closed day becomes the bookings an adviser imports: the revenue per
// VAT rate and the employee's tip into the transit account, the cash and
// the card payments out of it, each to the cent; the header names the
// adviser, the client, the month and the chart. Switching to SKR04
// changes every account.
func TestDATEVBatchOfADay(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	sellDATEVDay(t, e)
	wantProblem(t, e.do(t, "GET", "/api/fiscal/datev?month=2026-11", nil, e.adminToken), http.StatusConflict, "datev_numbers_missing")
	wantStatus(t, e.do(t, "PUT", "/api/fiscal/datev/accounts", map[string]any{"consultant_number": 1234567, "client_number": 42,
		"chart": "SKR03"}, e.adminToken), http.StatusOK)

	f := readDATEV(t, e, "2026-11")
	h := f.header
	want := map[int]string{0: "EXTF", 1: "700", 2: "21", 3: "Buchungsstapel", 4: "9", 8: "posbox", 10: "1234567", 11: "42", 12: "20260101",
		13: "4", 14: "20261101", 15: "20261130", 16: "Kasse 2026-11", 18: "1", 21: "EUR", 26: "03"}
	if len(h) != 31 || len(h[5]) != 17 {
		t.Fatalf("header %q", h)
	}
	for i, v := range want {
		if h[i] != v {
			t.Errorf("header field %d = %q, want %q", i+1, h[i], v)
		}
	}
	if len(f.columns) != 116 || f.columns[0] != "Umsatz (ohne Soll/Haben-Kz)" || f.columns[6] != "Konto" ||
		f.columns[7] != "Gegenkonto (ohne BU-Schlüssel)" || f.columns[9] != "Belegdatum" || f.columns[13] != "Buchungstext" ||
		f.columns[113] != "Festschreibung" || f.columns[114] != "Leistungsdatum" {
		t.Fatalf("columns %d %q", len(f.columns), f.columns)
	}
	// Revenue 19 %: 7.80 + 10.00 + 5.00 - 5.00; 7 %: 12.90; tip 2.00;
	// cash 20.70 + 5.00 - 5.00; card 12.00 (10.00 and the tip).
	checkBookings(t, f, [][]string{
		{"17,80", "S", "1360", "8400", "Erlöse 19 %, Z 1 Kasse KASSE-01"},
		{"12,90", "S", "1360", "8300", "Erlöse 7 %, Z 1 Kasse KASSE-01"},
		{"2,00", "S", "1360", "1590", "Trinkgeld Personal, Z 1 Kasse KASSE-01"},
		{"20,70", "S", "1000", "1360", "Bareinnahmen, Z 1 Kasse KASSE-01"},
		{"12,00", "S", "1361", "1360", "Unbare Zahlungen, Z 1 Kasse KASSE-01"},
	})

	wantStatus(t, e.do(t, "PUT", "/api/fiscal/datev/accounts", map[string]any{"consultant_number": 1234567, "client_number": 42,
		"chart": "SKR04"}, e.adminToken), http.StatusOK)
	f = readDATEV(t, e, "2026-11")
	if f.header[26] != "04" {
		t.Fatalf("SKR %q", f.header[26])
	}
	checkBookings(t, f, [][]string{
		{"17,80", "S", "1460", "4400", "Erlöse 19 %, Z 1 Kasse KASSE-01"},
		{"12,90", "S", "1460", "4300", "Erlöse 7 %, Z 1 Kasse KASSE-01"},
		{"2,00", "S", "1460", "1370", "Trinkgeld Personal, Z 1 Kasse KASSE-01"},
		{"20,70", "S", "1600", "1460", "Bareinnahmen, Z 1 Kasse KASSE-01"},
		{"12,00", "S", "1461", "1460", "Unbare Zahlungen, Z 1 Kasse KASSE-01"},
	})

	// A month without closings is a batch without bookings.
	if f := readDATEV(t, e, "2026-09"); len(f.bookings) != 0 || f.header[15] != "20260930" {
		t.Fatalf("September %q %d", f.header, len(f.bookings))
	}
}

// A mapping saved before the cash book's accounts existed books them at
// the chart's default; the cash book's entries book cash against their
// accounts and the takings in cash are the cash less the movements, so
// Kasse nets to the closing's cash (docs/FISCAL.md, "The DATEV batch").
func TestDATEVBatchOfCashMovements(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	sellDATEVDay(t, e)
	old := map[string]string{}
	for _, a := range datev.Accounts[:13] { // the keys before wages, expenses and cash_difference
		old[a.Key] = a.SKR03
	}
	if _, ok := old["wages"]; ok {
		t.Fatal("the old mapping has the new keys")
	}
	if _, err := e.st.PutDATEVSettings(context.Background(), e.restaurant.ID, "", store.DATEVSettings{Consultant: 1234567, Client: 42,
		Chart: "SKR03", AccountLength: 4, Accounts: old}); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range decodeJSON(t, e.do(t, "GET", "/api/fiscal/datev/accounts", nil, e.adminToken))["datev"].(map[string]any)["accounts"].([]any) {
		m := a.(map[string]any)
		got[m["key"].(string)] = m["account"].(string)
	}
	if got["wages"] != "1755" || got["expenses"] != "4900" || got["cash_difference"] != "" || got["cash"] != "1000" {
		t.Fatalf("a mapping saved before the cash book: %v", got)
	}

	// A second closing: a private withdrawal of 50.00 and 12.50 for
	// cleaning supplies out of the drawer, each its own counted sale.
	_, staffTok := e.staff(t, "Kim Staff")
	for _, m := range []struct{ gvTyp, text, amount string }{
		{"Privatentnahme", "Privatentnahme", "-50.00"}, {"Auszahlung", "Auszahlung: Reinigungsmittel (Beleg 4711)", "-12.50"}} {
		l := line(m.text, "1", m.amount, "NULL")
		l["business_case"] = m.gvTyp
		if code, body := e.sell(t, map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT",
			"amounts_per_vat_rate":     []any{map[string]any{"vat_rate": "NULL", "amount": json.Number(m.amount)}},
			"amounts_per_payment_type": []any{map[string]any{"payment_type": "CASH", "amount": json.Number(m.amount)}},
			"line_items":               []any{l}}, staffTok); code != http.StatusCreated {
			t.Fatalf("%s: %d %v", m.gvTyp, code, body)
		}
	}
	e.sell(t, sale("KASSE-01", 1000), staffTok)
	if code, body := e.closeRegister(t, staffTok, "KASSE-01"); code != http.StatusCreated {
		t.Fatalf("closing %d %v", code, body)
	}
	f := readDATEV(t, e, "2026-11")
	var rows []string
	for _, b := range f.bookings[5:] {
		rows = append(rows, strings.Join([]string{b[0], b[1], b[6], b[7], b[9], b[10], b[13]}, "|"))
	}
	// The closing's cash is 10.00 - 50.00 - 12.50 = -52.50.
	want := []string{
		"10,00|S|1360|8400|2211|KASSE-01-Z2|Erlöse 19 %, Z 2 Kasse KASSE-01",
		"10,00|S|1000|1360|2211|KASSE-01-Z2|Bareinnahmen, Z 2 Kasse KASSE-01",
		"50,00|H|1000|1800|2211|KASSE-01-Z2|Privatentnahme, Z 2 Kasse KASSE-01",
		"12,50|H|1000|4900|2211|KASSE-01-Z2|Auszahlung: Reinigungsmittel (Beleg 4711), Z 2 Kasse KASSE-0",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("bookings of the second day\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

// checkBookings compares each booking's amount, side, accounts and text,
// and the fields every booking shares: EUR, the date 22 November, the
// closing as Belegfeld 1, no lock.
func checkBookings(t *testing.T, f datevFile, want [][]string) {
	t.Helper()
	if len(f.bookings) != len(want) {
		t.Fatalf("%d bookings, want %d: %q", len(f.bookings), len(want), f.bookings)
	}
	for i, b := range f.bookings {
		got := []string{b[0], b[1], b[6], b[7], b[13]}
		if len(b) != 116 || strings.Join(got, "|") != strings.Join(want[i], "|") {
			t.Errorf("booking %d = %q (%d fields), want %q", i+1, got, len(b), want[i])
			continue
		}
		if b[2] != "EUR" || b[8] != "" || b[9] != "2211" || b[10] != "KASSE-01-Z1" || b[113] != "0" || b[114] != "22112026" {
			t.Errorf("booking %d shared fields %q", i+1, b[:16])
		}
	}
}

// The settings refuse what DATEV would not import, with the field and a
// clear code, and change nothing; the defaults follow the chart.
func TestDATEVAccountsValidation(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	put := func(body map[string]any) map[string]any {
		t.Helper()
		return wantProblem(t, e.do(t, "PUT", "/api/fiscal/datev/accounts", body, e.adminToken), http.StatusUnprocessableEntity, "validation_failed")
	}
	fields := func(p map[string]any) string {
		var out []string
		for _, f := range p["errors"].([]any) {
			m := f.(map[string]any)
			out = append(out, m["field"].(string)+":"+m["code"].(string))
		}
		return strings.Join(out, " ")
	}
	cases := []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"chart": "SKR05"}, "chart:one_of"},
		{map[string]any{"chart": "SKR03", "consultant_number": 12}, "consultant_number:out_of_range"},
		{map[string]any{"chart": "SKR03", "client_number": 100000}, "client_number:out_of_range"},
		{map[string]any{"chart": "SKR03", "accounts": map[string]any{"cash": "10a0"}}, "accounts.cash:bad_format"},
		{map[string]any{"chart": "SKR03", "accounts": map[string]any{"cash": "100"}}, "accounts.cash:length"},
		{map[string]any{"chart": "SKR03", "accounts": map[string]any{"revenue_normal": ""}}, "accounts.revenue_normal:required"},
		{map[string]any{"chart": "SKR03", "accounts": map[string]any{"kasse": "1000"}}, "accounts.kasse:not_allowed"},
		{map[string]any{"chart": "SKR03", "accounts": map[string]any{"cash": "1360"}}, "accounts.cash:duplicate"},
		{map[string]any{"chart": "SKR03", "account_length": 5}, "accounts.cash:length"},
	}
	for _, c := range cases {
		if got := fields(put(c.body)); !strings.HasPrefix(got, c.want) {
			t.Errorf("%v: fields %s, want %s", c.body, got, c.want)
		}
	}
	get := decodeJSON(t, e.do(t, "GET", "/api/fiscal/datev/accounts", nil, e.adminToken))["datev"].(map[string]any)
	if get["updated_at"] != nil || get["chart"] != "SKR03" || get["consultant_number"] != nil {
		t.Fatalf("a refused PUT changed the settings: %v", get)
	}
	// Five digits everywhere with the length 5; SKR04's defaults.
	rec := e.do(t, "PUT", "/api/fiscal/datev/accounts", map[string]any{"chart": "SKR04", "accounts": map[string]any{"vouchers": "3272"}}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	accounts := map[string]string{}
	for _, a := range decodeJSON(t, rec)["datev"].(map[string]any)["accounts"].([]any) {
		m := a.(map[string]any)
		accounts[m["key"].(string)] = m["account"].(string)
	}
	if accounts["cash"] != "1600" || accounts["revenue_normal"] != "4400" || accounts["vouchers"] != "3272" || accounts["private_deposit"] != "2180" {
		t.Fatalf("SKR04 accounts %v", accounts)
	}
	wantProblem(t, e.do(t, "GET", "/api/fiscal/datev?month=2026-13", nil, e.adminToken), http.StatusUnprocessableEntity, "validation_failed")
	_, staffTok := e.staff(t, "Sam Staff")
	wantStatus(t, e.do(t, "GET", "/api/fiscal/datev/accounts", nil, staffTok), http.StatusForbidden)
}
