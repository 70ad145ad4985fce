package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/bcrypt"

	"posbox/store"
	"posbox/store/storetest"
)

// punchAt records a till's clock-in (and clock-out, unless out is zero)
// at past instants, as the time clock would have: through a second store
// on the appliance's database whose clock is set, since the API clocks
// in at "now" only.
func punchAt(tb testing.TB, a *appliance, email string, in, out time.Time, breakMin int) {
	tb.Helper()
	ctx := context.Background()
	clock := storetest.NewClock(in)
	st, err := store.Open(ctx, filepath.Dir(a.st.Path()), store.Options{Now: clock.Now, Synchronous: "NORMAL",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), BcryptCost: bcrypt.MinCost})
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	u, err := st.UserByEmail(ctx, email)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := st.ClockIn(ctx, a.restaurant, u); err != nil {
		tb.Fatal(err)
	}
	if out.IsZero() {
		return
	}
	clock.Set(out)
	if _, err := st.ClockOut(ctx, a.restaurant, u, breakMin); err != nil {
		tb.Fatal(err)
	}
}

// timeRow is the JavaScript for the day list's row of name whose text has extra.
func timeRow(name, extra string) string {
	return fmt.Sprintf(`[...document.querySelectorAll('#entries tbody tr')].find((tr) => tr.innerText.includes(%q) && tr.innerText.includes(%q))`, name, extra)
}

// fitsWidth fails when the page scrolls sideways at a phone's or a
// desktop's width, or a table is cut and scrolls in its box.
func fitsWidth(b *browser, what string) {
	b.tb.Helper()
	for _, w := range []int64{375, 1280} {
		b.do(chromedp.EmulateViewport(w, 800))
		time.Sleep(150 * time.Millisecond)
		if got := eval[int](b, `document.documentElement.scrollWidth`); got > int(w) {
			b.tb.Errorf("%s: the page is %d px wide at %d px", what, got, w)
		}
		if cut := eval[[]string](b, `[...document.querySelectorAll('main .table-wrap')].filter((t) => t.scrollWidth > t.clientWidth + 1).map((t) => t.getAttribute('aria-label'))`); len(cut) > 0 {
			b.tb.Errorf("%s: at %d px these tables are cut: %q", what, w, cut)
		}
	}
	b.do(chromedp.EmulateViewport(1280, 900))
}

