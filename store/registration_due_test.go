package store

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"
)

func TestRegistrationDeadlineIsOneMonthLater(t *testing.T) {
	for on, want := range map[string]string{"2026-11-20": "2026-12-20", "2027-01-31": "2027-02-28", "2028-01-30": "2028-02-29",
		"2026-12-15": "2027-01-15", "2026-08-31": "2026-09-30"} {
		if got := RegistrationDeadline(on); got != want {
			t.Errorf("RegistrationDeadline(%s) = %s, want %s", on, got, want)
		}
	}
}

// dueEvents is r's registration_due events as change/subject/date/due_by.
func dueEvents(t *testing.T, st *Store, r *Restaurant) []registrationDuePayload {
	t.Helper()
	var out []registrationDuePayload
	evs := eventsOf(t, st, r.ID, EventRegistrationDue)
	for i := len(evs) - 1; i >= 0; i-- {
		var p registrationDuePayload
		if err := json.Unmarshal(evs[i].Data, &p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func saveMaster(t *testing.T, st *Store, r *Restaurant, m *FiscalMasterData) {
	t.Helper()
	if _, err := st.SetFiscalMasterData(context.Background(), r.ID, m); err != nil {
		t.Fatal(err)
	}
}

func masterWith(regs ...FiscalRegister) *FiscalMasterData {
	return &FiscalMasterData{BusinessName: "Trattoria", Country: "DEU", LocationCountry: "DEU", Registers: regs}
}

// TestRegistrationDueOnceForEachRegisterChange: a new register, a
// changed date in service and a date out of service each raise
// registration_due once, with the deadline a month on; saving the same
// again, or changing only brand or the business name, raises nothing.
func TestRegistrationDueOnceForEachRegisterChange(t *testing.T) {
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "Trattoria")
	mustRule(t, st, r, EventRegistrationDue, true)
	k1 := FiscalRegister{ClientSerial: "KASSE-1", Brand: "Sunmi", AcquiredOn: "2026-11-01"}
	saveMaster(t, st, r, masterWith(k1))
	saveMaster(t, st, r, masterWith(k1)) // the same again
	want := []registrationDuePayload{{RegisterInService, "KASSE-1", "2026-11-01", "2026-12-01"}}
	if got := dueEvents(t, st, r); !equalPayloads(got, want) {
		t.Fatalf("after a new register: %+v, want %+v", got, want)
	}
	// Unrelated edits.
	k1.Brand, k1.Model = "Lenovo", "Tab M10"
	m := masterWith(k1)
	m.BusinessName, m.TaxNumber = "Trattoria Roma", "12/345/67890"
	saveMaster(t, st, r, m)
	if got := dueEvents(t, st, r); len(got) != 1 {
		t.Fatalf("an unrelated edit raised %+v", got[1:])
	}
	// A register without dates is in service today (the restaurant's
	// date: 23:30 UTC is the next day in Berlin).
	clock.Set(time.Date(2026, 11, 22, 23, 30, 0, 0, time.UTC))
	k2 := FiscalRegister{ClientSerial: "KASSE-2"}
	saveMaster(t, st, r, masterWith(k1, k2))
	k1.InServiceOn = "2026-11-05"
	saveMaster(t, st, r, masterWith(k1, k2))
	k1.DecommissionedOn = "2026-11-20"
	saveMaster(t, st, r, masterWith(k1, k2))
	saveMaster(t, st, r, masterWith(k1, k2))
	want = append(want, registrationDuePayload{RegisterInService, "KASSE-2", "2026-11-23", "2026-12-23"},
		registrationDuePayload{RegisterInService, "KASSE-1", "2026-11-05", "2026-12-05"},
		registrationDuePayload{RegisterOutOfService, "KASSE-1", "2026-11-20", "2026-12-20"})
	if got := dueEvents(t, st, r); !equalPayloads(got, want) {
		t.Fatalf("events %+v\nwant %+v", got, want)
	}
	open, err := st.OpenRegistrationChanges(context.Background(), r.ID)
	if err != nil || len(open) != 4 || open[0].DueOn != "2026-12-01" {
		t.Fatalf("open changes %+v (%v), want 4, the earliest due 2026-12-01", open, err)
	}
}

func equalPayloads(a, b []registrationDuePayload) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRegistrationDueOnceUnderConcurrentSaves: eight admins save the
// same new register at once; one change is recorded and one event raised.
func TestRegistrationDueOnceUnderConcurrentSaves(t *testing.T) {
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "Trattoria")
	mustRule(t, st, r, EventRegistrationDue, true)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := st.SetFiscalMasterData(context.Background(), r.ID,
				masterWith(FiscalRegister{ClientSerial: "KASSE-9", AcquiredOn: "2026-11-10", DecommissionedOn: "2026-11-21"})); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got := dueEvents(t, st, r); len(got) != 2 {
		t.Fatalf("%d events, want 2 (in and out of service): %+v", len(got), got)
	}
	if n := queryInt(t, st, `SELECT count(*) FROM registration_changes WHERE restaurant_id = ?`, r.ID); n != 2 {
		t.Fatalf("%d changes recorded, want 2", n)
	}
}

// TestRegistrationDueForANewTSS: the first certified TSS is in service
// today; the same serial again changes nothing; a replacement puts the
// old one out of service and the new one in; the TSE dates the owner
// saves are changes of the TSS in service.
func TestRegistrationDueForANewTSS(t *testing.T) {
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "Trattoria")
	mustRule(t, st, r, EventRegistrationDue, true)
	ctx := context.Background()
	a, b := "aa", "bb"
	for _, s := range []string{a, a, a} {
		if err := st.NoteTSE(ctx, r.ID, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.NoteTSE(ctx, r.ID, b); err != nil {
		t.Fatal(err)
	}
	if err := st.NoteTSE(ctx, r.ID, b); err != nil {
		t.Fatal(err)
	}
	m := masterWith()
	m.TSEOutOfServiceOn = "2026-11-21"
	saveMaster(t, st, r, m)
	saveMaster(t, st, r, m)
	want := []registrationDuePayload{{TSEInService, a, "2026-11-22", "2026-12-22"},
		{TSEOutOfService, a, "2026-11-22", "2026-12-22"}, {TSEInService, b, "2026-11-22", "2026-12-22"},
		{TSEOutOfService, b, "2026-11-21", "2026-12-21"}}
	if got := dueEvents(t, st, r); !equalPayloads(got, want) {
		t.Fatalf("events %+v\nwant %+v", got, want)
	}
}

// TestRegistrationSubmittedCoversTheOpenChanges: marking the
// registration as submitted keeps the file, covers every open change
// (none is due any more), and the kept file can never be changed.
func TestRegistrationSubmittedCoversTheOpenChanges(t *testing.T) {
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "Trattoria")
	ctx := context.Background()
	saveMaster(t, st, r, masterWith(FiscalRegister{ClientSerial: "KASSE-1", AcquiredOn: "2026-11-01"}))
	if _, err := st.SubmitRegistration(ctx, r.ID, "2026-11-23", "<x/>", "admin"); ErrorCode(err) != EValidation {
		t.Fatalf("a date in the future: %v", err)
	}
	sub, err := st.SubmitRegistration(ctx, r.ID, "2026-11-22", "<x/>", "admin")
	if err != nil {
		t.Fatal(err)
	}
	if len(sub.Changes) != 1 || sub.File != "<x/>" || len(sub.SHA256) != 64 {
		t.Fatalf("submission %+v", sub)
	}
	if open, _ := st.OpenRegistrationChanges(ctx, r.ID); len(open) != 0 {
		t.Fatalf("still due after the submission: %+v", open)
	}
	for _, q := range []string{`UPDATE registration_submissions SET file = 'forged'`, `DELETE FROM registration_submissions`} {
		err := st.write(ctx, func(tx *Tx) error { _, err := tx.ExecContext(ctx, q); return err })
		if err == nil {
			t.Errorf("%s succeeded", q)
		}
	}
	// A later change is due again, and the same change after a
	// submission is a new one to report.
	saveMaster(t, st, r, masterWith(FiscalRegister{ClientSerial: "KASSE-1", AcquiredOn: "2026-11-01", DecommissionedOn: "2026-11-22"}))
	if open, _ := st.OpenRegistrationChanges(ctx, r.ID); len(open) != 1 || open[0].Change != RegisterOutOfService {
		t.Fatalf("open after a later change: %+v", open)
	}
}
