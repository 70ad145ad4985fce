package server

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/tse/tsesim"
)

// dsfinvkColumns are the DSFinV-K 2.4 files and their columns in order, as
// the standard lists them (docs/FISCAL.md cites the sources). They are
// written out here, not taken from the writer, so that the test checks the
// export against the standard and not against itself.
var dsfinvkColumns = map[string]string{
	// Einzelaufzeichnungsmodul
	"lines.csv": "Z_KASSE_ID Z_ERSTELLUNG Z_NR BON_ID POS_ZEILE GUTSCHEIN_NR ARTIKELTEXT POS_TERMINAL_ID GV_TYP GV_NAME INHAUS " +
		"P_STORNO AGENTUR_ID ART_NR GTIN WARENGR_ID WARENGR MENGE FAKTOR EINHEIT STK_BR",
	"lines_vat.csv":   "Z_KASSE_ID Z_ERSTELLUNG Z_NR BON_ID POS_ZEILE UST_SCHLUESSEL POS_BRUTTO POS_NETTO POS_UST",
	"itemamounts.csv": "Z_KASSE_ID Z_ERSTELLUNG Z_NR BON_ID POS_ZEILE TYP UST_SCHLUESSEL PF_BRUTTO PF_NETTO PF_UST",
	"subitems.csv": "Z_KASSE_ID Z_ERSTELLUNG Z_NR BON_ID POS_ZEILE ZI_ART_NR ZI_GTIN ZI_NAME ZI_WARENGR_ID ZI_WARENGR ZI_MENGE " +
		"ZI_FAKTOR ZI_EINHEIT ZI_UST_SCHLUESSEL ZI_BASISPREIS_BRUTTO ZI_BASISPREIS_NETTO ZI_BASISPREIS_UST",
	"transactions.csv": "Z_KASSE_ID Z_ERSTELLUNG Z_NR BON_ID BON_NR BON_TYP BON_NAME TERMINAL_ID BON_STORNO BON_START BON_ENDE " +
		"BEDIENER_ID BEDIENER_NAME UMS_BRUTTO KUNDE_NAME KUNDE_ID KUNDE_TYP KUNDE_STRASSE KUNDE_PLZ KUNDE_ORT KUNDE_LAND KUNDE_USTID BON_NOTIZ",
	"transactions_vat.csv":  "Z_KASSE_ID Z_ERSTELLUNG Z_NR BON_ID UST_SCHLUESSEL BON_BRUTTO BON_NETTO BON_UST",
	"allocation_groups.csv": "Z_KASSE_ID Z_ERSTELLUNG Z_NR BON_ID ABRECHNUNGSKREIS",
	"datapayment.csv":       "Z_KASSE_ID Z_ERSTELLUNG Z_NR BON_ID ZAHLART_TYP ZAHLART_NAME ZAHLWAEH_CODE ZAHLWAEH_BETRAG BASISWAEH_BETRAG",
	"references.csv":        "Z_KASSE_ID Z_ERSTELLUNG Z_NR BON_ID POS_ZEILE REF_TYP REF_NAME REF_DATUM REF_Z_KASSE_ID REF_Z_NR REF_BON_ID",
	"transactions_tse.csv": "Z_KASSE_ID Z_ERSTELLUNG Z_NR BON_ID TSE_ID TSE_TANR TSE_TA_START TSE_TA_ENDE TSE_TA_VORGANGSART TSE_TA_SIGZ " +
		"TSE_TA_SIG TSE_TA_FEHLER TSE_VORGANGSDATEN",
	// Stammdatenmodul
	"cashpointclosing.csv": "Z_KASSE_ID Z_ERSTELLUNG Z_NR Z_BUCHUNGSTAG TAXONOMIE_VERSION Z_START_ID Z_ENDE_ID NAME STRASSE PLZ ORT " +
		"LAND STNR USTID Z_SE_ZAHLUNGEN Z_SE_BARZAHLUNGEN",
	"location.csv": "Z_KASSE_ID Z_ERSTELLUNG Z_NR LOC_NAME LOC_STRASSE LOC_PLZ LOC_ORT LOC_LAND LOC_USTID",
	"cashregister.csv": "Z_KASSE_ID Z_ERSTELLUNG Z_NR KASSE_BRAND KASSE_MODELL KASSE_SERIENNR KASSE_SW_BRAND KASSE_SW_VERSION " +
		"KASSE_BASISWAEH_CODE KEINE_UST_ZUORDNUNG",
	"slaves.csv": "Z_KASSE_ID Z_ERSTELLUNG Z_NR TERMINAL_ID TERMINAL_BRAND TERMINAL_MODELL TERMINAL_SERIENNR TERMINAL_SW_BRAND " +
		"TERMINAL_SW_VERSION",
	"pa.csv": "Z_KASSE_ID Z_ERSTELLUNG Z_NR AGENTUR_ID AGENTUR_NAME AGENTUR_STRASSE AGENTUR_PLZ AGENTUR_ORT AGENTUR_LAND AGENTUR_STNR " +
		"AGENTUR_USTID",
	"vat.csv": "Z_KASSE_ID Z_ERSTELLUNG Z_NR UST_SCHLUESSEL UST_SATZ UST_BESCHR",
	"tse.csv": "Z_KASSE_ID Z_ERSTELLUNG Z_NR TSE_ID TSE_SERIAL TSE_SIG_ALGO TSE_ZEITFORMAT TSE_PD_ENCODING TSE_PUBLIC_KEY " +
		"TSE_ZERTIFIKAT_I TSE_ZERTIFIKAT_II",
	// Kassenabschlussmodul
	"businesscases.csv":     "Z_KASSE_ID Z_ERSTELLUNG Z_NR GV_TYP GV_NAME AGENTUR_ID UST_SCHLUESSEL Z_UMS_BRUTTO Z_UMS_NETTO Z_UST",
	"payment.csv":           "Z_KASSE_ID Z_ERSTELLUNG Z_NR ZAHLART_TYP ZAHLART_NAME Z_ZAHLART_BETRAG",
	"cash_per_currency.csv": "Z_KASSE_ID Z_ERSTELLUNG Z_NR ZAHLART_WAEH ZAHLART_BETRAG_WAEH",
}

