package console_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"posbox/internal/poll"
)

// waitCSVDownload waits for one finished .csv file in the browser's download
// folder and returns its content.
func (b *browser) waitCSVDownload() []byte {
	b.tb.Helper()
	var data []byte
	if !poll.Wait(10*time.Second, func() bool {
		files, _ := filepath.Glob(filepath.Join(b.download, "*.csv"))
		if len(files) > 1 {
			b.tb.Fatalf("more than one download: %v", files)
		}
		if len(files) == 1 {
			var err error
			data, err = os.ReadFile(files[0])
			return err == nil && len(data) > 0
		}
		return false
	}) {
		entries, _ := os.ReadDir(b.download)
		b.tb.Fatalf("no CSV downloaded; folder holds %v; page: %s", entries, b.text("main"))
	}
	return data
}

// exportRows checks the export's format (BOM, CRLF, semicolons) and splits it.
func exportRows(tb testing.TB, data []byte) [][]string {
	tb.Helper()
	s := string(data)
	if !strings.HasPrefix(s, "\ufeff") {
		tb.Fatalf("no byte order mark: %q", s)
	}
	s = strings.TrimPrefix(s, "\ufeff")
	if !strings.HasSuffix(s, "\r\n") || strings.Contains(strings.ReplaceAll(s, "\r\n", ""), "\n") {
		tb.Fatalf("lines do not end in CRLF: %q", s)
	}
	var rows [][]string
	for _, line := range strings.Split(strings.TrimSuffix(s, "\r\n"), "\r\n") {
		rows = append(rows, strings.Split(line, ";"))
	}
	return rows
}

