package console_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"posbox/internal/poll"
	"posbox/tse/tsesim"
	"posbox/tse/tsetar"
)

// waitDownload waits for one finished file ending in ext in the browser's
// download folder and returns its name and content.
func (b *browser) waitDownload(ext string) (string, []byte) {
	b.tb.Helper()
	var name string
	var data []byte
	if !poll.Wait(15*time.Second, func() bool {
		files, _ := filepath.Glob(filepath.Join(b.download, "*"+ext))
		if len(files) > 1 {
			b.tb.Fatalf("more than one %s download: %v", ext, files)
		}
		if len(files) == 1 {
			var err error
			data, err = os.ReadFile(files[0])
			name = filepath.Base(files[0])
			return err == nil && len(data) > 0
		}
		return false
	}) {
		entries, _ := os.ReadDir(b.download)
		b.tb.Fatalf("no %s downloaded; folder holds %v; page: %s", ext, entries, b.text("main"))
	}
	return name, data
}

// waitLong is wait with a longer limit, for work the appliance does in
// the background (an export of dates is polled every 5 s).
func (b *browser) waitLong(what, cond string, limit time.Duration) {
	b.tb.Helper()
	if !poll.Wait(limit, func() bool {
		return eval[bool](b, "(() => { try { return !!("+cond+"); } catch { return false; } })()")
	}) {
		b.tb.Fatalf("waiting for %s: %s is still false; page: %s", what, cond, b.text("main"))
	}
}

// newWindowText waits for a window the page opened at a blob: URL of the
// console and returns its text; styled says whether its style sheet
// applies (the console's print.css gives the body a width).
func (b *browser) newWindowText() (text string, styled bool) {
	b.tb.Helper()
	var targets []*target.Info
	if !poll.Wait(10*time.Second, func() bool {
		var err error
		targets, err = chromedp.Targets(b.ctx)
		if err != nil {
			b.tb.Fatal(err)
		}
		for _, tg := range targets {
			if tg.Type != "page" || !strings.HasPrefix(tg.URL, "blob:"+b.a.url+"/") {
				continue
			}
			ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(tg.TargetID))
			tctx, tcancel := context.WithTimeout(ctx, 10*time.Second)
			got, err := chromedp.Run(tctx, chromedp.Evaluate[[]string](`document.body && document.readyState === 'complete'
				? [document.body.innerText, String(getComputedStyle(document.body).maxWidth !== 'none')] : ["", "false"]`))
			tcancel()
			cancel() // detaches; the window stays
			if err != nil {
				b.tb.Fatal(err)
			}
			if got[0] != "" {
				text, styled = got[0], got[1] == "true"
				return true
			}
		}
		return false
	}) {
		b.tb.Fatalf("no window with the report; targets: %v", targets)
	}
	return text, styled
}