// export is a DSFinV-K ZIP read back: each CSV as records of named
// fields.
type export struct {
	files map[string][]map[string]string
	raw   map[string][]byte
}

func (x *export) rows(file string, where ...string) []map[string]string {
	var out []map[string]string
	for _, r := range x.files[file] {
		ok := true
		for i := 0; i+1 < len(where); i += 2 {
			ok = ok && r[where[i]] == where[i+1]
		}
		if ok {
			out = append(out, r)
		}
	}
	return out
}

// readExport downloads an export, checks every file's form against the
// standard and returns its rows.
func (e *tseEnv) readExport(t *testing.T, query string) *export {
	t.Helper()
	rec := e.do(t, "GET", "/api/fiscal/dsfinvk?"+query, nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if ct := rec.Header().Get("Content-Type"); ct != "application/zip" {
		t.Fatalf("content type %q", ct)
	}
	zr, err := zip.NewReader(bytes.NewReader(rec.Body.Bytes()), int64(rec.Body.Len()))
	if err != nil {
		t.Fatal(err)
	}
	x := &export{files: map[string][]map[string]string{}, raw: map[string][]byte{}}
	var names []string
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		x.raw[f.Name] = b
		names = append(names, f.Name)
	}
	want := []string{"index.xml", "gdpdu-01-09-2004.dtd"}
	for f := range dsfinvkColumns {
		want = append(want, f)
	}
	slices.Sort(want)
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Fatalf("files %v, want %v", names, want)
	}
	for file, cols := range dsfinvkColumns {
		b := x.raw[file]
		if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
			t.Errorf("%s starts with a byte order mark", file)
		}
		if !bytes.HasSuffix(b, []byte("\r\n")) || bytes.Count(b, []byte("\n")) != bytes.Count(b, []byte("\r\n")) {
			t.Errorf("%s: records do not all end in CRLF", file)
		}
		r := csv.NewReader(bytes.NewReader(b))
		r.Comma = ';'
		recs, err := r.ReadAll() // also checks every record has the header's field count
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if got := strings.Join(recs[0], " "); got != cols {
			t.Errorf("%s header:\n got %s\nwant %s", file, got, cols)
		}
		for _, rec := range recs[1:] {
			m := map[string]string{}
			for i, v := range rec {
				m[recs[0][i]] = v
			}
			x.files[file] = append(x.files[file], m)
		}
	}
	// index.xml describes each file with its columns in order.
	var idx struct {
		Media struct {
			Tables []struct {
				URL     string   `xml:"URL"`
				Columns []string `xml:"VariableLength>VariableColumn>Name"`
				Decimal string   `xml:"DecimalSymbol"`
			} `xml:"Table"`
		} `xml:"Media"`
	}
	d := xml.NewDecoder(bytes.NewReader(x.raw["index.xml"]))
	d.Strict = false // the DOCTYPE names the DTD shipped beside it
	if err := d.Decode(&idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Media.Tables) != len(dsfinvkColumns) {
		t.Fatalf("index.xml has %d tables", len(idx.Media.Tables))
	}
	for _, tb := range idx.Media.Tables {
		if got := strings.Join(tb.Columns, " "); got != dsfinvkColumns[tb.URL] || tb.Decimal != "," {
			t.Errorf("index.xml %s: %s (decimal %q)", tb.URL, got, tb.Decimal)
		}
	}
	if !bytes.Contains(x.raw["index.xml"], []byte(`<!DOCTYPE DataSet SYSTEM "gdpdu-01-09-2004.dtd">`)) {
		t.Error("index.xml does not name the DTD")
	}
	return x
}

