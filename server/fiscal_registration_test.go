package server

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The master data is saved whole, read back, and bad values are refused
// with every field named and nothing saved.
func TestFiscalMasterData(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	rec := e.do(t, "GET", "/api/fiscal/master-data", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	m := decodeJSON(t, rec)["master_data"].(map[string]any)
	if m["country"] != "DEU" || m["updated_at"] != nil || len(m["registers"].([]any)) != 0 {
		t.Fatalf("defaults %v", m)
	}
	body := map[string]any{"business_name": "Zum Löwen GmbH", "street": "Marktplatz 1", "postcode": "79098", "city": "Freiburg",
		"tax_number": "06/123/45678", "tse_in_service_on": "2026-01-02",
		"registers": []any{map[string]any{"client_serial": "KASSE-01", "brand": "Lenovo", "model": "Tab M10", "acquired_on": "2026-01-01"}}}
	rec = e.do(t, "PUT", "/api/fiscal/master-data", body, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	rec = e.do(t, "GET", "/api/fiscal/master-data", nil, e.adminToken)
	m = decodeJSON(t, rec)["master_data"].(map[string]any)
	regs := m["registers"].([]any)
	if m["business_name"] != "Zum Löwen GmbH" || m["tse_in_service_on"] != "2026-01-02" || m["updated_at"] == nil || len(regs) != 1 ||
		regs[0].(map[string]any)["brand"] != "Lenovo" || regs[0].(map[string]any)["decommissioned_on"] != nil {
		t.Fatalf("saved %v", m)
	}

	bad := map[string]any{"business_name": strings.Repeat("x", 61), "country": "DE", "tse_in_service_on": "2026-02-01",
		"tse_out_of_service_on": "2026-01-01",
		"registers": []any{map[string]any{"client_serial": "KASSE-01", "acquired_on": "2026-03-01", "decommissioned_on": "2026-02-01"},
			map[string]any{"client_serial": "KASSE-01"}, map[string]any{"client_serial": "KASSE-02", "acquired_on": "1.1.2026"}}}
	rec = e.do(t, "PUT", "/api/fiscal/master-data", bad, e.adminToken)
	wantStatus(t, rec, http.StatusUnprocessableEntity)
	var fields []string
	for _, f := range decodeJSON(t, rec)["errors"].([]any) {
		fields = append(fields, f.(map[string]any)["field"].(string))
	}
	for _, want := range []string{"business_name", "country", "tse_out_of_service_on", "registers[0].decommissioned_on",
		"registers[1].client_serial", "registers[2].acquired_on"} {
		if !slices.Contains(fields, want) {
			t.Errorf("no error on %s: %v", want, fields)
		}
	}
	rec = e.do(t, "GET", "/api/fiscal/master-data", nil, e.adminToken)
	if m := decodeJSON(t, rec)["master_data"].(map[string]any); m["business_name"] != "Zum Löwen GmbH" {
		t.Fatalf("a refused PUT changed %v", m)
	}
	_, staffTok := e.staff(t, "Sam Staff")
	wantStatus(t, e.do(t, "PUT", "/api/fiscal/master-data", body, staffTok), http.StatusForbidden)
}

// The registration report lists the registers that sold and the TSE with
// their dates, says what is missing, and prints as a page without script
// or inline style under the console's CSP, every value escaped.
func TestFiscalRegistration(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	e.sell(t, sale("KASSE-01", 100), e.adminToken)
	e.sell(t, sale("KASSE-02", 100), e.adminToken)
	rec := e.do(t, "PUT", "/api/fiscal/master-data", map[string]any{"business_name": "<b>Zum Löwen</b>", "street": "Marktplatz 1",
		"postcode": "79098", "city": "Freiburg", "tax_number": "06/123/45678",
		"registers": []any{
			map[string]any{"client_serial": "KASSE-01", "type": "Tablet-Kassensystem", "brand": "Lenovo", "model": "Tab M10", "acquired_on": "2026-01-15"},
			map[string]any{"client_serial": "KASSE-09", "type": "PC-Kassensystem", "brand": "Acme", "model": "P1", "acquired_on": "2025-03-01",
				"decommissioned_on": "2026-06-30"}}}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)

	rec = e.do(t, "GET", "/api/fiscal/registration", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	rep := decodeJSON(t, rec)["registration"].(map[string]any)
	regs := rep["cash_registers"].([]any)
	if len(regs) != 3 {
		t.Fatalf("registers %v", regs)
	}
	k1, k2, k9 := regs[0].(map[string]any), regs[1].(map[string]any), regs[2].(map[string]any)
	if k1["client_serial"] != "KASSE-01" || k1["brand"] != "Lenovo" || k1["in_service_on"] != "2026-11-22" || k1["software"] != "posbox" ||
		k2["client_serial"] != "KASSE-02" || k2["acquired_on"] != nil || k9["decommissioned_on"] != "2026-06-30" || k9["first_sale_on"] != nil {
		t.Fatalf("registers %v", regs)
	}
	tses := rep["tses"].([]any)
	info := decodeJSON(t, e.do(t, "GET", "/api/tse/info", nil, e.adminToken))["info"].(map[string]any)
	if len(tses) != 1 || tses[0].(map[string]any)["serial_number"] != info["serial_number"] ||
		tses[0].(map[string]any)["in_service_on"] != "2026-11-22" || tses[0].(map[string]any)["provider"] != "simulator" {
		t.Fatalf("tses %v", tses)
	}
	missing := rep["missing"].([]any)
	if !slices.ContainsFunc(missing, func(v any) bool { return strings.HasPrefix(v.(string), "registers[KASSE-02]") }) ||
		slices.ContainsFunc(missing, func(v any) bool { return strings.HasPrefix(v.(string), "registers[KASSE-01]") }) {
		t.Fatalf("missing %v", missing)
	}

	rec = e.do(t, "GET", "/api/fiscal/registration/print", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	page := rec.Body.String()
	if ct := rec.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Fatalf("content type %q", ct)
	}
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "style-src 'self'") {
		t.Fatalf("CSP %q", csp)
	}
	for _, bad := range []string{"<script", "<style", "style=", "http://", "https://", "<b>Zum"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	// Its one style sheet is the console's own (style-src 'self').
	if links := regexp.MustCompile(`<link[^>]*>`).FindAllString(page, -1); len(links) != 1 || links[0] != `<link rel="stylesheet" href="/assets/print.css">` {
		t.Errorf("links %v", links)
	}
	for _, want := range []string{"&lt;b&gt;Zum Löwen&lt;/b&gt;", "KASSE-09", "30.06.2026", info["serial_number"].(string), "Tablet-Kassensystem"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// The export's query is checked: a date range or a register's Z_NR
// range, never neither, never backwards.
func TestDSFinVKExportQueryValidation(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	for q, field := range map[string]string{
		"":                                       "from",
		"from=2026-11-22":                        "from",
		"from=2026-11-23&to=2026-11-22":          "from",
		"from=22.11.2026&to=2026-11-22":          "from",
		"z_from=1&z_to=2":                        "client_serial",
		"client_serial=KASSE-01&z_from=1":        "z_from",
		"client_serial=KASSE-01&z_from=0&z_to=1": "z_from",
		"client_serial=KASSE-01&z_from=3&z_to=2": "z_from",
	} {
		rec := e.do(t, "GET", "/api/fiscal/dsfinvk?"+q, nil, e.adminToken)
		wantStatus(t, rec, http.StatusUnprocessableEntity)
		p := decodeJSON(t, rec)
		if errs := p["errors"].([]any); errs[0].(map[string]any)["field"] != field {
			t.Errorf("%q: %v", q, p)
		}
	}
	// An empty range is a valid export with header rows only.
	x := e.readExport(t, "from=2026-01-01&to=2026-01-31")
	if len(x.rows("transactions.csv")) != 0 || len(x.rows("cashpointclosing.csv")) != 0 {
		t.Fatal("rows in an empty export")
	}
}

// The print page is for the owner and the tax office: German dates and
// the restaurant's local time, every gap in words, the simulator named as
// what it is, and no internal key or id anywhere in its text.
func TestFiscalRegistrationPrintInGerman(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	e.sell(t, sale("KASSE-01", 100), e.adminToken)
	wantStatus(t, e.do(t, "PUT", "/api/fiscal/master-data", map[string]any{"business_name": "Zum Löwen GmbH",
		"registers": []any{map[string]any{"client_serial": "KASSE-02", "brand": "Acme", "acquired_on": "2025-03-01"}}}, e.adminToken), http.StatusOK)
	rec := e.do(t, "GET", "/api/fiscal/registration/print", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	page := rec.Body.String()
	// The test clock is 2026-11-22 09:00 UTC: 10:00 in Berlin.
	now := e.clock.Now().In(e.restaurant.Location())
	for _, want := range []string{"Erstellt am " + now.Format("02.01.2006, 15:04") + " Uhr", "01.03.2025", now.Format("02.01.2006"),
		"Anschrift (Straße, PLZ, Ort)", "Kasse KASSE-02: Art, Marke und Modell", "Kasse KASSE-01: Anschaffungsdatum",
		"Keine zertifizierte TSE", "posbox tse setup", "Simulator (keine zertifizierte TSE)", "Deutschland"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	text := regexp.MustCompile(`(?s)<[^>]*>`).ReplaceAllString(page, " ")
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`\b[a-z]+_[a-z_]+\b`),                                           // snake_case keys
		regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`), // ids
		regexp.MustCompile(`\d{4}-\d{2}-\d{2}`),                                            // ISO dates
		regexp.MustCompile(`\[|\]`),                                                        // registers[...]
		regexp.MustCompile(`\bsimulator\b|\bmissing\b`),
	} {
		if m := bad.FindString(text); m != "" {
			t.Errorf("the page's text shows %q", m)
		}
	}
}