// Corrections in the console: a missing entry entered, a forgotten
// clock-out added ("Ausstempeln nachtragen"), a punch corrected and its
// history read with the original punch; the month's record with totals
// equal to the API's, and the payroll and time-entries files.
func TestConsoleTimeCorrections(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	samID := apiCreateStaff(t, a, admin, "sam@linde.test", "Sam Weber")
	kimID := apiCreateStaff(t, a, admin, "kim@linde.test", "Kim Koch")
	if code, body := a.call(t, "PUT", "/api/users/"+samID, admin, `{"staff_number":"1001"}`); code != http.StatusOK {
		t.Fatalf("staff number: %d %s", code, body)
	}
	loc := berlin(t)
	todayT, _ := restaurantToday(t)
	d := todayT.AddDate(0, 0, -3)
	day, month := isoDate(d), d.Format("2006-01")
	at := func(hh, mm int) time.Time { return time.Date(d.Year(), d.Month(), d.Day(), hh, mm, 0, 0, loc) }
	punchAt(t, a, "sam@linde.test", at(17, 0), at(22, 0), 0)  // Sam punched 17:00-22:00
	punchAt(t, a, "kim@linde.test", at(9, 0), time.Time{}, 0) // Kim forgot to clock out

	b := newBrowser(t, a)
	b.open("/time?date=" + day)
	b.login("chef@linde.test", adminPassword)
	b.wait("the day's entries", `document.querySelectorAll('#entries tbody tr').length === 2 && document.querySelector('#entries tr.open')`)
	b.fill(`#month [name=month]`, month)
	b.wait("the month with Kim open", `document.querySelector('#month-staff tr.total') && document.querySelector('#month-staff').innerText.includes('noch eingestempelt')`)
	fitsWidth(b, "an open entry")

	// A missing entry that overlaps a punch is refused in plain words.
	b.click("#add-entry")
	b.wait("the add form", `document.querySelector('dialog[open] #correct-form[data-mode=add]')`)
	if got := eval[string](b, `document.querySelector('#correct-form [name=day]').value`); got != day {
		t.Fatalf("the add form's day %q, want %s", got, day)
	}
	b.click(`#correct-form button[type=submit]`)
	for _, f := range []string{"user_id", "clock_in", "clock_out", "reason"} {
		b.wait("the error at "+f, `document.querySelector('#correct-form [data-field=`+f+`] .error').innerText.startsWith('Bitte')`)
	}
	b.fill(`#correct-form [name=user_id]`, samID)
	b.fill(`#correct-form [name=clock_in]`, "21:00")
	b.fill(`#correct-form [name=clock_out]`, "01:00")
	if got := b.text("#span-note"); !strings.Contains(got, "Arbeitszeit ohne Pause: 4 Std. 00 Min.") || !strings.Contains(got, d.AddDate(0, 0, 1).Format("02.01.2006")+" 01:00") {
		t.Fatalf("the span of a night %q", got)
	}
	b.fill(`#correct-form [name=reason]`, "Kasse war aus")
	b.click(`#correct-form button[type=submit]`)
	b.wait("the overlap", `document.querySelector('#correct-form .form-error').innerText.includes('überschneidet sich mit einem anderen Eintrag von Sam Weber')`)
	if got := b.text("#correct-form .form-error"); regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-`).MatchString(got) {
		t.Fatalf("an id in the message: %q", got)
	}
	b.clickText(`#correct-form button`, "Abbrechen")
	b.wait("the form closed", `!document.querySelector('dialog')`)

	// Kim's forgotten clock-out is added.
	eval[bool](b, timeRow("Kim Koch", "noch eingestempelt")+`.querySelector('button[data-action=close]').click() || true`)
	b.wait("the clock-out form", `document.querySelector('dialog[open] #correct-form[data-mode=close]')`)
	if got := b.text("#correct-heading"); got != "Ausstempeln nachtragen: Kim Koch" {
		t.Fatalf("heading %q", got)
	}
	if got := b.text("dialog .meta"); !strings.Contains(got, "um 09:00 eingestempelt") {
		t.Fatalf("meta %q", got)
	}
	b.fill(`#correct-form [name=clock_out]`, "14:30")
	b.fill(`#correct-form [name=break_minutes]`, "30")
	b.fill(`#correct-form [name=reason]`, "vergessen auszustempeln")
	b.screenshot("time-clock-out")
	b.click(`#correct-form button[type=submit]`)
	b.wait("Kim's entry closed", `!document.querySelector('dialog') && !document.querySelector('#entries tr.open') && `+
		timeRow("Kim Koch", "14:30")+`.innerText.includes('5 Std.')`)

	// Kim's missing evening is entered.
	b.click("#add-entry")
	b.wait("the add form", `document.querySelector('dialog[open] #correct-form[data-mode=add]')`)
	b.fill(`#correct-form [name=user_id]`, kimID)
	b.fill(`#correct-form [name=clock_in]`, "18:00")
	b.fill(`#correct-form [name=clock_out]`, "22:30")
	b.fill(`#correct-form [name=break_minutes]`, "30")
	b.fill(`#correct-form [name=reason]`, "Kasse war aus")
	b.click(`#correct-form button[type=submit]`)
	b.wait("Kim's evening", `!document.querySelector('dialog') && document.querySelectorAll('#entries tbody tr').length === 3 && `+
		timeRow("Kim Koch", "22:30")+`.innerText.includes('4 Std.')`)

	// Sam stayed for the stocktaking: his clock-out is corrected. A break
	// longer than the entry is refused next to its field first.
	eval[bool](b, timeRow("Sam Weber", "17:00")+`.querySelector('button[data-action=correct]').click() || true`)
	b.wait("the correct form", `document.querySelector('dialog[open] #correct-form[data-mode=correct]')`)
	if got := eval[string](b, `[...document.querySelectorAll('#correct-form input')].map((i) => i.value).join(' ')`); !strings.HasPrefix(got, day+" 17:00 22:00 0") {
		t.Fatalf("the correct form's values %q", got)
	}
	b.fill(`#correct-form [name=break_minutes]`, "600")
	b.fill(`#correct-form [name=reason]`, "Inventur nach Feierabend")
	b.click(`#correct-form button[type=submit]`)
	b.wait("the break's error", `document.querySelector('#correct-form [data-field=break_minutes] .error').innerText !== ''`)
	b.fill(`#correct-form [name=break_minutes]`, "0")
	b.fill(`#correct-form [name=clock_out]`, "23:15")
	b.click(`#correct-form button[type=submit]`)
	b.wait("Sam corrected", `!document.querySelector('dialog') && `+timeRow("Sam Weber", "23:15")+`.innerText.includes('6,25 Std.')`)
	rows := eval[[]string](b, `[...document.querySelectorAll('#entries tbody tr')].map((tr) => tr.innerText.replace(/\s+/g, ' '))`)
	for _, r := range rows {
		if !strings.Contains(r, "korrigiert") || !strings.Contains(r, "Verlauf ansehen") {
			t.Fatalf("a changed entry without its marker: %q", r)
		}
	}
	b.screenshot("time")
	fitsWidth(b, "the day list")

	// Sam's history: who, when, why, before and after, and the punch.
	changedOn := todayT.Format("02.01.2006")
	eval[bool](b, timeRow("Sam Weber", "17:00")+`.querySelector('button[data-action=history]').click() || true`)
	b.wait("Sam's history", `document.querySelector('dialog[open]#history #history-list')`)
	if got := b.text("#history-original"); got != "Beginn 17:00, Ende 22:00, Pause 0 Min." {
		t.Fatalf("Sam's punch %q", got)
	}
	if got := b.text("#history-now"); got != "Beginn 17:00, Ende 23:15, Pause 0 Min., 6,25 Std." {
		t.Fatalf("Sam's entry now %q", got)
	}
	item := b.text("#history-list li")
	if !regexp.MustCompile(`^Geändert von Clara Chef am ` + regexp.QuoteMeta(changedOn) + ` um \d\d:\d\d – Grund: Inventur nach Feierabend – Ende: vorher 22:00, nachher 23:15$`).MatchString(item) {
		t.Fatalf("Sam's change %q", item)
	}
	b.screenshot("time-history")
	fitsWidth(b, "the history")
	b.clickText("dialog#history button", "Schließen")
	b.wait("the history closed", `!document.querySelector('dialog')`)

	// Kim's: the forgotten clock-out, and the evening entered by hand.
	eval[bool](b, timeRow("Kim Koch", "09:00")+`.querySelector('button[data-action=history]').click() || true`)
	b.wait("Kim's history", `document.querySelector('dialog[open]#history #history-list')`)
	if got := b.text("#history-original"); got != "Beginn 09:00, Ende nicht ausgestempelt, Pause 0 Min." {
		t.Fatalf("Kim's punch %q", got)
	}
	if item := b.text("#history-list li[data-action=close]"); !strings.HasPrefix(item, "Ausstempeln nachgetragen von Clara Chef am "+changedOn) ||
		!strings.HasSuffix(item, "– Grund: vergessen auszustempeln – Ende: vorher nicht ausgestempelt, nachher 14:30; Pause: vorher 0 Min., nachher 30 Min.") {
		t.Fatalf("Kim's clock-out %q", item)
	}
	b.clickText("dialog#history button", "Schließen")
	eval[bool](b, timeRow("Kim Koch", "18:00")+`.querySelector('button[data-action=history]').click() || true`)
	b.wait("the entered history", `document.querySelector('dialog[open]#history #history-list')`)
	if got := b.text("#history-original"); got != "Nicht gestempelt: von Hand nachgetragen." {
		t.Fatalf("an entered entry's punch %q", got)
	}
	if item := b.text("#history-list li[data-action=create]"); !strings.HasPrefix(item, "Nachgetragen von Clara Chef am "+changedOn) ||
		!strings.HasSuffix(item, "– Grund: Kasse war aus – Beginn 18:00, Ende 22:30, Pause 30 Min.") {
		t.Fatalf("the entered entry %q", item)
	}
	b.clickText("dialog#history button", "Schließen")

	// The month: each person's hours and the total are the API's.
	b.fill(`#month [name=month]`, month)
	_, body := a.call(t, "GET", fmt.Sprintf("/api/time-entries/report?from=%s-01&to=%s", month, isoDate(time.Date(d.Year(), d.Month()+1, 0, 0, 0, 0, 0, time.UTC))), admin, "")
	var report struct {
		Report struct {
			Staff []struct {
				UserID      string      `json:"user_id"`
				WorkedHours json.Number `json:"worked_hours"`
			} `json:"staff"`
		} `json:"report"`
	}
	if err := json.Unmarshal([]byte(body), &report); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{samID: "6.25", kimID: "9"}
	var sum float64
	for _, s := range report.Report.Staff {
		if want[s.UserID] != s.WorkedHours.String() {
			t.Fatalf("the API's record %s", body)
		}
		f, _ := s.WorkedHours.Float64()
		sum += f
	}
	b.wait("the month", `document.querySelector('#month-staff tr.total') && document.querySelector('#month-staff tr[data-user="`+samID+`"]').dataset.hours === '6.25'`)
	for id, h := range want {
		if got := eval[string](b, `document.querySelector('#month-staff tr[data-user="`+id+`"]').dataset.hours`); got != h {
			t.Errorf("the month shows %s h for %s, the API %s", got, id, h)
		}
	}
	if got := eval[string](b, `document.querySelector('#month-staff tr.total').dataset.hours`); got != strconv.FormatFloat(sum, 'f', -1, 64) {
		t.Errorf("the month's total %s, the API's %v", got, sum)
	}
	samLine := eval[string](b, `document.querySelector('#month-staff tr[data-user="`+samID+`"]').innerText.replace(/\s+/g, ' ')`)
	if !strings.Contains(samLine, "1001") || !strings.Contains(samLine, "6,25 Std.") || !strings.Contains(samLine, "Nacht 25 %: 3,25 Std.") ||
		!strings.Contains(samLine, "1 Tag korrigiert") {
		t.Fatalf("Sam's month %q", samLine)
	}
	if got := b.text("#month-staff tr.total"); !strings.Contains(got, "15,25 Std.") || !strings.Contains(got, "2 Mitarbeiter") {
		t.Fatalf("the total %q", got)
	}
	b.click(`#month-days details[data-user="` + samID + `"] summary`)
	if got := eval[string](b, `document.querySelector('#month-days details[data-user="`+samID+`"] tbody tr').innerText.replace(/\s+/g, ' ')`); !strings.Contains(got, "17:00 23:15 0 Min. 6,25 Std.") ||
		!strings.Contains(got, "korrigiert") {
		t.Fatalf("Sam's day in the record %q", got)
	}
	b.screenshot("time-month")
	fitsWidth(b, "the month")

	// The payroll file of the month.
	b.click("#payroll-download")
	csv := exportRows(t, b.waitCSVDownload())
	if got := strings.Join(csv[0], ";"); got != "Personalnummer;Mitarbeiter;Datum;Arbeitszeit (Std.);Nacht 25 % (Std.);Nacht 40 % (Std.);Sonntag 50 % (Std.);Feiertag 125 % (Std.);Feiertag 150 % (Std.);Korrigiert" {
		t.Fatalf("payroll header %q", got)
	}
	date := d.Format("02.01.2006")
	if len(csv) != 3 || strings.Join(csv[1][:4], ";") != ";Kim Koch;"+date+";9" || csv[1][9] != "ja" ||
		strings.Join(csv[2][:4], ";") != "1001;Sam Weber;"+date+";6,25" || csv[2][4] != "3,25" || csv[2][9] != "ja" {
		t.Fatalf("payroll %q", csv)
	}
	files, _ := filepath.Glob(filepath.Join(b.download, "*.csv"))
	if want := "payroll-" + month + "-01-" + isoDate(time.Date(d.Year(), d.Month()+1, 0, 0, 0, 0, 0, time.UTC)) + ".csv"; filepath.Base(files[0]) != want {
		t.Fatalf("file %s, want %s", filepath.Base(files[0]), want)
	}
	os.Remove(files[0])

	// The time-entries file of the day: staff number and correction marker.
	b.fill(`#export [name=from]`, day)
	b.fill(`#export [name=to]`, day)
	b.click(`#export button[type=submit]`)
	entries := exportRows(t, b.waitCSVDownload())
	wantRows := []string{
		"Personalnummer;Mitarbeiter;Datum;Beginn;Ende;Pause (Min.);Arbeitszeit (Std.);Offen;Korrigiert",
		";Kim Koch;" + date + ";" + date + " 09:00;" + date + " 14:30;30;5;nein;ja",
		"1001;Sam Weber;" + date + ";" + date + " 17:00;" + date + " 23:15;0;6,25;nein;ja",
		";Kim Koch;" + date + ";" + date + " 18:00;" + date + " 22:30;30;4;nein;ja",
	}
	if len(entries) != len(wantRows) {
		t.Fatalf("time entries %q", entries)
	}
	for i, w := range wantRows {
		if got := strings.Join(entries[i], ";"); got != w {
			t.Errorf("row %d: %q, want %q", i, got, w)
		}
	}

	// A date in the record opens that day in the list.
	b.click(`#month-days details[data-user="` + samID + `"] tbody a`)
	b.wait("the day from the record", `location.search === '?date=`+day+`' && document.querySelectorAll('#entries tbody tr').length === 3`)

	// In English the same words are English.
	b.clickText("header .lang button", "EN")
	b.wait("English", `document.querySelector('main h1').innerText === 'Time entries' && document.querySelectorAll('#entries tbody tr').length === 3`)
	if got := b.text("#month-heading") + " | " + b.text("#add-entry") + " | " + b.text("#payroll-download"); got != "Month: working time record and payroll | Add missing entry | Download payroll CSV" {
		t.Fatalf("English %q", got)
	}
	eval[bool](b, timeRow("Sam Weber", "17:00")+`.querySelector('button[data-action=history]').click() || true`)
	b.wait("Sam's history in English", `document.querySelector('dialog[open]#history #history-list')`)
	if item := b.text("#history-list li"); !strings.HasPrefix(item, "Changed by Clara Chef on ") || !strings.HasSuffix(item, "– Reason: Inventur nach Feierabend – End: before 22:00, after 23:15") {
		t.Fatalf("the English history %q", item)
	}
	b.clickText("dialog#history button", "Close")
	b.clickText("header .lang button", "DE")
}