// Time entries: the day's entries made at the till (an open one marked),
// the day picker, and the CSV export of a range in German and English.
func TestConsoleTimeEntries(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	apiCreateStaff(t, a, admin, "sam@linde.test", "Sam Weber")
	apiCreateStaff(t, a, admin, "kim@linde.test", "Kim Koch")
	sam := a.token(t, "sam@linde.test", "staff-password")
	kim := a.token(t, "kim@linde.test", "staff-password")
	for _, c := range []struct{ token, path, body string }{
		{sam, "/api/shifts/clock-in", ""}, {sam, "/api/shifts/clock-out", `{"break_minutes":0}`}, {kim, "/api/shifts/clock-in", ""},
	} {
		if code, body := a.call(t, "POST", c.path, c.token, c.body); code != http.StatusOK && code != http.StatusCreated {
			t.Fatalf("%s: %d %s", c.path, code, body)
		}
	}
	todayT, _ := restaurantToday(t)
	today := isoDate(todayT)

	b := newBrowser(t, a)
	b.open("/time")
	b.login("chef@linde.test", adminPassword)
	b.wait("today's entries", `location.pathname === '/time' && document.querySelectorAll('#entries tbody tr').length === 2`)
	if got := eval[string](b, `document.querySelector('input[name=date]').value`); got != today {
		t.Fatalf("day %q, want %s", got, today)
	}
	rows := eval[[]string](b, `[...document.querySelectorAll('#entries tbody tr')].map((tr) => (tr.classList.contains('open') ? 'open: ' : '') + tr.innerText.replace(/\s+/g, ' '))`)
	if len(rows) != 2 || !strings.HasPrefix(rows[0], "Sam Weber ") || !strings.Contains(rows[0], "0 Min.") || !strings.Contains(rows[0], "0 Std.") ||
		!strings.HasPrefix(rows[1], "open: Kim Koch ") || !strings.Contains(rows[1], "noch eingestempelt") {
		t.Fatalf("rows %q", rows)
	}
	if !eval[bool](b, `!!document.querySelector('#entries tr.open .badge.warn')`) {
		t.Fatal("the open entry has no badge")
	}
	if got := b.text("#day-total"); !strings.Contains(got, "Summe: 0 Std.") || !strings.Contains(got, "2 Einträge") || !strings.Contains(got, "1 offen") {
		t.Fatalf("total %q", got)
	}
	b.screenshot("time-today")

	// The day before has nothing; back to today.
	b.click("#prev-day")
	b.wait("yesterday", `location.search === '?date=`+isoDate(todayT.AddDate(0, 0, -1))+`' && document.querySelector('#entries .empty')`)
	b.click("#next-day")
	b.wait("today again", `location.search === '' && document.querySelectorAll('#entries tbody tr').length === 2`)

	// A range the API refuses is said next to its field.
	b.fill(`#export [name=from]`, isoDate(todayT.AddDate(0, 0, 1)))
	b.click(`#export button[type=submit]`)
	b.wait("the range error", `document.querySelector('#export [data-field=to] .error').innerText !== ''`)

	// The CSV of this month so far (the form's default), in German.
	b.fill(`#export [name=from]`, today[:8]+"01")
	if got := eval[string](b, `document.querySelector('#export [name=to]').value`); got != today {
		t.Fatalf("export to %q, want %s", got, today)
	}
	b.click(`#export button[type=submit]`)
	csv := exportRows(t, b.waitCSVDownload())
	if got := strings.Join(csv[0], ";"); got != "Personalnummer;Mitarbeiter;Datum;Beginn;Ende;Pause (Min.);Arbeitszeit (Std.);Offen;Korrigiert" {
		t.Fatalf("header %q", got)
	}
	day := todayT.Format("02.01.2006")
	var samRow, kimRow []string
	for _, r := range csv[1:] {
		if len(r) != 9 {
			t.Fatalf("row %q", r)
		}
		switch r[1] {
		case "Sam Weber":
			samRow = r
		case "Kim Koch":
			kimRow = r
		}
	}
	if samRow == nil || samRow[2] != day || !strings.HasPrefix(samRow[3], day+" ") || samRow[4] == "" || samRow[5] != "0" || samRow[7] != "nein" || samRow[8] != "nein" {
		t.Fatalf("Sam's row %q in %q", samRow, csv)
	}
	if kimRow == nil || kimRow[4] != "" || kimRow[7] != "ja" || kimRow[8] != "nein" {
		t.Fatalf("Kim's row %q", kimRow)
	}
	files, _ := filepath.Glob(filepath.Join(b.download, "*.csv"))
	if want := "time-entries-" + today[:8] + "01-" + today + ".csv"; filepath.Base(files[0]) != want {
		t.Fatalf("file %s, want %s", filepath.Base(files[0]), want)
	}
	os.Remove(files[0])

	// In English the columns are named in English.
	b.clickText("header .lang button", "EN")
	b.wait("English", `document.querySelector('main h1').innerText === 'Time entries' && document.querySelectorAll('#entries tbody tr').length === 2`)
	b.click(`#export button[type=submit]`)
	if csv := exportRows(t, b.waitCSVDownload()); strings.Join(csv[0], ";") != "Staff number;Staff member;Date;Start;End;Break (min);Worked (h);Open;Corrected" || len(csv) != 3 {
		t.Fatalf("English CSV %q", csv)
	}
	b.clickText("header .lang button", "DE")
	b.wait("German", `document.querySelector('main h1').innerText === 'Arbeitszeiten'`)

	// Kim came in two minutes earlier than she clocked in: corrected while
	// she is still at work (from the clock-out dialog), so a clock-out at
	// this minute lies after it. Then she forgets to clock out.
	_, list := a.call(t, "GET", "/api/time-entries", admin, "")
	var entries struct {
		TimeEntries []struct {
			ID       string `json:"id"`
			UserName string `json:"user_name"`
		} `json:"time_entries"`
	}
	if err := json.Unmarshal([]byte(list), &entries); err != nil {
		t.Fatal(err)
	}
	var kimEntry string
	for _, e := range entries.TimeEntries {
		if e.UserName == "Kim Koch" {
			kimEntry = e.ID
		}
	}
	earlier := time.Now().Add(-2 * time.Minute).In(berlin(t))
	b.wait("Kim open", `document.querySelector('#entries tr.open button[data-action=close]')`)
	b.click(`#entries tr.open button[data-action=close]`)
	b.wait("the clock-out form", `document.querySelector('dialog[open] #correct-form[data-mode=close]')`)
	b.click("#correct-open")
	b.wait("the start's form", `document.querySelector('dialog[open] #correct-form[data-mode=correct]') && !document.querySelector('#correct-form [name=clock_out]')`)
	b.fill(`#correct-form [name=day]`, earlier.Format("2006-01-02"))
	b.fill(`#correct-form [name=clock_in]`, earlier.Format("15:04"))
	b.fill(`#correct-form [name=reason]`, "came in earlier")
	b.click(`#correct-form button[type=submit]`)
	b.wait("the start corrected", `!document.querySelector('dialog')`)
	b.open("/time?date=" + earlier.Format("2006-01-02"))
	b.wait("Kim's entry corrected", `[...document.querySelectorAll('#entries tbody tr.open')].some((tr) => tr.innerText.includes('korrigiert') && tr.innerText.includes('Verlauf ansehen'))`)
	b.click(`#entries tr.open button[data-action=close]`)
	b.wait("the clock-out form", `document.querySelector('dialog[open] #correct-form[data-mode=close]') && document.querySelector('#correct-heading').innerText.includes('Kim Koch')`)
	b.fill(`#correct-form [name=clock_out]`, time.Now().In(berlin(t)).Format("15:04"))
	b.fill(`#correct-form [name=reason]`, "forgot to clock out")
	b.click(`#correct-form button[type=submit]`)
	b.wait("nobody open", `!document.querySelector('dialog') && !document.querySelector('#entries tbody tr.open')`)
	code, detail := a.call(t, "GET", "/api/time-entries/history/"+kimEntry, admin, "")
	if code != http.StatusOK || !strings.Contains(detail, `"action":"close"`) || !strings.Contains(detail, `"reason":"forgot to clock out"`) ||
		!strings.Contains(detail, `"reason":"came in earlier"`) || strings.Count(detail, `"action":`) != 2 {
		t.Fatalf("Kim's history: %d %s", code, detail)
	}
}

// berlin is the test restaurant's timezone.
func berlin(tb testing.TB) *time.Location {
	tb.Helper()
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		tb.Fatal(err)
	}
	return loc
}
