package console_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// restaurantToday is the restaurant's date today and the Monday of its week
// (the appliance in a test runs on the real clock).
func restaurantToday(tb testing.TB) (today, monday time.Time) {
	tb.Helper()
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		tb.Fatal(err)
	}
	now := time.Now().In(loc)
	today = time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	return today, today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
}

func isoDate(d time.Time) string { return d.Format("2006-01-02") }

// apiCreateStaff makes a staff member through the API and returns the id.
func apiCreateStaff(tb testing.TB, a *appliance, adminToken, email, name string) string {
	tb.Helper()
	code, body := a.call(tb, "POST", "/api/users", adminToken,
		fmt.Sprintf(`{"email":%q,"name":%q,"role":"staff","password":"staff-password"}`, email, name))
	if code != http.StatusCreated {
		tb.Fatalf("create %s: %d %s", email, code, body)
	}
	var res struct{ User struct{ ID string } }
	if err := json.Unmarshal([]byte(body), &res); err != nil {
		tb.Fatal(err)
	}
	return res.User.ID
}

type plannedShift struct {
	ID        string `json:"id"`
	UserID    string `json:"user_id"`
	ShiftDate string `json:"shift_date"`
	StartTime string `json:"start_time"`
	EndTime   string `json:"end_time"`
	Role      string `json:"role"`
	Status    string `json:"status"`
}

// shiftsOn lists the shifts of a range of days through the API.
func shiftsOn(tb testing.TB, a *appliance, token, from, to string) []plannedShift {
	tb.Helper()
	code, body := a.call(tb, "GET", "/api/shifts?date_from="+from+"&date_to="+to, token, "")
	if code != http.StatusOK {
		tb.Fatalf("list shifts: %d %s", code, body)
	}
	var res struct{ Shifts []plannedShift }
	if err := json.Unmarshal([]byte(body), &res); err != nil {
		tb.Fatal(err)
	}
	return res.Shifts
}