// units reads a DSFinV-K number ("12,34", "-0,50000") in units of 10^-5.
func units(t *testing.T, s string) int64 {
	t.Helper()
	neg := strings.HasPrefix(s, "-")
	whole, frac, _ := strings.Cut(strings.TrimPrefix(s, "-"), ",")
	for len(frac) < 5 {
		frac += "0"
	}
	v, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil || strings.Contains(s, ".") {
		t.Fatalf("not a DSFinV-K number: %q", s)
	}
	if neg {
		v = -v
	}
	return v
}

// A day with sales, an order, a discount, a storno, sales during an
// outage and a closing, exported while the TSE is down and again after
// it signed them late: every file has the standard's columns, and the
// totals of transactions_vat.csv, lines_vat.csv, the closing module and
// the closing agree to the cent.
func TestDSFinVKExportOfADay(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, staffTok := e.staff(t, "Sam Staff")
	rec := e.do(t, "PUT", "/api/fiscal/master-data", map[string]any{
		"business_name": "Gasthaus \"Zum Löwen\" GmbH", "street": "Marktplatz 1", "postcode": "79098", "city": "Freiburg",
		"tax_number": "06/123/45678", "vat_id": "DE123456789",
		"registers": []any{map[string]any{"client_serial": "KASSE-01", "type": "Tablet-Kassensystem", "brand": "Lenovo", "model": "Tab M10",
			"acquired_on": "2026-01-15"}}}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)

	_, plain := e.sell(t, sale("KASSE-01", 1000), staffTok)
	order := map[string]any{"client_serial": "KASSE-01", "kind": "order", "allocation_group": "Tisch 4",
		"line_items": []any{line("Bier 0,5 l", "2", "3.90", "NORMAL"), line("Schnitzel", "1", "12.90", "REDUCED_1")}}
	_, ord := e.sell(t, order, staffTok)
	paid := map[string]any{"client_serial": "KASSE-01", "receipt_type": "RECEIPT", "allocation_group": "Tisch 4",
		"amounts_per_vat_rate": []any{
			map[string]any{"vat_rate": "NORMAL", "amount": json.Number("7.80")},
			map[string]any{"vat_rate": "REDUCED_1", "amount": json.Number("10.90")}},
		"amounts_per_payment_type": []any{
			map[string]any{"payment_type": "CASH", "amount": json.Number("8.70")},
			map[string]any{"payment_type": "NON_CASH", "amount": json.Number("10.00")}},
		"line_items": []any{
			line("Bier 0,5 l", "2", "3.90", "NORMAL"),
			map[string]any{"text": "Schnitzel", "quantity": json.Number("1"), "unit_price": json.Number("12.90"), "vat_rate": "REDUCED_1", "item_number": "104"},
			map[string]any{"text": "Stammgast", "quantity": json.Number("1"), "unit_price": json.Number("-2.00"), "vat_rate": "REDUCED_1",
				"discount_id": "0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01"}}}
	_, receipt := e.sell(t, paid, staffTok)
	storno := sale("KASSE-01", -1000)
	storno["cancels"] = plain["id"]
	_, sto := e.sell(t, storno, staffTok)
	e.sell(t, sale("KASSE-02", 700), staffTok)

	// The TSE goes down: two sales go out without TSE data.
	e.sim.SetFault(tsesim.Fault{Offline: true})
	lateBody := sale("KASSE-01", 550)
	lateBody["amounts_per_vat_rate"] = []any{map[string]any{"vat_rate": "REDUCED_1", "amount": json.Number("5.50")}}
	status, late := e.sell(t, lateBody, staffTok)
	if status != http.StatusAccepted {
		t.Fatalf("status %d", status)
	}
	e.failUntilCircuitOpens(t)
	status, late2 := e.sell(t, sale("KASSE-01", 300), staffTok)
	if status != http.StatusAccepted {
		t.Fatalf("status %d", status)
	}

	// The registers close the day while the TSE is still down.
	code, body := e.closeRegister(t, staffTok, "KASSE-01")
	if code != http.StatusCreated {
		t.Fatalf("closing: %d %v", code, body)
	}
	closing := body["closing"].(map[string]any)
	if code, _ := e.closeRegister(t, staffTok, "KASSE-02"); code != http.StatusCreated {
		t.Fatalf("closing KASSE-02: %d", code)
	}
	// Counted: 10.00 + 18.70 - 10.00 + 5.50 + 3.00; the order is not revenue.
	if closing["total"] != 27.2 || num(closing["transactions"]) != 6 {
		t.Fatalf("closing %v", closing)
	}

	x := e.readExport(t, "from=2026-11-22&to=2026-11-22")
	checkTotals(t, x, closing)
	for _, id := range []string{late["id"].(string), late2["id"].(string)} {
		r := x.rows("transactions_tse.csv", "BON_ID", id)
		if len(r) != 1 || r[0]["TSE_TANR"] != "" || !strings.Contains(r[0]["TSE_TA_FEHLER"], "nicht signiert") ||
			!strings.Contains(r[0]["TSE_TA_FEHLER"], "TSE-Ausfall") {
			t.Fatalf("unsigned sale's TSE row %v", r)
		}
	}

	// The TSE is back and signs them late; the same closing exported again
	// shows the signatures and still the failure.
	e.sim.SetFault(tsesim.Fault{})
	e.advance(30 * time.Second)
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })
	x = e.readExport(t, "client_serial=KASSE-01&z_from=1&z_to=1")
	checkTotals(t, x, closing)
	for _, id := range []string{late["id"].(string), late2["id"].(string)} {
		got := e.tx(t, id)
		r := x.rows("transactions_tse.csv", "BON_ID", id)
		if len(r) != 1 || r[0]["TSE_TANR"] != strconv.Itoa(num(got["number"])) || r[0]["TSE_TA_SIG"] != got["signature"] ||
			!strings.Contains(r[0]["TSE_TA_FEHLER"], "nachträglich signiert") || r[0]["TSE_TA_VORGANGSART"] != "Kassenbeleg-V1" {
			t.Fatalf("late sale's TSE row %v (transaction %v)", r, got)
		}
	}
	if len(x.rows("cashpointclosing.csv")) != 1 {
		t.Fatalf("the Z_NR range selected %d closings", len(x.rows("cashpointclosing.csv")))
	}

	// The single records.
	tr := x.rows("transactions.csv", "BON_ID", ord["id"].(string))
	if len(tr) != 1 || tr[0]["BON_TYP"] != "AVBestellung" || tr[0]["BEDIENER_NAME"] != "Sam Staff" {
		t.Fatalf("order %v", tr)
	}
	if r := x.rows("transactions_tse.csv", "BON_ID", ord["id"].(string)); r[0]["TSE_TA_VORGANGSART"] != "Bestellung-V1" ||
		r[0]["TSE_VORGANGSDATEN"] != "2;\"Bier 0,5 l\";3.90\r1;\"Schnitzel\";12.90" || r[0]["TSE_TA_FEHLER"] != "" {
		t.Fatalf("order's TSE row %v", r)
	}
	if r := x.rows("transactions_tse.csv", "BON_ID", plain["id"].(string)); r[0]["TSE_VORGANGSDATEN"] != "Beleg^10.00_0.00_0.00_0.00_0.00^10.00:Bar" {
		t.Fatalf("receipt's processData %v", r)
	}
	groups := x.rows("allocation_groups.csv", "ABRECHNUNGSKREIS", "Tisch 4")
	if len(groups) != 2 {
		t.Fatalf("allocation groups %v", groups)
	}
	if s := x.rows("transactions.csv", "BON_ID", sto["id"].(string)); s[0]["BON_STORNO"] != "1" || s[0]["UMS_BRUTTO"] != "-10,00" {
		t.Fatalf("storno %v", s)
	}
	if ref := x.rows("references.csv", "BON_ID", sto["id"].(string)); len(ref) != 1 || ref[0]["REF_BON_ID"] != plain["id"] ||
		ref[0]["REF_Z_NR"] != "1" || ref[0]["REF_Z_KASSE_ID"] != "KASSE-01" || ref[0]["REF_TYP"] != "Transaktion" ||
		ref[0]["REF_DATUM"] != ref[0]["Z_ERSTELLUNG"] {
		t.Fatalf("reference %v", ref)
	}
	lines := x.rows("lines.csv", "BON_ID", receipt["id"].(string))
	if len(lines) != 3 || lines[2]["GV_TYP"] != "Rabatt" || lines[2]["STK_BR"] != "-2,00000" || lines[1]["ART_NR"] != "104" ||
		lines[0]["MENGE"] != "2,000" || lines[0]["INHAUS"] != "1" {
		t.Fatalf("lines %v", lines)
	}
	if r := x.rows("businesscases.csv", "GV_TYP", "Rabatt"); len(r) != 1 || r[0]["Z_UMS_BRUTTO"] != "-2,00000" || r[0]["UST_SCHLUESSEL"] != "2" {
		t.Fatalf("Rabatt business case %v", r)
	}
	pay := x.rows("datapayment.csv", "BON_ID", receipt["id"].(string))
	if len(pay) != 2 || pay[0]["ZAHLART_TYP"] != "Bar" || pay[0]["BASISWAEH_BETRAG"] != "8,70" || pay[1]["ZAHLART_TYP"] != "Unbar" ||
		pay[0]["ZAHLWAEH_CODE"] != "EUR" || pay[1]["ZAHLWAEH_CODE"] != "EUR" || pay[0]["ZAHLWAEH_BETRAG"] != "" {
		t.Fatalf("payments %v", pay)
	}
	// The master data.
	cp := x.rows("cashpointclosing.csv")[0]
	if cp["NAME"] != "Gasthaus \"Zum Löwen\" GmbH" || cp["STNR"] != "06/123/45678" || cp["Z_BUCHUNGSTAG"] != "2026-11-22" ||
		cp["TAXONOMIE_VERSION"] != "2.4" || cp["Z_START_ID"] != plain["id"] || cp["Z_ENDE_ID"] != late2["id"] {
		t.Fatalf("cashpointclosing %v", cp)
	}
	if kr := x.rows("cashregister.csv")[0]; kr["KASSE_BRAND"] != "Lenovo" || kr["KASSE_SERIENNR"] != "KASSE-01" || kr["KASSE_SW_BRAND"] != "posbox" {
		t.Fatalf("cashregister %v", kr)
	}
	if v := x.rows("vat.csv"); len(v) != 7 || v[0]["UST_SATZ"] != "19,00" || v[1]["UST_SATZ"] != "7,00" {
		t.Fatalf("vat %v", v)
	}
	info := decodeJSON(t, e.do(t, "GET", "/api/tse/info", nil, e.adminToken))["info"].(map[string]any)
	if ts := x.rows("tse.csv")[0]; ts["TSE_SERIAL"] != info["serial_number"] || ts["TSE_ZEITFORMAT"] != "unixTime" || ts["TSE_ZERTIFIKAT_I"] == "" {
		t.Fatalf("tse %v (info %v)", ts, info)
	}
	if !bytes.Contains(x.raw["cashpointclosing.csv"], []byte(`"Gasthaus ""Zum Löwen"" GmbH"`)) {
		t.Fatal("quotes in text are not doubled")
	}
	if !bytes.Contains(x.raw["index.xml"], []byte("<Comment>DSFinV-K 2.4, posbox ")) {
		t.Fatal("index.xml does not name DSFinV-K 2.4")
	}
}

