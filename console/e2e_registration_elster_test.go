package console_test

import (
	"context"
	"encoding/xml"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"posbox/tse"
	"posbox/tse/tsesim"
)

// certifiedSim is a simulator answering as fiskaly's certified cloud TSE
// does (its kind and a BSI certification id), so the console takes it
// for a TSE to register. Only tests dress it so.
type certifiedSim struct{ *tsesim.Simulator }

func (certifiedSim) Kind() string { return tse.KindFiskaly }

func (c certifiedSim) TSS(ctx context.Context) (tse.TSSInfo, error) {
	info, err := c.Simulator.TSS(ctx)
	info.BSICertificationID = "BSI-K-TR-0717-2025"
	return info, err
}

// The registration through Mein ELSTER as the owner does it: on a phone
// the page says in German what the file still lacks; once the master
// data is complete the dashboard and the page say a registration is due
// and by when, the file downloads with the register and the TSE, and
// recording the day she registered clears the notice and keeps the file.
func TestConsoleRegistrationELSTER(t *testing.T) {
	sim, err := tsesim.Open(tsesim.Config{Dir: t.TempDir(), ExportDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	a := newApplianceWith(t, certifiedSim{sim})
	admin := a.token(t, "chef@linde.test", adminPassword)
	code, body := a.call(t, "POST", "/api/tse/transactions", admin, `{"client_serial":"KASSE-01","receipt_type":"RECEIPT",
		"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":12.00}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":12.00}]}`)
	if code != http.StatusCreated {
		t.Fatalf("sale: %d %s", code, body)
	}
	todayT, _ := restaurantToday(t)
	today, todayDE := isoDate(todayT), todayT.Format("02.01.2006")
	dueDE := todayT.AddDate(0, 1, 0).Format("02.01.2006")
	if todayT.AddDate(0, 1, 0).Day() != todayT.Day() { // the 29th to 31st: the next month's last day
		dueDE = time.Date(todayT.Year(), todayT.Month()+2, 0, 0, 0, 0, 0, time.UTC).Format("02.01.2006")
	}

	b := newBrowser(t, a)
	b.do(chromedp.EmulateViewport(375, 800))
	b.open("/fiscal")
	b.login("chef@linde.test", adminPassword)
	b.wait("the ELSTER part", `document.querySelector('#download-elster') && document.querySelector('#registration-not-due')`)
	if got := b.text("#elster"); !strings.Contains(got, "Mitteilung über elektronische Aufzeichnungssysteme (§ 146a Absatz 4 AO)") ||
		!strings.Contains(got, "Mein ELSTER") {
		t.Fatalf("no explanation of where to upload: %q", got)
	}
	b.click("#download-elster")
	b.wait("the missing data", `document.querySelector('#elster-problem li')`)
	got := b.text("#elster-problem")
	for _, want := range []string{"Die ELSTER-Datei kann noch nicht erstellt werden", "Kasse KASSE-01: Marke", "Kasse KASSE-01: Modell",
		"Kasse KASSE-01: Anschaffungsdatum"} {
		if !strings.Contains(got, want) {
			t.Fatalf("missing-data message %q lacks %q", got, want)
		}
	}
	for _, bad := range []string{"registers[", "acquired_on", "required", "registration_incomplete"} {
		if strings.Contains(got, bad) {
			t.Fatalf("the message shows an internal name %q: %q", bad, got)
		}
	}
	b.screenshot("registration-elster-missing")

	// The owner completes the master data: a new register, due within a month.
	code, body = a.call(t, "PUT", "/api/fiscal/master-data", admin, `{"business_name":"Gasthaus Linde","street":"Marktplatz 1","postcode":"79098",
		"city":"Freiburg","tax_number":"06/123/45678","registers":[{"client_serial":"KASSE-01","type":"PC-Kassensystem","brand":"Lenovo",
		"model":"Tab M10","acquired_on":"`+today+`"}]}`)
	if code != http.StatusOK {
		t.Fatalf("master data: %d %s", code, body)
	}
	b.do(chromedp.EmulateViewport(1280, 900))
	b.open("/")
	b.wait("the dashboard's notice", `document.querySelector('#dash-registration-due')`)
	if got := b.text("#dash-registration-due"); !strings.Contains(got, "Meldung ans Finanzamt fällig bis "+dueDE) ||
		!strings.Contains(got, "Kasse KASSE-01 am "+todayDE+" in Betrieb genommen") {
		t.Fatalf("dashboard notice %q", got)
	}
	b.clickText("#dash-registration-due button", "Zur Meldung")
	b.wait("the fiscal page's notice", `location.pathname === '/fiscal' && document.querySelector('#registration-due')`)
	if got := b.text("#registration-due"); !strings.Contains(got, "fällig bis "+dueDE) {
		t.Fatalf("page notice %q", got)
	}
	b.screenshot("registration-elster-due")

	b.click("#download-elster")
	name, data := b.waitDownload(".xml")
	var f struct {
		XMLName xml.Name                                                                                     `xml:"http://finkonsens.de/elster/elsternachricht/aufzeichnung146a/v1 Aufzeichnung146a"`
		Systems []struct{ SeriennummerAS, Hersteller, BSIID, ArtTSE, AnschaffungAS, SeriennummerTSE string } `xml:"Aufzeichnung146a>AngabenAufzeichnungssystem"`
	}
	if err := xml.Unmarshal(data, &f); err != nil || name != "aufzeichnung146a_"+today+".xml" || len(f.Systems) != 1 {
		t.Fatalf("download %s: %v\n%s", name, err, data)
	}
	if s := f.Systems[0]; s.SeriennummerAS != "KASSE-01" || s.Hersteller != "Lenovo" || s.BSIID != "0717-2025" || s.ArtTSE != "3" ||
		s.AnschaffungAS != todayDE || len(s.SeriennummerTSE) != 64 {
		t.Fatalf("file %+v", s)
	}
	if b.text("#elster-problem") != "" {
		t.Fatalf("a problem shown with a complete file: %q", b.text("#elster-problem"))
	}

	// Registered today: the notice goes, the file is kept.
	b.click("#elster-submitted button[type=submit]")
	b.wait("the notice cleared", `document.querySelector('#registration-not-due') && document.querySelector('#elster-history li')`)
	if got := b.text("#elster-history"); !strings.Contains(got, "Gemeldet am "+todayDE) {
		t.Fatalf("history %q", got)
	}
	code, body = a.call(t, "GET", "/api/fiscal/registration/submissions", admin, "")
	if code != http.StatusOK || strings.Count(body, `"submitted_on":"`+today+`"`) != 1 {
		t.Fatalf("submissions %d %s", code, body)
	}
	b.screenshot("registration-elster-submitted")
	b.open("/")
	b.wait("the dashboard", `document.querySelector('#clocked-in')`)
	if b.text("#dash-registration-due") != "" {
		t.Fatal("the dashboard still says a registration is due")
	}
}