// js quotes a string for a JavaScript expression.
func jsQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// The shift plan: create in the week grid, an overlap refused next to
// the form, confirm, a night shift across midnight, a draft that survives
// an expired session, delete after the confirm dialog, week navigation.
func TestConsoleShiftPlan(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	sam := apiCreateStaff(t, a, admin, "sam@linde.test", "Sam Weber")
	kim := apiCreateStaff(t, a, admin, "kim@linde.test", "Kim Koch")
	todayT, mondayT := restaurantToday(t)
	today, monday := isoDate(todayT), isoDate(mondayT)
	cell := func(user, date string) string {
		return fmt.Sprintf(`#week .cell[data-user="%s"][data-date="%s"]`, user, date)
	}

	b := newBrowser(t, a)
	b.open("/shifts")
	b.login("chef@linde.test", adminPassword)
	b.wait("the week grid", `location.pathname === '/shifts' && document.querySelector(`+jsQuote(cell(sam, today))+`)`)

	// One row per active staff member (the admin has no shift: no row),
	// Monday to Sunday, today marked.
	if got := eval[string](b, `[...document.querySelectorAll('#week .name')].map((e) => e.firstChild.textContent).join('|')`); got != "Kim Koch|Sam Weber" {
		t.Fatalf("rows %q", got)
	}
	if got := eval[string](b, `[...document.querySelectorAll('#week .head[data-date]')].map((e) => e.dataset.date).join(' ')`); !strings.HasPrefix(got, monday+" ") {
		t.Fatalf("days %q, want from %s", got, monday)
	}
	if got := eval[string](b, `(document.querySelector('#week .head[aria-current=date]') || {dataset: {}}).dataset.date || ''`); got != today {
		t.Fatalf("today's column %q, want %s", got, today)
	}
	if !eval[bool](b, `document.querySelector(`+jsQuote(cell(sam, today))+`).classList.contains('today')`) {
		t.Fatal("today's cells are not marked")
	}

	// Create: clicking Sam's empty cell prefills him and the day.
	b.click(cell(sam, today) + " button.add")
	b.wait("the editor", `document.querySelector('dialog.editor[open]')`)
	if got := eval[string](b, `[...['user_id', 'shift_date']].map((n) => document.querySelector('dialog.editor [name=' + n + ']').value).join(' ')`); got != sam+" "+today {
		t.Fatalf("prefilled %q", got)
	}
	b.fill(`dialog.editor [name=start_time]`, "10:00")
	b.fill(`dialog.editor [name=end_time]`, "14:00")
	b.fill(`dialog.editor [name=role]`, "Küche")
	b.click(`dialog.editor button[type=submit]`)
	b.wait("the new shift in the grid", `!document.querySelector('dialog.editor') && [...document.querySelectorAll(`+jsQuote(cell(sam, today)+" .shift")+`)].some((e) => e.innerText.includes('10:00–14:00') && e.innerText.includes('Küche') && e.innerText.includes('geplant'))`)
	shifts := shiftsOn(t, a, admin, today, today)
	if len(shifts) != 1 || shifts[0].UserID != sam || shifts[0].StartTime != "10:00" || shifts[0].Role != "Küche" {
		t.Fatalf("after create: %+v", shifts)
	}
	first := shifts[0].ID
	if eval[string](b, `sessionStorage.getItem('posbox.draft.shifts.editor') || ''`) != "" {
		t.Fatal("the draft survived the save")
	}

	// An overlapping shift for Sam: the API's message next to the form,
	// start and end marked, nothing created.
	b.click("#add-shift")
	b.wait("the empty editor", `document.querySelector('dialog.editor[open] [name=user_id]').value === ''`)
	b.fill(`dialog.editor [name=user_id]`, sam)
	b.fill(`dialog.editor [name=shift_date]`, today)
	b.fill(`dialog.editor [name=start_time]`, "12:00")
	b.fill(`dialog.editor [name=end_time]`, "16:00")
	b.click(`dialog.editor button[type=submit]`)
	// Said by whose shift and when, never by the other shift's id.
	b.wait("the overlap message", `document.querySelector('dialog.editor .form-error').innerText.includes('überschneidet sich mit der Schicht von ')`)
	noInternalText(t, b.text(`dialog.editor .form-error`))
	if !eval[bool](b, `['start_time', 'end_time'].every((n) => document.querySelector('dialog.editor [name=' + n + ']').getAttribute('aria-invalid') === 'true')`) {
		t.Fatal("start and end are not marked")
	}
	if got := b.text(`dialog.editor [data-field=start_time] .error`); !strings.Contains(got, "Überschneidet sich mit der Schicht 10:00–14:00") {
		t.Fatalf("start's error %q", got)
	}
	b.screenshot("shifts-overlap")
	if n := len(shiftsOn(t, a, admin, today, today)); n != 1 {
		t.Fatalf("the overlap made a shift: %d", n)
	}
	// A field the API refuses goes next to the field.
	b.fill(`dialog.editor [name=start_time]`, "16:00")
	b.click(`dialog.editor button[type=submit]`)
	b.wait("the field error", `document.querySelector('dialog.editor [data-field=end_time] .error').innerText.includes('Muss sich von „Beginn“ unterscheiden.')`)
	b.click(`dialog.editor button.close`)
	b.wait("the editor closed", `!document.querySelector('dialog.editor')`)

	// Confirm the first shift.
	b.click(fmt.Sprintf(`#week .shift[data-id="%s"]`, first))
	b.wait("the editor of the shift", `document.querySelector('dialog.editor[open] [name=id]').value === `+jsQuote(first))
	b.click(`dialog.editor button[data-status=confirmed]`)
	b.wait("the confirmed shift", fmt.Sprintf(`document.querySelector('#week .shift[data-id="%s"]').classList.contains('confirmed') &&
		document.querySelector('#week .shift[data-id="%s"]').innerText.includes('bestätigt') && document.querySelector('dialog.editor .meta').innerText.includes('bestätigt')`, first, first))
	if s := shiftsOn(t, a, admin, today, today); s[0].Status != "confirmed" {
		t.Fatalf("status %q", s[0].Status)
	}
	b.click(`dialog.editor button.close`)
	b.wait("the editor closed", `!document.querySelector('dialog.editor')`)
	if got := eval[string](b, `document.activeElement.dataset.id || ''`); got != first {
		t.Fatalf("after closing, the focus is not back on the shift (%q)", got)
	}
	// The arrow keys move between days and people.
	if got := eval[string](b, `(() => { const key = (k) => document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true}));
		key('ArrowRight'); const right = document.activeElement.closest('.cell').dataset.date;
		key('ArrowUp'); key('ArrowUp'); const up = document.activeElement.closest('.row').dataset.user;
		return right + ' ' + up; })()`); got != isoDate(todayT.AddDate(0, 0, 1))+" "+kim && todayT.Weekday() != time.Sunday {
		t.Fatalf("arrow keys went to %q", got)
	}

	// A night shift on this week's Wednesday is drawn there and continues
	// on Thursday.
	wed, thu := isoDate(mondayT.AddDate(0, 0, 2)), isoDate(mondayT.AddDate(0, 0, 3))
	b.click(cell(sam, wed) + " button.add")
	b.wait("the editor", `document.querySelector('dialog.editor[open]')`)
	b.fill(`dialog.editor [name=start_time]`, "22:00")
	b.fill(`dialog.editor [name=end_time]`, "06:00")
	b.fill(`dialog.editor [name=break_minutes]`, "30")
	b.click(`dialog.editor button[type=submit]`)
	b.wait("the night shift", `document.querySelector(`+jsQuote(cell(sam, wed)+" .shift.night")+`)`)
	night := eval[string](b, `document.querySelector(`+jsQuote(cell(sam, wed)+" .shift.night")+`).dataset.id`)
	b.wait("its continuation", fmt.Sprintf(`document.querySelector(%s) && document.querySelector(%s).innerText.includes('06:00')`,
		jsQuote(cell(sam, thu)+fmt.Sprintf(` .shift.continued[data-id="%s"]`, night)), jsQuote(cell(sam, thu)+" .shift.continued")))
	if got := b.text(cell(sam, wed) + " .shift.night"); !strings.Contains(got, "22:00–06:00") {
		t.Fatalf("night shift reads %q", got)
	}
	b.screenshot("shifts")

	// No horizontal scrolling of the page on a phone: the grid scrolls in its box.
	b.do(chromedp.EmulateViewport(375, 800))
	if !eval[bool](b, `document.documentElement.scrollWidth <= window.innerWidth && document.querySelector('#week').scrollWidth > document.querySelector('#week').clientWidth`) {
		t.Error("at 375 px the page scrolls sideways, or the grid does not scroll in its box")
	}
	b.do(chromedp.EmulateViewport(1280, 900))

	// The session runs out while a shift is typed: after the login the
	// editor is back with the input, and saving it works.
	fri := isoDate(mondayT.AddDate(0, 0, 4))
	b.click(cell(sam, fri) + " button.add")
	b.wait("the editor", `document.querySelector('dialog.editor[open]')`)
	b.fill(`dialog.editor [name=start_time]`, "15:00")
	b.fill(`dialog.editor [name=end_time]`, "18:30")
	b.fill(`dialog.editor [name=notes]`, "Inventur")
	eval[bool](b, `(sessionStorage.setItem('posbox.token', 'expired.token.value'), true)`)
	b.click(`dialog.editor button[type=submit]`)
	b.wait("the login page", `location.pathname === '/login' && document.querySelector('.notice')`)
	b.login("chef@linde.test", adminPassword)
	b.wait("the editor with the draft", `location.pathname === '/shifts' && document.querySelector('dialog.editor[open] [name=notes]').value === 'Inventur' &&
		document.querySelector('dialog.editor [name=start_time]').value === '15:00' && document.querySelector('dialog.editor [name=shift_date]').value === `+jsQuote(fri))
	b.click(`dialog.editor button[type=submit]`)
	b.wait("the saved draft", `!document.querySelector('dialog.editor') && document.querySelector(`+jsQuote(cell(sam, fri)+" .shift")+`)`)
	if eval[string](b, `sessionStorage.getItem('posbox.draft.shifts.editor') || ''`) != "" {
		t.Fatal("the draft survived the save")
	}

	// Delete the night shift after confirming the dialog.
	b.click(fmt.Sprintf(`#week .shift.night[data-id="%s"]`, night))
	b.wait("the editor of the night shift", `document.querySelector('dialog.editor[open] [name=id]').value === `+jsQuote(night))
	b.click(`dialog.editor button.delete`)
	b.wait("the confirm dialog", `document.querySelector('dialog.confirm[open]')`)
	b.click(`dialog.confirm button.danger`)
	b.wait("the night shift gone", fmt.Sprintf(`!document.querySelector('dialog.editor') && !document.querySelector('#week .shift[data-id="%s"]')`, night))
	for _, s := range shiftsOn(t, a, admin, monday, isoDate(mondayT.AddDate(0, 0, 6))) {
		if s.ID == night {
			t.Fatal("the night shift is still there")
		}
	}

	// Next week, back, and this week.
	next := isoDate(mondayT.AddDate(0, 0, 7))
	b.click("#next-week")
	b.wait("next week", `document.querySelector('#week').dataset.week === `+jsQuote(next)+` && location.search === '?week=`+next+`' && !document.querySelector('#week .shift') && !document.querySelector('#week .head[aria-current]')`)
	b.click("#prev-week")
	b.wait("this week again", `document.querySelector('#week').dataset.week === `+jsQuote(monday)+` && location.search === '' && document.querySelector('#week .head[aria-current=date]')`)
	b.click("#prev-week")
	b.wait("last week", `document.querySelector('#week').dataset.week === `+jsQuote(isoDate(mondayT.AddDate(0, 0, -7))))
	b.click("#this-week")
	b.wait("this week", `document.querySelector('#week').dataset.week === `+jsQuote(monday)+` && document.querySelectorAll('#week .shift').length === 2`)
}

