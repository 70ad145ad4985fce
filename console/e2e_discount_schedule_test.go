package console_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// The discounts page's schedule: weekdays and times as rows (checkboxes,
// from, to; add and remove), a row without a day said before asking the
// API, the API's duplicate beside the schedule, the list's German
// summary, an edit that keeps, changes and removes the schedule; at a
// phone's width and a desktop's.
func TestConsoleDiscountSchedule(t *testing.T) {
	a := newAppliance(t)
	b := newBrowser(t, a)
	admin := a.token(t, "chef@linde.test", adminPassword)
	schedule := func(name string) string { // the API's schedule member, as JSON
		t.Helper()
		code, body := a.call(t, "GET", "/api/discounts", admin, "")
		if code != http.StatusOK {
			t.Fatalf("GET /api/discounts: %d %s", code, body)
		}
		var res struct {
			Discounts []struct {
				Name     string          `json:"name"`
				Value    float64         `json:"value"`
				Schedule json.RawMessage `json:"schedule"`
			}
		}
		if err := json.Unmarshal([]byte(body), &res); err != nil {
			t.Fatal(err)
		}
		for _, d := range res.Discounts {
			if d.Name == name {
				return string(d.Schedule)
			}
		}
		t.Fatalf("no discount %q", name)
		return ""
	}
	rowSel := func(i int) string {
		return fmt.Sprintf("#discount-schedule .schedule-rows > .schedule-row:nth-child(%d)", i)
	}
	day := func(i, d int) string { return fmt.Sprintf(`%s .day-checks input[value="%d"]`, rowSel(i), d) }
	listRow := `[...document.querySelectorAll('#discounts-active tr[data-id]')].find((r) => r.querySelector('strong').innerText === 'Feierabend')`

	b.open("/discounts")
	b.login("chef@linde.test", adminPassword)
	b.wait("the discounts page", `document.querySelector('#discounts-active .empty')`)
	b.click("#discount-new")
	b.wait("the form", `document.querySelector('#discount-form #discount-schedule')`)
	if n := eval[int](b, `document.querySelectorAll('#discount-schedule .schedule-row').length`); n != 0 {
		t.Fatalf("a new discount starts with %d schedule rows, want none (around the clock)", n)
	}
	if got := b.text("#discount-schedule .hint"); !strings.Contains(got, "rund um die Uhr") || !strings.Contains(got, "Mitternacht") {
		t.Fatalf("the schedule's hint: %q", got)
	}
	b.fill("#discount-form input[name=name]", "Feierabend")
	b.fill("#discount-form input[name=value]", "20")

	// A row without a weekday is said before asking the API.
	b.click("#schedule-add")
	b.fill(rowSel(1)+" .schedule-from", "17:00")
	b.fill(rowSel(1)+" .schedule-to", "19:00")
	b.click("#discount-form button[type=submit]")
	b.wait("the weekday's error", `document.querySelector('[data-field="schedule[0].days"] .error').innerText.includes('mindestens einen Wochentag')`)
	for d := 1; d <= 5; d++ {
		b.fill(day(1, d), "true")
	}
	// Friday and Saturday night, past midnight.
	b.click("#schedule-add")
	b.fill(day(2, 5), "true")
	b.fill(day(2, 6), "true")
	b.fill(rowSel(2)+" .schedule-from", "22:00")
	b.fill(rowSel(2)+" .schedule-to", "02:00")
	if got := b.text(rowSel(2) + " .schedule-label"); got != "Zeile 2" {
		t.Fatalf("second row's label %q", got)
	}
	b.screenshot("discounts-schedule-form")
	b.click("#discount-form button[type=submit]")
	b.wait("the discount listed", `!document.querySelector('#discount-form') && `+listRow)
	if got := eval[string](b, listRow+`.querySelector('.discount-schedule').innerText`); got != "Mo–Fr 17:00–19:00; Fr, Sa 22:00–02:00" {
		t.Fatalf("the list's summary %q", got)
	}
	want := `[{"days":[1,2,3,4,5],"from":"17:00","to":"19:00"},{"days":[5,6],"from":"22:00","to":"02:00"}]`
	if got := schedule("Feierabend"); got != want {
		t.Fatalf("stored schedule %s, want %s", got, want)
	}
	b.screenshot("discounts-schedule")

	// Edit: the rows come back as saved; the same window twice is the
	// API's 422, shown at the schedule.
	b.click(`#discounts-active tr[data-id] button.secondary`)
	b.wait("the edit form with its rows", `document.querySelectorAll('#discount-schedule .schedule-row').length === 2`)
	if !eval[bool](b, `document.querySelector('`+day(1, 3)+`').checked && !document.querySelector('`+day(1, 6)+`').checked && document.querySelector('`+rowSel(2)+` .schedule-to').value === '02:00'`) {
		t.Fatal("the edit form does not show the saved schedule")
	}
	b.click("#schedule-add")
	b.fill(day(3, 2), "true")
	b.fill(rowSel(3)+" .schedule-from", "17:00")
	b.fill(rowSel(3)+" .schedule-to", "19:00")
	b.click("#discount-form button[type=submit]")
	b.wait("the duplicate's error", `document.querySelector('#discount-schedule > .error').innerText !== ''`)
	if got := schedule("Feierabend"); got != want {
		t.Fatalf("a refused edit changed the schedule: %s", got)
	}
	// Remove the duplicate and the night row; only the value changes
	// otherwise.
	b.click(rowSel(3) + " .schedule-remove")
	b.click(rowSel(2) + " .schedule-remove")
	b.fill("#discount-form input[name=value]", "25")
	b.click("#discount-form button[type=submit]")
	b.wait("the edited summary", `!document.querySelector('#discount-form') && `+listRow+`.innerText.includes('25,00') && `+listRow+`.querySelector('.discount-schedule').innerText === 'Mo–Fr 17:00–19:00'`)
	if got, want := schedule("Feierabend"), `[{"days":[1,2,3,4,5],"from":"17:00","to":"19:00"}]`; got != want {
		t.Fatalf("edited schedule %s, want %s", got, want)
	}

	// An edit of the value alone keeps the schedule; removing every row
	// makes the discount apply around the clock.
	b.click(`#discounts-active tr[data-id] button.secondary`)
	b.wait("the edit form", `document.querySelectorAll('#discount-schedule .schedule-row').length === 1`)
	b.click(rowSel(1) + " .schedule-remove")
	b.click("#discount-form button[type=submit]")
	b.wait("no summary", `!document.querySelector('#discount-form') && `+listRow+` && !`+listRow+`.querySelector('.discount-schedule')`)
	if got := schedule("Feierabend"); got != "null" {
		t.Fatalf("schedule after removing every row %s, want null", got)
	}
}
