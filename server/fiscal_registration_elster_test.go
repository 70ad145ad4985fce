package server

import (
	"context"
	"encoding/xml"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"posbox/tse"
	"posbox/tse/tsesim"
)

// certifiedSim is the simulator as a certified fiskaly TSS would answer:
// its kind fiskaly and a BSI certification id (fiskaly's cloud TSE,
// docs/TSE.md). Only tests dress it so.
type certifiedSim struct{ tse.Provider }

func (certifiedSim) Kind() string { return tse.KindFiskaly }

func (c certifiedSim) TSS(ctx context.Context) (tse.TSSInfo, error) {
	info, err := c.Provider.TSS(ctx)
	info.BSICertificationID = "BSI-K-TR-0717-2025"
	return info, err
}

func newCertifiedEnv(tb testing.TB) *tseEnv {
	return newTSEEnv(tb, tseEnvOpts{provider: func(s *tsesim.Simulator) tse.Provider { return certifiedSim{s} }})
}

var completeMaster = map[string]any{"business_name": "Zum Löwen GmbH", "street": "Marktplatz 1", "postcode": "79098", "city": "Freiburg",
	"tax_number": "06/123/45678", "registers": []any{map[string]any{"client_serial": "KASSE-01", "type": "PC-Kassensystem",
		"brand": "Lenovo", "model": "Tab M10", "acquired_on": "2026-11-01"}}}

// problemFields is a problem's errors as field:code.
func problemFields(t *testing.T, body map[string]any) []string {
	t.Helper()
	var out []string
	for _, f := range body["errors"].([]any) {
		m := f.(map[string]any)
		out = append(out, m["field"].(string)+":"+m["code"].(string))
	}
	return out
}