// apiShift schedules a shift through the API (published or a draft) and
// returns its id.
func apiShift(tb testing.TB, a *appliance, token, user, date, start, end string, brk int, publish bool) string {
	tb.Helper()
	code, body := a.call(tb, "POST", "/api/shifts", token, fmt.Sprintf(`{"user_id":%q,"shift_date":%q,"start_time":%q,"end_time":%q,"break_minutes":%d,"publish":%t}`,
		user, date, start, end, brk, publish))
	if code != http.StatusCreated {
		tb.Fatalf("shift %s %s-%s: %d %s", date, start, end, code, body)
	}
	var res struct{ Shift struct{ ID string } }
	if err := json.Unmarshal([]byte(body), &res); err != nil {
		tb.Fatal(err)
	}
	return res.Shift.ID
}

// The week's plan as a scheduler uses it: the labour-law notices in
// German, opened by a tap; planned hours per person in the grid; planned
// and worked hours per person; a disabled person's shift marked
// unstaffed; publishing the week's drafts; copying last week into the
// next; the phone view opening at today.
func TestConsoleShiftWeekPlan(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	sam := apiCreateStaff(t, a, admin, "sam@linde.test", "Sam Weber")
	gil := apiCreateStaff(t, a, admin, "gil@linde.test", "Gil Gast")
	_, mondayT := restaurantToday(t)
	monday, tuesday, wed := isoDate(mondayT), isoDate(mondayT.AddDate(0, 0, 1)), isoDate(mondayT.AddDate(0, 0, 2))
	nextMonday := isoDate(mondayT.AddDate(0, 0, 7))
	// Monday 12:00-22:00 (45 min break) published; Tuesday 08:00 a draft:
	// only 10 hours of rest between them.
	apiShift(t, a, admin, sam, monday, "12:00", "22:00", 45, true)
	tue := apiShift(t, a, admin, sam, tuesday, "08:00", "12:00", 0, false)
	gilShift := apiShift(t, a, admin, gil, wed, "10:00", "14:00", 0, true)
	inTwoWeeks := isoDate(mondayT.AddDate(0, 0, 14))
	apiShift(t, a, admin, gil, inTwoWeeks, "10:00", "14:00", 0, true)
	if code, body := a.call(t, "PUT", "/api/users/"+gil, admin, `{"is_active":false}`); code != http.StatusOK {
		t.Fatalf("disable Gil: %d %s", code, body)
	}
	// An hour Sam worked this week (entered by the admin), when the week
	// has had one.
	loc, _ := time.LoadLocation("Europe/Berlin")
	in := time.Now().Add(-2 * time.Hour)
	worked := in.In(loc).Format("2006-01-02") >= monday
	if worked {
		code, body := a.call(t, "POST", "/api/time-entries", admin, fmt.Sprintf(`{"user_id":%q,"clock_in":%q,"clock_out":%q,"reason":"Zettel"}`,
			sam, in.UTC().Format(time.RFC3339), in.Add(time.Hour).UTC().Format(time.RFC3339)))
		if code != http.StatusCreated {
			t.Fatalf("enter an entry: %d %s", code, body)
		}
	}

	b := newBrowser(t, a)
	b.open("/shifts")
	b.login("chef@linde.test", adminPassword)
	tueSel := fmt.Sprintf(`#week .shift[data-id="%s"]`, tue)
	b.wait("the week grid", `document.querySelector(`+jsQuote(tueSel)+`)`)

	// The notice: a visible marker on the shift, its words behind a tap.
	box := `#week .cell[data-user="` + sam + `"][data-date="` + tuesday + `"] details.labour`
	if !eval[bool](b, `document.querySelector(`+jsQuote(tueSel)+`).classList.contains('warned') && !document.querySelector(`+jsQuote(box)+`).open`) {
		t.Fatal("the shift with a notice has no marker, or its notice is open before a tap")
	}
	if got := b.text(box + " summary"); !strings.Contains(got, "1 Hinweis Arbeitszeit") {
		t.Fatalf("the marker reads %q", got)
	}
	b.click(box + " summary")
	b.wait("the notice open", `document.querySelector(`+jsQuote(box)+`).open`)
	if got := b.text(box + " li"); got != "Ruhezeit nur 10 Std. – mindestens 11 Std. nötig (ArbZG § 5)" {
		t.Fatalf("the notice reads %q", got)
	}
	if eval[bool](b, `!!document.querySelector('#week [title]')`) {
		t.Fatal("a hover-only title is left in the grid")
	}

	// Planned hours per person in the grid; planned and worked below.
	samRow := `#week .row[data-user="` + sam + `"] .name .planned`
	if got := b.text(samRow); got != "13,25 Std. geplant" {
		t.Fatalf("Sam's planned hours read %q", got)
	}
	hoursRow := `#week-hours tr[data-user="` + sam + `"]`
	wantWorked := "0 Std."
	if worked {
		wantWorked = "1 Std."
	}
	if got := eval[string](b, `document.querySelector(`+jsQuote(hoursRow)+`).textContent`); !strings.Contains(got, "13,25 Std.") ||
		!strings.Contains(got, wantWorked) || !strings.Contains(got, "Ruhezeit nur 10 Std.") {
		t.Fatalf("Sam's hours of the week read %q, want 13,25 planned, %s worked and the notice", got, wantWorked)
	}

	// Gil was disabled: the shift says unbesetzt, the page says how many.
	gilSel := fmt.Sprintf(`#week .shift[data-id="%s"]`, gilShift)
	if got := b.text(gilSel); !strings.Contains(got, "unbesetzt") {
		t.Fatalf("Gil's shift reads %q", got)
	}
	if got := b.text("#unstaffed-note"); !strings.Contains(got, "1 Schicht dieser Woche ist unbesetzt") {
		t.Fatalf("the unstaffed note reads %q", got)
	}

	// Publish: one draft; after the confirm the staff member sees it.
	if got := b.text("#plan-state"); !strings.Contains(got, "Entwurf") || !strings.Contains(b.text(tueSel), "Entwurf") {
		t.Fatalf("the draft is not said: %q / %q", got, b.text(tueSel))
	}
	b.screenshot("shifts-week")
	samTok := a.token(t, "sam@linde.test", "staff-password")
	mine := func() int {
		code, body := a.call(t, "GET", "/api/shifts/mine", samTok, "")
		if code != http.StatusOK {
			t.Fatalf("mine: %d %s", code, body)
		}
		var res struct{ Shifts []plannedShift }
		_ = json.Unmarshal([]byte(body), &res)
		return len(res.Shifts)
	}
	if n := mine(); n != 1 {
		t.Fatalf("Sam sees %d shifts before publishing, want 1", n)
	}
	b.click("#publish-week")
	b.wait("the confirm dialog", `document.querySelector('dialog.confirm[open]')`)
	b.click(`dialog.confirm button.danger`)
	b.wait("the week published", `document.querySelector('#plan-state').innerText.includes('Alle Schichten dieser Woche sind veröffentlicht') &&
		document.querySelector('#publish-week').hidden && !document.querySelector(`+jsQuote(tueSel)+`).classList.contains('draft')`)
	if n := mine(); n != 2 {
		t.Fatalf("Sam sees %d shifts after publishing, want 2", n)
	}

	// Next week: copy last week; Gil's shift is skipped and said why.
	b.click("#next-week")
	b.wait("next week", `document.querySelector('#week').dataset.week === `+jsQuote(nextMonday)+` && !document.querySelector('#week .shift')`)
	b.click("#copy-week")
	b.wait("the copy", `!document.querySelector('#copy-result').hidden && document.querySelectorAll('#week .shift.draft').length === 2`)
	if got := b.text("#copy-result"); !strings.Contains(got, "2 Schichten aus der Vorwoche übernommen (als Entwurf), 1 übersprungen") ||
		!strings.Contains(got, "Gil Gast") || !strings.Contains(got, "nicht mehr aktiv") {
		t.Fatalf("the copy says %q", got)
	}
	b.screenshot("shifts-copy")
	// Gil's later shift is said from any week, with a way to its week.
	later := `#unstaffed-note button[data-week="` + inTwoWeeks + `"]`
	if got := b.text("#unstaffed-note"); !strings.Contains(got, "Schicht") || !strings.Contains(got, "unbesetzt") || !strings.Contains(b.text(later), "Gil Gast") {
		t.Fatalf("next week's note on unstaffed shifts reads %q", got)
	}
	b.click(later)
	b.wait("the week of Gil's later shift", `document.querySelector('#week').dataset.week === `+jsQuote(inTwoWeeks)+` && document.querySelector('#week .shift.unstaffed')`)
	if n := len(shiftsOn(t, a, admin, nextMonday, isoDate(mondayT.AddDate(0, 0, 13)))); n != 2 {
		t.Fatalf("%d shifts next week, want 2", n)
	}

	// The phone: the plan opens at today's column.
	b.click("#this-week")
	b.wait("this week", `document.querySelector('#week').dataset.week === `+jsQuote(monday))
	b.do(chromedp.EmulateViewport(375, 800))
	b.open("/shifts")
	b.wait("the grid on the phone", `document.querySelector('#week .head.today')`)
	b.wait("today in view", `(() => { const g = document.querySelector('#week').getBoundingClientRect();
		const c = document.querySelector('#week .corner').getBoundingClientRect();
		const d = document.querySelector('#week .head.today').getBoundingClientRect();
		return d.left >= c.right - 1 && d.right <= g.right + 1; })()`)
	if !eval[bool](b, `document.documentElement.scrollWidth <= window.innerWidth`) {
		t.Error("at 375 px the page scrolls sideways")
	}
	b.screenshot("shifts-phone")
	b.do(chromedp.EmulateViewport(1280, 900))
}