// checkTotals: per closing and VAT key, the gross of the receipts in
// transactions_vat.csv and lines_vat.csv and the closing module's
// business cases equal the closing's amounts exactly; nets agree to the
// cent; the payments agree with the closing's.
func checkTotals(t *testing.T, x *export, closing map[string]any) {
	t.Helper()
	z := strconv.Itoa(num(closing["z_nr"]))
	kasse := closing["client_serial"].(string)
	counted := map[string]bool{}
	for _, r := range x.rows("transactions.csv", "Z_KASSE_ID", kasse, "Z_NR", z) {
		if r["BON_TYP"] == "Beleg" {
			counted[r["BON_ID"]] = true
		}
	}
	type sum struct{ gross, net int64 }
	byKey := func(file, gross, net string) map[string]sum {
		out := map[string]sum{}
		for _, r := range x.rows(file, "Z_KASSE_ID", kasse, "Z_NR", z) {
			if file != "businesscases.csv" && !counted[r["BON_ID"]] {
				continue
			}
			s := out[r["UST_SCHLUESSEL"]]
			s.gross += units(t, r[gross])
			s.net += units(t, r[net])
			out[r["UST_SCHLUESSEL"]] = s
		}
		return out
	}
	tv := byKey("transactions_vat.csv", "BON_BRUTTO", "BON_NETTO")
	lv := byKey("lines_vat.csv", "POS_BRUTTO", "POS_NETTO")
	bc := byKey("businesscases.csv", "Z_UMS_BRUTTO", "Z_UMS_NETTO")
	keyOf := map[string]string{"NORMAL": "1", "REDUCED_1": "2", "SPECIAL_RATE_1": "3", "SPECIAL_RATE_2": "4", "NULL": "5"}
	want := map[string]int64{}
	for _, v := range closing["amounts_per_vat_rate"].([]any) {
		m := v.(map[string]any)
		want[keyOf[m["vat_rate"].(string)]] = units(t, strings.ReplaceAll(strconv.FormatFloat(m["amount"].(float64), 'f', 2, 64), ".", ","))
	}
	if len(tv) != len(want) || len(lv) != len(want) || len(bc) != len(want) {
		t.Fatalf("VAT keys: transactions_vat %v, lines_vat %v, businesscases %v, closing %v", tv, lv, bc, want)
	}
	for k, g := range want {
		if tv[k].gross != g || lv[k].gross != g || bc[k].gross != g {
			t.Errorf("key %s gross: transactions_vat %d, lines_vat %d, businesscases %d, closing %d", k, tv[k].gross, lv[k].gross, bc[k].gross, g)
		}
		for name, n := range map[string]int64{"lines_vat": lv[k].net, "businesscases": bc[k].net} {
			if d := n - tv[k].net; d > 1000 || d < -1000 {
				t.Errorf("key %s net: %s %d, transactions_vat %d", k, name, n, tv[k].net)
			}
		}
	}
	cp := x.rows("cashpointclosing.csv", "Z_KASSE_ID", kasse, "Z_NR", z)
	if len(cp) != 1 {
		t.Fatalf("cashpointclosing rows %v", cp)
	}
	var paid int64
	for _, r := range x.rows("payment.csv", "Z_KASSE_ID", kasse, "Z_NR", z) {
		paid += units(t, r["Z_ZAHLART_BETRAG"])
	}
	total := units(t, strings.ReplaceAll(strconv.FormatFloat(closing["total"].(float64), 'f', 2, 64), ".", ","))
	cash := units(t, strings.ReplaceAll(strconv.FormatFloat(closing["cash"].(float64), 'f', 2, 64), ".", ","))
	if paid != total || units(t, cp[0]["Z_SE_ZAHLUNGEN"]) != total || units(t, cp[0]["Z_SE_BARZAHLUNGEN"]) != cash {
		t.Errorf("payments %d, Z_SE_ZAHLUNGEN %s, Z_SE_BARZAHLUNGEN %s; closing total %d cash %d", paid, cp[0]["Z_SE_ZAHLUNGEN"],
			cp[0]["Z_SE_BARZAHLUNGEN"], total, cash)
	}
	// cash_per_currency.csv holds each currency's cash in that currency.
	for _, v := range closing["amounts_per_payment_type"].([]any) {
		p := v.(map[string]any)
		if p["payment_type"] != "CASH" {
			continue
		}
		bar := x.rows("cash_per_currency.csv", "Z_KASSE_ID", kasse, "Z_NR", z, "ZAHLART_WAEH", p["currency_code"].(string))
		amount := units(t, strings.ReplaceAll(strconv.FormatFloat(p["amount"].(float64), 'f', 2, 64), ".", ","))
		if len(bar) != 1 || units(t, bar[0]["ZAHLART_BETRAG_WAEH"]) != amount {
			t.Errorf("cash per currency %v, closing %v", bar, p)
		}
	}
}