// The fiscal records page, as an owner uses it at a cash audit: a
// closing taken (and refused when there is nothing to close), the
// DSFinV-K ZIP, an export of today's dates archived and downloaded as a
// TAR that verifies, the master data saved (and refused beside the
// field), the printable registration report, and the page on a phone.
func TestConsoleFiscal(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	for _, amount := range []string{"21.42", "8.50", "12.00"} {
		code, body := a.call(t, "POST", "/api/tse/transactions", admin, `{"client_serial":"KASSE-01","receipt_type":"RECEIPT",
			"amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":`+amount+`}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":`+amount+`}]}`)
		if code != http.StatusCreated {
			t.Fatalf("sale: %d %s", code, body)
		}
	}
	todayT, _ := restaurantToday(t)
	today := isoDate(todayT)

	b := newBrowser(t, a)
	b.open("/fiscal")
	b.login("chef@linde.test", adminPassword)
	b.wait("the fiscal page", `location.pathname === '/fiscal' && document.querySelector('#archive-oldest') &&
		document.querySelector('#closing-list .empty') && document.querySelector('#registration-missing li')`)
	if got := b.text("nav a[aria-current=page]"); got != "Steuerdaten" {
		t.Fatalf("menu entry %q", got)
	}
	// Nothing is archived yet: the oldest sale waits, zero days old, no warning.
	if got := b.text("#archive-oldest"); !strings.Contains(got, "0 Tage alt") {
		t.Fatalf("oldest un-archived %q", got)
	}
	if got := b.text("#archive-last-file"); got != "noch keine" {
		t.Fatalf("last archived file before any %q", got)
	}
	// The closing's register is chosen from those that sold, not typed.
	if got := eval[[]string](b, `[...document.querySelectorAll('#take-closing select[name=client_serial] option')].map((o) => o.value + ' ' + o.textContent)`); len(got) != 1 ||
		!strings.HasPrefix(got[0], "KASSE-01 KASSE-01 (letzter Verkauf ") {
		t.Fatalf("register choice %v", got)
	}
	if b.text("#archive-warning") != "" {
		t.Fatal("a warning on a fresh archive")
	}
	// The registration says what the owner still has to fill in.
	if got := b.text("#registration-missing"); !strings.Contains(got, "Name des Unternehmens") || !strings.Contains(got, "Kasse KASSE-01: Anschaffungsdatum") {
		t.Fatalf("missing %q", got)
	}

	// Today's closing of KASSE-01, taken through the page.
	b.fill(`#take-closing [name=client_serial]`, "KASSE-01")
	b.click(`#take-closing button[type=submit]`)
	b.wait("the confirmation", `document.querySelector('dialog.confirm[open]')`)
	b.click(`dialog.confirm button[value=ok]`)
	b.wait("the closing in the list", `document.querySelector('#closing-list tbody tr[data-register="KASSE-01"][data-z="1"]')`)
	row := b.text(`#closing-list tbody tr[data-register="KASSE-01"]`)
	for _, want := range []string{"41,92\u00a0€", "19 %: 41,92\u00a0€"} {
		if !strings.Contains(row, want) {
			t.Fatalf("closing row %q lacks %q", row, want)
		}
	}
	code, body := a.call(t, "GET", "/api/tse/closings", admin, "")
	if code != http.StatusOK || strings.Count(body, `"z_nr":`) != 1 || !strings.Contains(body, `"total":41.92`) {
		t.Fatalf("closings after the page's: %d %s", code, body)
	}
	// Nothing left to close: the API's 409 is said beside the form.
	b.fill(`#take-closing [name=client_serial]`, "KASSE-01")
	b.click(`#take-closing button[type=submit]`)
	b.wait("the confirmation", `document.querySelector('dialog.confirm[open]')`)
	b.click(`dialog.confirm button[value=ok]`)
	b.wait("the closing_empty message", `document.querySelector('#take-closing .form-error').innerText.includes('Für KASSE-01 gibt es nichts abzuschließen')`)
	if code, body := a.call(t, "POST", "/api/tse/closings", admin, `{"client_serial":"KASSE-01"}`); code != http.StatusConflict || !strings.Contains(body, `"code":"closing_empty"`) {
		t.Fatalf("the API's answer to a second closing: %d %s", code, body)
	}
	if n := eval[int](b, `document.querySelectorAll('#closing-list tbody tr').length`); n != 1 {
		t.Fatalf("%d closings listed after the refused one", n)
	}

	// DSFinV-K: a range that runs backwards is refused beside its field,
	// then this month's ZIP is downloaded and holds the closing's files.
	b.fill(`#dsfinvk-form [name=from]`, isoDate(todayT.AddDate(0, 0, 1)))
	b.click(`#dsfinvk-form button[type=submit]`)
	b.wait("the range's error", `document.querySelector('#dsfinvk-form [data-field=from] .error').innerText !== '' &&
		document.querySelector('#dsfinvk-form [name=from]').getAttribute('aria-invalid') === 'true'`)
	b.fill(`#dsfinvk-form [name=from]`, today[:8]+"01")
	b.click(`#dsfinvk-form button[type=submit]`)
	name, data := b.waitDownload(".zip")
	if want := "dsfinvk_" + today[:8] + "01_" + today + ".zip"; name != want {
		t.Fatalf("ZIP %s, want %s", name, want)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("the downloaded ZIP: %v", err)
	}
	var names []string
	transactions := ""
	for _, f := range zr.File {
		names = append(names, f.Name)
		if f.Name == "transactions.csv" {
			rc, _ := f.Open()
			var buf bytes.Buffer
			_, _ = buf.ReadFrom(rc)
			rc.Close()
			transactions = buf.String()
		}
	}
	if !slices.Contains(names, "index.xml") || !slices.Contains(names, "transactions.csv") {
		t.Fatalf("ZIP holds %v", names)
	}
	if lines := strings.Count(strings.TrimSpace(transactions), "\n"); lines != 3 {
		t.Fatalf("transactions.csv has %d rows after its header: %q", lines, transactions)
	}

	// The TSE archive: today's dates exported now; the new row is followed
	// until it is archived, then its TAR is downloaded and verified.
	b.fill(`#archive-export [name=from]`, today)
	b.click(`#archive-export button[type=submit]`)
	b.wait("the new export in the list", `document.querySelector('#archive-list tbody tr[data-state]')`)
	b.waitLong("the export archived", `document.querySelector('#archive-list tbody tr[data-state=archived] button.download')`, 40*time.Second)
	var archives struct {
		Archives []struct {
			Kind, State, Verification, SHA256 string
			FileName                          string `json:"file_name"`
			First                             uint64 `json:"first_signature_counter"`
			Last                              uint64 `json:"last_signature_counter"`
			Messages                          int    `json:"log_messages"`
		} `json:"archives"`
	}
	code, body = a.call(t, "GET", "/api/tse/archives", admin, "")
	if err := json.Unmarshal([]byte(body), &archives); err != nil || code != http.StatusOK || len(archives.Archives) != 1 {
		t.Fatalf("archives: %d %s %v", code, body, err)
	}
	ar := archives.Archives[0]
	if ar.Kind != "dates" || ar.State != "archived" || ar.Verification != "passed" || ar.First != 1 || ar.Messages < 6 {
		t.Fatalf("archive %+v", ar)
	}
	row = b.text(`#archive-list tbody tr[data-state=archived]`)
	if !strings.Contains(row, "bestanden") || !strings.Contains(row, ar.SHA256[:12]+"…") || !strings.Contains(row, fmt.Sprintf("%d – %d", ar.First, ar.Last)) {
		t.Fatalf("archive row %q (sha256 %s)", row, ar.SHA256)
	}
	if got := eval[string](b, `document.querySelector('#archive-list code.sha256').textContent`); got != ar.SHA256 {
		t.Fatalf("full SHA-256 %q, want %s", got, ar.SHA256)
	}
	b.click(`#archive-list tbody tr[data-state=archived] button.download`)
	name, data = b.waitDownload(".tar")
	if name != ar.FileName {
		t.Fatalf("TAR %s, want %s", name, ar.FileName)
	}
	pub, err := a.sim.TSSPublicKey(a.sim.TSSID())
	if err != nil {
		t.Fatal(err)
	}
	code, body = a.call(t, "GET", "/api/tse/info", admin, "")
	var info struct {
		Info struct {
			SerialNumber string `json:"serial_number"`
		} `json:"info"`
	}
	if err := json.Unmarshal([]byte(body), &info); err != nil || code != http.StatusOK {
		t.Fatalf("info: %d %s", code, body)
	}
	rep, err := tsetar.Verify(bytes.NewReader(data), tsetar.Options{PublicKey: pub, SerialNumber: info.Info.SerialNumber})
	if err != nil {
		t.Fatalf("the downloaded TAR does not verify: %v", err)
	}
	if rep.Count != ar.Messages || rep.FirstCounter != ar.First {
		t.Fatalf("the TAR holds %d messages from %d", rep.Count, rep.FirstCounter)
	}
	b.wait("the state after the export", `document.querySelector('#archive-oldest').innerText.includes('0 Tage alt')`)
	// The summary names the verified file at once (it said "noch nichts"
	// while the file was there: it counts the nightly chain only).
	b.wait("the last file in the summary", `document.querySelector('#archive-last-file').innerText.includes('Zeitraum')`)
	if got := b.text("#archive-state"); strings.Contains(got, "noch nichts") || !strings.Contains(got, fmt.Sprintf("Signaturzähler %d – %d", ar.First, ar.Last)) ||
		!strings.Contains(got, "noch keine nächtliche Datei") {
		t.Fatalf("archive summary after a verified export: %q", got)
	}

	// Master data: the business and one register saved through the page.
	b.fill(`#master-data [name=business_name]`, "Gasthaus Linde GmbH")
	b.fill(`#master-data [name=street]`, "Lindenstraße 4")
	b.fill(`#master-data [name=postcode]`, "79098")
	b.fill(`#master-data [name=city]`, "Freiburg")
	b.fill(`#master-data [name=tax_number]`, "06/123/45678")
	b.click(`#add-register`)
	b.wait("a register's fields", `document.querySelector('#master-data fieldset.register')`)
	for k, v := range map[string]string{"client_serial": "KASSE-01", "type": "Tablet-Kassensystem", "brand": "Lenovo", "model": "Tab M10", "acquired_on": "2026-01-15"} {
		b.fill(fmt.Sprintf(`#master-data [name="registers[0].%s"]`, k), v)
	}
	// The session expires as the form is sent: after the login the page
	// comes back with everything typed, the register too.
	eval[bool](b, `(sessionStorage.setItem('posbox.token', 'expired'), true)`)
	b.click(`#master-data button[type=submit]`)
	b.login("chef@linde.test", adminPassword)
	b.wait("the form from the draft", `location.pathname === '/fiscal' && document.querySelector('#master-data [name=business_name]')?.value === 'Gasthaus Linde GmbH' &&
		document.querySelector('#master-data [name="registers[0].model"]')?.value === 'Tab M10' && document.querySelector('#registration-missing li')`)
	b.click(`#master-data button[type=submit]`)
	// All the owner can fill in is there; the simulator is no certified
	// TSE, which the registration still asks for.
	b.wait("the registration's gaps filled", `document.querySelector('#registration-missing').innerText.includes('Eine zertifizierte TSE: Der Simulator ist keine') &&
		document.querySelectorAll('#registration-missing li').length === 1`)
	if eval[string](b, `sessionStorage.getItem('posbox.draft.fiscal-master') || ''`) != "" {
		t.Fatal("the saved form kept its draft")
	}
	code, body = a.call(t, "GET", "/api/fiscal/master-data", admin, "")
	for _, want := range []string{`"business_name":"Gasthaus Linde GmbH"`, `"street":"Lindenstraße 4"`, `"tax_number":"06/123/45678"`,
		`"client_serial":"KASSE-01"`, `"model":"Tab M10"`, `"acquired_on":"2026-01-15"`, `"in_service_on":null`, `"country":"DEU"`} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Fatalf("master data lacks %s: %d %s", want, code, body)
		}
	}

	// Bad values are refused beside their fields, the register's too, and
	// nothing is saved.
	b.fill(`#master-data [name=country]`, "Deutschland")
	b.fill(`#master-data [name="registers[0].decommissioned_on"]`, "2025-12-31")
	b.click(`#master-data button[type=submit]`)
	b.wait("the errors beside the fields", `document.querySelector('#master-data [data-field=country] .error').innerText.includes('dreistelligen Ländercode') &&
		document.querySelector('#master-data [data-field="registers[0].decommissioned_on"] .error').innerText.includes('Darf nicht vor „Angeschafft am“ liegen.') &&
		document.querySelector('#master-data [name=country]').getAttribute('aria-invalid') === 'true'`)
	if _, after := a.call(t, "GET", "/api/fiscal/master-data", admin, ""); after != body {
		t.Fatalf("a refused save changed the master data: %s", after)
	}
	b.screenshot("fiscal-master-error")
	b.fill(`#master-data [name=country]`, "DEU")
	b.fill(`#master-data [name="registers[0].decommissioned_on"]`, "")

	// The printable report opens in a window of its own.
	b.click(`#print-registration`)
	report, styled := b.newWindowText()
	for _, want := range []string{"Gasthaus Linde GmbH", "Lindenstraße 4", "KASSE-01", "Tab M10", "15.01.2026", "Erstellt am " + todayT.Format("02.01.2006"),
		"Keine zertifizierte TSE", "Deutschland"} {
		if !strings.Contains(report, want) {
			t.Fatalf("the report lacks %q: %s", want, report)
		}
	}
	for _, bad := range []string{"2026-01-15", "acquired_on", "registers[", "simulator\t"} {
		if strings.Contains(report, bad) {
			t.Fatalf("the report shows %q: %s", bad, report)
		}
	}
	if !styled {
		t.Fatal("the report's style sheet does not apply")
	}

	// In English.
	b.clickText("header .lang button", "EN")
	b.wait("English", `document.querySelector('main h1').innerText === 'Fiscal records' && document.querySelector('#closings-heading').innerText === 'Daily closings' &&
		document.querySelector('#archive-list').innerText.includes('passed') && document.querySelector('#registration-missing').innerText.includes('A certified TSE: the simulator is none')`)
	b.clickText("header .lang button", "DE")
	b.wait("German", `document.querySelector('main h1').innerText === 'Steuerdaten'`)

	// The page as it opens, with everything above in it.
	b.open("/fiscal")
	b.wait("the page again", `document.querySelector('#closing-list tbody tr') && document.querySelector('#archive-list tbody tr') &&
		document.querySelector('#master-data fieldset.register')`)
	b.screenshot("fiscal")

	// The nightly run meets a TAR with a bad signature: the range is
	// rejected, and the page says so in words, with the reason in its row.
	a.sim.SetExportFault(tsesim.ExportFault{Tamper: 2})
	if err := a.archive.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	a.sim.SetExportFault(tsesim.ExportFault{})
	code, body = a.call(t, "GET", "/api/tse/archives", admin, "")
	var rejected struct {
		Archives []struct {
			Kind, State, Verification, Reason string
		} `json:"archives"`
	}
	if err := json.Unmarshal([]byte(body), &rejected); err != nil || code != http.StatusOK || len(rejected.Archives) != 2 ||
		rejected.Archives[0].Kind != "incremental" || rejected.Archives[0].Verification != "failed" || rejected.Archives[0].Reason == "" {
		t.Fatalf("archives after the rejected run: %d %s", code, body)
	}
	b.clickText(".page-head button", "Aktualisieren")
	b.wait("the rejected range", `document.querySelector('#archive-warning') &&
		document.querySelector('#archive-warning').innerText.includes('Ein Bereich hat die Prüfung nicht bestanden') &&
		document.querySelector('#archive-list tbody tr[data-state=pending]').innerText.includes('nicht bestanden')`)
	// The reason in words, not the API's sentence or code.
	if row := b.text(`#archive-list tbody tr[data-state=pending]`); !strings.Contains(row, "ungültige Signatur") || !strings.Contains(row, "nächtlich") ||
		strings.Contains(row, rejected.Archives[0].Reason) || strings.Contains(row, "tar_") {
		t.Fatalf("rejected row %q (reason %q)", row, rejected.Archives[0].Reason)
	}

	// At 1280 px the file list shows every row's download button whole,
	// the rejected range's long reason beside it.
	b.open("/fiscal")
	b.wait("the list again", `document.querySelector('#archive-list tbody tr[data-state=archived] button.download')`)
	if !eval[bool](b, `[...document.querySelectorAll('#archive-list button.download')].every((btn) => {
		const r = btn.getBoundingClientRect(), box = btn.closest('.table-wrap').getBoundingClientRect();
		return r.right <= box.right + 0.5 && btn.scrollWidth <= btn.clientWidth; })`) {
		t.Fatalf("a download button is cut at 1280 px: %v", eval[[]float64](b, `[...document.querySelectorAll('#archive-list button.download')].map((btn) => btn.getBoundingClientRect().right)`))
	}
	b.screenshot("fiscal-rejected")

	// On a phone the tables are cards and nothing is wider than the
	// screen, not even the rejected range's long reason.
	b.do(chromedp.EmulateViewport(375, 800))
	time.Sleep(150 * time.Millisecond)
	if !eval[bool](b, `document.documentElement.scrollWidth <= window.innerWidth &&
		getComputedStyle(document.querySelector('#closing-list td')).display === 'grid'`) {
		t.Fatalf("the page at 375 px: scrollWidth %d; wider: %v", eval[int](b, `document.documentElement.scrollWidth`),
			eval[[]string](b, `[...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 8).map((e) => e.tagName + '.' + e.className + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right))`))
	}
	b.do(chromedp.EmulateViewport(1280, 900))
}