// The time entries' labour-law notices are words behind a tap too, not a
// hover-only title.
func TestConsoleTimeEntryWarningsByTap(t *testing.T) {
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	sam := apiCreateStaff(t, a, admin, "sam@linde.test", "Sam Weber")
	// 7 hours without a break, ended an hour ago.
	out := time.Now().Add(-time.Hour).Truncate(time.Minute)
	in := out.Add(-7 * time.Hour)
	code, body := a.call(t, "POST", "/api/time-entries", admin, fmt.Sprintf(`{"user_id":%q,"clock_in":%q,"clock_out":%q,"reason":"Zettel"}`,
		sam, in.UTC().Format(time.RFC3339), out.UTC().Format(time.RFC3339)))
	if code != http.StatusCreated {
		t.Fatalf("enter an entry: %d %s", code, body)
	}
	loc, _ := time.LoadLocation("Europe/Berlin")
	b := newBrowser(t, a)
	b.open("/time?date=" + in.In(loc).Format("2006-01-02"))
	b.login("chef@linde.test", adminPassword)
	box := `#entries details.labour`
	b.wait("the entry's notice", `document.querySelector(`+jsQuote(box)+`)`)
	if eval[bool](b, `!!document.querySelector('#entries [title]')`) {
		t.Fatal("a hover-only title is left in the entries")
	}
	b.click(box + " summary")
	b.wait("the notice open", `document.querySelector(`+jsQuote(box)+`).open`)
	if got := b.text(box + " li"); got != "Pause zu kurz: 0 Min. Pause bei 7 Std. Arbeit – bei mehr als 6 Std. Arbeit sind mindestens 30 Min. nötig (ArbZG § 4)" {
		t.Fatalf("the notice reads %q", got)
	}
}