// A sale the TSE never finished and an admin cancelled there is in the
// closing and the export as an aborted receipt (AVBelegabbruch) with its
// TSE data, and counts in no total.
func TestDSFinVKExportCancelledAtTheTSE(t *testing.T) {
	e, rp := newRefusingEnv(t, tseEnvOpts{budget: time.Millisecond})
	id := startedThenParked(t, e)
	rp.refuse.Store(false)
	wantStatus(t, e.do(t, "POST", "/api/tse/queue/"+id+"/cancel", nil, e.adminToken), http.StatusOK)
	e.do(t, "POST", "/api/tse/transactions", sale("KASSE-01", 500), e.adminToken)
	poll.Until(t, 15*time.Second, "queue drained", func() bool { return e.queueEmpty(t) })
	if got := e.tx(t, id); got["state"] != "CANCELLED" || got["signed"] != true {
		t.Fatalf("cancelled sale %v", got)
	}
	code, body := e.closeRegister(t, e.adminToken, "KASSE-01")
	if code != http.StatusCreated {
		t.Fatalf("closing %d %v", code, body)
	}
	closing := body["closing"].(map[string]any)
	if num(closing["transactions"]) != 2 || closing["total"] != 5.0 {
		t.Fatalf("closing %v", closing)
	}
	x := e.readExport(t, "from=2026-11-22&to=2026-11-22")
	checkTotals(t, x, closing)
	tr := x.rows("transactions.csv", "BON_ID", id)
	ts := x.rows("transactions_tse.csv", "BON_ID", id)
	if len(tr) != 1 || tr[0]["BON_TYP"] != "AVBelegabbruch" || len(ts) != 1 || ts[0]["TSE_TANR"] == "" || ts[0]["TSE_TA_SIG"] == "" {
		t.Fatalf("aborted sale %v %v", tr, ts)
	}
	if r := x.rows("businesscases.csv"); len(r) != 1 || r[0]["Z_UMS_BRUTTO"] != "5,00000" {
		t.Fatalf("business cases %v", r)
	}
}

