package console_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"posbox/retention"
	"posbox/store"
)

// A box that was switched off for years: the retention job holds the old
// working times back, and the dashboard says why in plain German with the
// box's clock and the day; the owner confirms that the clock is right, the
// card says so, and the job's next run deletes the old record, after
// which the card is gone and the settings page keeps the record of who
// confirmed. Nothing of it shows a field name or a code.
func TestConsoleConfirmsTheClockForRetention(t *testing.T) {
	ctx := context.Background()
	a := newAppliance(t)
	admin := a.token(t, "chef@linde.test", adminPassword)
	if code, body := a.call(t, "POST", "/api/shifts/clock-in", admin, ""); code != http.StatusCreated {
		t.Fatalf("clock-in: %d %s", code, body) // the box is in use: its newest record is now
	}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	keptFrom := time.Date(time.Now().In(berlin).Year()-retention.TimeRecordsYears, time.January, 1, 0, 0, 0, 0, berlin)
	lastRun := keptFrom.AddDate(-3, 0, 0) // the last deletion, before the box was put away
	old := keptFrom.AddDate(0, -6, 0)
	if err := a.st.Write(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?)`,
			"retention.time_records_before."+a.restaurant.ID, store.FormatTime(lastRun), store.FormatTime(lastRun)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, created_at, updated_at)
			VALUES ('te-old', ?, ?, ?, ?, ?, ?)`, a.restaurant.ID, a.admin.ID, store.FormatTime(old), store.FormatTime(old.Add(time.Hour)),
			store.FormatTime(old), store.FormatTime(old))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	job := retention.New(a.st, retention.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if rep, err := job.Run(ctx); err != nil || rep.TimeEntries != 0 {
		t.Fatalf("the held run: %+v, %v", rep, err)
	}

	b := newBrowser(t, a)
	b.open("/")
	b.login("chef@linde.test", adminPassword)
	b.wait("the card", `document.querySelector('#retention')?.dataset.state === 'held'`)
	got := b.text("#retention")
	day := keptFrom.Format("02.01.2006")
	for _, want := range []string{"Alte Arbeitszeiten werden nicht gelöscht", "vor dem " + lastRun.Format("02.01.2006"), "vor dem " + day,
		"mehr als ein Jahr auf einmal", "lange ausgeschaltet", "Kassendaten löscht posbox nie", "Die Uhr stimmt"} {
		if !strings.Contains(got, want) {
			t.Errorf("card lacks %q: %q", want, got)
		}
	}
	for _, never := range []string{"cutoff", "delete_before", "retention", "kv"} {
		if strings.Contains(got, never) {
			t.Errorf("card shows %q: %q", never, got)
		}
	}
	b.screenshot("dashboard-retention-held")

	b.click("#retention-confirm")
	b.wait("the question", `document.querySelector('dialog.confirm[open]')`)
	if q := b.text("dialog.confirm"); !strings.Contains(q, "Stimmt das?") || !strings.Contains(q, "endgültig gelöscht") || !strings.Contains(q, day) {
		t.Errorf("the question: %q", q)
	}
	b.click("dialog.confirm button.danger")
	b.wait("the confirmed card", `document.querySelector('#retention')?.dataset.state === 'confirmed'`)
	if got := b.text("#retention-confirmed"); !strings.Contains(got, "Bestätigt von Clara Chef") || !strings.Contains(got, "innerhalb der nächsten Stunde") {
		t.Errorf("confirmed: %q", got)
	}
	b.screenshot("dashboard-retention-confirmed")

	if rep, err := job.Run(ctx); err != nil || rep.TimeEntries != 1 {
		t.Fatalf("the confirmed run: %+v, %v", rep.RetentionCounts, err)
	}
	b.open("/")
	b.wait("the dashboard", `document.querySelector('#clocked-in')`)
	if eval[bool](b, `!!document.querySelector('#retention')`) {
		t.Error("the card stays after the deletion")
	}

	// The settings page keeps the record: what went, who confirmed the clock.
	b.open("/settings")
	b.wait("the record", `document.querySelector('#retention-confirmations li')`)
	if got := b.text("#retention-card"); !strings.Contains(got, "Aufbewahrung") || !strings.Contains(got, "vor dem "+day+" endeten") ||
		!strings.Contains(got, "Clara Chef: Nachweise vor dem "+day) || !strings.Contains(got, "läuft stündlich") {
		t.Errorf("the settings' record: %q", got)
	}
	b.screenshot("settings-retention")
}