// The ELSTER file of a complete registration: a download, in the
// namespace, with the TSS's serial, the BSI id without prefix, a cloud
// TSE and German dates.
func TestRegistrationELSTERFile(t *testing.T) {
	e := newCertifiedEnv(t)
	e.sell(t, sale("KASSE-01", 100), e.adminToken)
	wantStatus(t, e.do(t, "PUT", "/api/fiscal/master-data", completeMaster, e.adminToken), http.StatusOK)
	rec := e.do(t, "GET", "/api/fiscal/registration/elster.xml", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	if ct, cd := rec.Header().Get("Content-Type"), rec.Header().Get("Content-Disposition"); ct != "application/xml; charset=utf-8" ||
		cd != `attachment; filename="aufzeichnung146a_2026-11-22.xml"` {
		t.Fatalf("headers %q %q", ct, cd)
	}
	var f struct {
		XMLName xml.Name `xml:"http://finkonsens.de/elster/elsternachricht/aufzeichnung146a/v1 Aufzeichnung146a"`
		Version string   `xml:"version,attr"`
		Systems []struct {
			SeriennummerAS, SeriennummerTSE, BSIID, ArtTSE, InbetriebnahmeTSE, AnschaffungAS, InbetriebnahmeAS, Software string
		} `xml:"Aufzeichnung146a>AngabenAufzeichnungssystem"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &f); err != nil {
		t.Fatalf("%v\n%s", err, rec.Body.String())
	}
	info := decodeJSON(t, e.do(t, "GET", "/api/tse/info", nil, e.adminToken))["info"].(map[string]any)
	if f.Version != "1" || len(f.Systems) != 1 {
		t.Fatalf("file %+v", f)
	}
	s := f.Systems[0]
	if s.SeriennummerAS != "KASSE-01" || s.SeriennummerTSE != info["serial_number"] || len(s.SeriennummerTSE) != 64 || s.BSIID != "0717-2025" ||
		s.ArtTSE != "3" || s.InbetriebnahmeTSE != "22.11.2026" || s.AnschaffungAS != "01.11.2026" || s.InbetriebnahmeAS != "22.11.2026" ||
		s.Software != "posbox" {
		t.Fatalf("register %+v", s)
	}
}

// What ELSTER needs and the master data lacks is refused, each item
// named, and nothing is kept as submitted.
func TestRegistrationELSTERRefusesMissingData(t *testing.T) {
	e := newCertifiedEnv(t)
	e.sell(t, sale("KASSE-02", 100), e.adminToken)
	rec := e.do(t, "GET", "/api/fiscal/registration/elster.xml", nil, e.adminToken)
	wantStatus(t, rec, http.StatusConflict)
	body := decodeJSON(t, rec)
	got := problemFields(t, body)
	want := []string{"registers[KASSE-02].brand:required", "registers[KASSE-02].model:required", "registers[KASSE-02].acquired_on:required"}
	if body["code"] != "registration_incomplete" || !slices.Equal(got, want) {
		t.Fatalf("problem %v, fields %v", body, got)
	}
	rec = e.do(t, "POST", "/api/fiscal/registration/submitted", map[string]any{"submitted_on": "2026-11-22"}, e.adminToken)
	wantStatus(t, rec, http.StatusConflict)
	list := decodeJSON(t, e.do(t, "GET", "/api/fiscal/registration/submissions", nil, e.adminToken))["submissions"].([]any)
	if len(list) != 0 {
		t.Fatalf("a refused submission was kept: %v", list)
	}
}

// The simulator is never written as a TSE: the file is refused however
// complete the master data.
func TestRegistrationELSTERRefusesTheSimulator(t *testing.T) {
	e := newTSEEnv(t, tseEnvOpts{})
	e.sell(t, sale("KASSE-01", 100), e.adminToken)
	wantStatus(t, e.do(t, "PUT", "/api/fiscal/master-data", completeMaster, e.adminToken), http.StatusOK)
	rec := e.do(t, "GET", "/api/fiscal/registration/elster.xml", nil, e.adminToken)
	wantStatus(t, rec, http.StatusConflict)
	if got := problemFields(t, decodeJSON(t, rec)); !slices.Equal(got, []string{"tse:not_certified"}) {
		t.Fatalf("fields %v", got)
	}
}

// A new register is due once however many admins save it at once; the
// owner marks the registration submitted and it is no longer due; the
// file is kept as it was, and an unrelated edit makes nothing due.
func TestRegistrationDueUntilSubmitted(t *testing.T) {
	e := newCertifiedEnv(t)
	e.sell(t, sale("KASSE-01", 100), e.adminToken)
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if rec := e.do(t, "PUT", "/api/fiscal/master-data", completeMaster, e.adminToken); rec.Code != http.StatusOK {
				t.Errorf("PUT %d %s", rec.Code, rec.Body.String())
			}
		}()
	}
	wg.Wait()
	due := decodeJSON(t, e.do(t, "GET", "/api/fiscal/registration/due", nil, e.adminToken))["due"].(map[string]any)
	changes := due["changes"].([]any)
	if due["due_by"] != "2026-12-01" || len(changes) != 1 || changes[0].(map[string]any)["change"] != "register_in_service" {
		t.Fatalf("due %v", due)
	}
	file := e.do(t, "GET", "/api/fiscal/registration/elster.xml", nil, e.adminToken).Body.String()
	rec := e.do(t, "POST", "/api/fiscal/registration/submitted", map[string]any{"submitted_on": "2026-11-23"}, e.adminToken)
	wantStatus(t, rec, http.StatusUnprocessableEntity) // tomorrow
	rec = e.do(t, "POST", "/api/fiscal/registration/submitted", map[string]any{"submitted_on": "2026-11-22"}, e.adminToken)
	wantStatus(t, rec, http.StatusCreated)
	sub := decodeJSON(t, rec)["submission"].(map[string]any)
	if sub["submitted_on"] != "2026-11-22" || len(sub["changes"].([]any)) != 1 || len(sub["sha256"].(string)) != 64 {
		t.Fatalf("submission %v", sub)
	}
	due = decodeJSON(t, e.do(t, "GET", "/api/fiscal/registration/due", nil, e.adminToken))["due"].(map[string]any)
	if due["due_by"] != nil || len(due["changes"].([]any)) != 0 {
		t.Fatalf("still due %v", due)
	}
	// An unrelated edit: the brand.
	edited := strings.Replace(`Lenovo`, "Lenovo", "Sunmi", 1)
	m := map[string]any{}
	for k, v := range completeMaster {
		m[k] = v
	}
	m["registers"] = []any{map[string]any{"client_serial": "KASSE-01", "type": "PC-Kassensystem", "brand": edited, "model": "Tab M10",
		"acquired_on": "2026-11-01"}}
	wantStatus(t, e.do(t, "PUT", "/api/fiscal/master-data", m, e.adminToken), http.StatusOK)
	due = decodeJSON(t, e.do(t, "GET", "/api/fiscal/registration/due", nil, e.adminToken))["due"].(map[string]any)
	if due["due_by"] != nil {
		t.Fatalf("an unrelated edit made a registration due: %v", due)
	}
	kept := e.do(t, "GET", "/api/fiscal/registration/submissions/"+sub["id"].(string)+"/elster.xml", nil, e.adminToken)
	wantStatus(t, kept, http.StatusOK)
	if kept.Body.String() != file || strings.Contains(kept.Body.String(), "Sunmi") {
		t.Fatalf("the kept file is not the one submitted:\n%s\nwant\n%s", kept.Body.String(), file)
	}
	wantStatus(t, e.do(t, "GET", "/api/fiscal/registration/submissions/nope/elster.xml", nil, e.adminToken), http.StatusNotFound)
	_, staffTok := e.staff(t, "Sam Staff")
	wantStatus(t, e.do(t, "POST", "/api/fiscal/registration/submitted", map[string]any{"submitted_on": "2026-11-22"}, staffTok),
		http.StatusForbidden)
}