// A storno's REF_DATUM is the referenced closing's Z_ERSTELLUNG (DSFinV-K
// 2.4: "Zeitstempel des Kassenabschlusses, auf den referenziert wird"),
// not the reversed sale's time. A storno of a sale no closing covers yet
// (another register's, not yet closed) leaves REF_DATUM and REF_Z_NR
// empty; an export after that closing fills both.
func TestDSFinVKExportStornoReferencesTheClosing(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	_, own := e.sell(t, sale("KASSE-01", 1250), e.adminToken)
	_, other := e.sell(t, sale("KASSE-02", 700), e.adminToken)
	e.advance(time.Minute)
	if code, body := e.closeRegister(t, e.adminToken, "KASSE-01"); code != http.StatusCreated {
		t.Fatalf("closing: %d %v", code, body)
	}
	e.advance(time.Minute)
	_, stoOwn := e.sell(t, stornoBody("KASSE-01", "RECEIPT", 1250, own["id"]), e.adminToken)
	_, stoOther := e.sell(t, stornoBody("KASSE-01", "RECEIPT", 700, other["id"]), e.adminToken)
	e.advance(time.Minute)
	if code, body := e.closeRegister(t, e.adminToken, "KASSE-01"); code != http.StatusCreated {
		t.Fatalf("second closing: %d %v", code, body)
	}

	x := e.readExport(t, "from=2026-11-22&to=2026-11-22")
	z1 := x.rows("cashpointclosing.csv", "Z_KASSE_ID", "KASSE-01", "Z_NR", "1")
	ref := x.rows("references.csv", "BON_ID", stoOwn["id"].(string))
	if len(z1) != 1 || len(ref) != 1 || ref[0]["REF_DATUM"] != z1[0]["Z_ERSTELLUNG"] || ref[0]["REF_Z_NR"] != "1" ||
		ref[0]["REF_Z_KASSE_ID"] != "KASSE-01" || ref[0]["REF_BON_ID"] != own["id"] || ref[0]["Z_NR"] != "2" {
		t.Fatalf("reference %v (closing %v)", ref, z1)
	}
	ref = x.rows("references.csv", "BON_ID", stoOther["id"].(string))
	if len(ref) != 1 || ref[0]["REF_DATUM"] != "" || ref[0]["REF_Z_NR"] != "" || ref[0]["REF_Z_KASSE_ID"] != "KASSE-02" ||
		ref[0]["REF_BON_ID"] != other["id"] {
		t.Fatalf("reference to an unclosed sale %v", ref)
	}

	e.advance(time.Minute)
	if code, body := e.closeRegister(t, e.adminToken, "KASSE-02"); code != http.StatusCreated {
		t.Fatalf("closing KASSE-02: %d %v", code, body)
	}
	x = e.readExport(t, "from=2026-11-22&to=2026-11-22")
	z1 = x.rows("cashpointclosing.csv", "Z_KASSE_ID", "KASSE-02", "Z_NR", "1")
	ref = x.rows("references.csv", "BON_ID", stoOther["id"].(string))
	if len(z1) != 1 || len(ref) != 1 || ref[0]["REF_DATUM"] != z1[0]["Z_ERSTELLUNG"] || ref[0]["REF_Z_NR"] != "1" {
		t.Fatalf("reference once closed %v (closing %v)", ref, z1)
	}
}
