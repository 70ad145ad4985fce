package server

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The procedure document over HTTP: made from the box (the TSE's serial,
// the registers), printed in German with the simulator called one, the
// owner's text saved as a new version with the old one kept, every
// version readable and printable as it was; a bad text changes nothing.
func TestProcedureDocument(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	e.sell(t, sale("KASSE-01", 100), e.adminToken)
	wantStatus(t, e.do(t, "PUT", "/api/fiscal/master-data", map[string]any{"business_name": "Zum Löwen GmbH",
		"registers": []any{map[string]any{"client_serial": "KASSE-07", "brand": "Acme", "acquired_on": "2025-03-01"}}}, e.adminToken), http.StatusOK)

	rec := e.do(t, "GET", "/api/fiscal/procedure-document", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	doc := decodeJSON(t, rec)["procedure_document"].(map[string]any)
	if doc["version"] != float64(1) {
		t.Fatalf("first version %v", doc["version"])
	}
	info := decodeJSON(t, e.do(t, "GET", "/api/tse/info", nil, e.adminToken))["info"].(map[string]any)
	serial := info["serial_number"].(string)
	// The same box asked again is the same version.
	if again := decodeJSON(t, e.do(t, "GET", "/api/fiscal/procedure-document", nil, e.adminToken))["procedure_document"].(map[string]any); again["version"] != float64(1) || again["sha256"] != doc["sha256"] {
		t.Fatalf("asked again: %v", again)
	}

	rec = e.do(t, "GET", "/api/fiscal/procedure-document/print", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	page := rec.Body.String()
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Fatalf("CSP %q", csp)
	}
	for _, want := range []string{"Verfahrensdokumentation", "Fassung <strong id=\"procdoc-version\">1</strong>", serial, "KASSE-01", "KASSE-07",
		"Zum Löwen GmbH", "01.03.2025", "Keine zertifizierte TSE", "Simulator (keine TSE)", "Ada Admin", "Vom Unternehmer auszufüllen"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, bad := range []string{"<script", "<style", "style="} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	text := regexp.MustCompile(`(?s)<[^>]*>`).ReplaceAllString(page, " ")
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`\b[a-z]+_[a-z_]+\b`),                                           // snake_case keys
		regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`), // ids
		regexp.MustCompile(`\d{4}-\d{2}-\d{2}`),                                            // ISO dates
		regexp.MustCompile(`\bsimulator\b|\badmin\b|\bstaff\b`),
	} {
		if m := bad.FindString(text); m != "" {
			t.Errorf("the page's text shows %q", m)
		}
	}

	// The owner's text: a new version of the text and of the document.
	e.clock.Add(time.Hour)
	rec = e.do(t, "PUT", "/api/fiscal/procedure-document/owner-text", map[string]any{"cash_counting": "Jeden Abend zählt die Schichtleitung <b>zwei Mal</b>.",
		"organisation": "Inhaberin: Ada"}, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	put := decodeJSON(t, rec)
	if ot := put["owner_text"].(map[string]any); ot["version"] != float64(1) || ot["saved_by_name"] != "Ada Admin" {
		t.Fatalf("saved %v", ot)
	}
	if pd := put["procedure_document"].(map[string]any); pd["version"] != float64(2) {
		t.Fatalf("document after the save %v", pd)
	}
	wantStatus(t, e.do(t, "PUT", "/api/fiscal/procedure-document/owner-text", map[string]any{"cash_counting": "Zweimal täglich."}, e.adminToken), http.StatusOK)
	rec = e.do(t, "PUT", "/api/fiscal/procedure-document/owner-text", map[string]any{"internal_control": strings.Repeat("x", 20001)}, e.adminToken)
	wantStatus(t, rec, http.StatusUnprocessableEntity)
	if f := decodeJSON(t, rec)["errors"].([]any)[0].(map[string]any); f["field"] != "internal_control" || f["code"] != "too_long" {
		t.Fatalf("error %v", f)
	}
	texts := decodeJSON(t, e.do(t, "GET", "/api/fiscal/procedure-document/owner-texts", nil, e.adminToken))["owner_texts"].([]any)
	if len(texts) != 2 || texts[0].(map[string]any)["cash_counting"] != "Zweimal täglich." ||
		texts[1].(map[string]any)["organisation"] != "Inhaberin: Ada" {
		t.Fatalf("owner texts %v", texts)
	}

	versions := decodeJSON(t, e.do(t, "GET", "/api/fiscal/procedure-document/versions", nil, e.adminToken))["versions"].([]any)
	if len(versions) != 3 || versions[0].(map[string]any)["version"] != float64(3) {
		t.Fatalf("versions %v", versions)
	}
	// Version 1 is what it was: no owner's text, blanks to fill in.
	rec = e.do(t, "GET", "/api/fiscal/procedure-document/versions/1", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if v1 := decodeJSON(t, rec)["procedure_document"].(map[string]any); v1["sha256"] != doc["sha256"] ||
		v1["content"].(map[string]any)["owner_text"].(map[string]any)["cash_counting"] != "" {
		t.Fatalf("version 1 %v", v1)
	}
	old := e.do(t, "GET", "/api/fiscal/procedure-document/versions/2/print", nil, e.adminToken).Body.String()
	for _, want := range []string{"Fassung <strong id=\"procdoc-version\">2</strong>", "Jeden Abend zählt die Schichtleitung &lt;b&gt;zwei Mal&lt;/b&gt;.",
		"Inhaberin: Ada"} {
		if !strings.Contains(old, want) {
			t.Errorf("version 2's page lacks %q", want)
		}
	}
	if strings.Contains(old, "Zweimal täglich") {
		t.Error("version 2's page shows a later text")
	}
	wantProblem(t, e.do(t, "GET", "/api/fiscal/procedure-document/versions/4", nil, e.adminToken), http.StatusNotFound, "not_found")
}
