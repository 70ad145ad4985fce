package store

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
)

const archTSS, archSerial = "5a4b8f7e-0000-4000-8000-000000000001", "ab12"

// Runs of the nightly job and a resume planning at the same moment, with
// the TSS's counter moving on: the ranges stay contiguous from 1, never
// overlap and never exceed the split.
func TestTSEArchivePlanConcurrentRangesContiguous(t *testing.T) {
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "Archiv")
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := st.PlanTSEArchiveRanges(ctx, r.ID, archTSS, archSerial, int64(100+i*97), 250)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	rows, err := st.OpenTSEArchives(ctx, archTSS)
	if err != nil {
		t.Fatal(err)
	}
	next := int64(1)
	ids := map[string]bool{}
	for _, a := range rows {
		if *a.FirstCounter != next {
			t.Fatalf("range %d-%d after %d: not contiguous", *a.FirstCounter, *a.LastCounter, next-1)
		}
		if n := *a.LastCounter - *a.FirstCounter + 1; n > 250 || n < 1 {
			t.Fatalf("range %d-%d holds %d counters", *a.FirstCounter, *a.LastCounter, n)
		}
		if ids[a.ExportID] {
			t.Fatalf("export id %s twice", a.ExportID)
		}
		ids[a.ExportID] = true
		next = *a.LastCounter + 1
	}
	if want := int64(100 + 39*97); next-1 != want {
		t.Fatalf("planned up to %d, want %d", next-1, want)
	}
}

// The database itself refuses overlapping incremental ranges: a plan row
// that overlaps (insert trigger) and an archived one that would (update
// trigger), whatever path writes them.
func TestTSEArchiveOverlapRefusedByTheDatabase(t *testing.T) {
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "Archiv")
	ctx := context.Background()
	rows, err := st.PlanTSEArchiveRanges(ctx, r.ID, archTSS, archSerial, 100, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.ArchiveTSEArchive(ctx, rows[0].ID, archResult(1, 100, "a.tar")); err != nil {
		t.Fatal(err)
	}
	now := FormatTime(testStart)
	err = st.Write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO tse_archives (id, restaurant_id, tss_id, tss_serial, kind, first_counter, last_counter,
			export_id, state, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, 'incremental', 50, 150, ?, 'pending', ?, ?, ?)`,
			NewID(), r.ID, archTSS, archSerial, NewID(), now, now, now)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), ETSEArchiveOverlap) {
		t.Fatalf("overlapping plan row: %v, want the trigger's %s", err, ETSEArchiveOverlap)
	}
	// A dates export over the same counters is fine, until something
	// tries to archive it as part of the chain.
	id := NewID()
	err = st.Write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO tse_archives (id, restaurant_id, tss_id, tss_serial, kind, first_counter, last_counter,
			start_date, end_date, export_id, state, next_attempt_at, created_at, updated_at)
			VALUES (?, ?, ?, ?, 'dates', 50, 150, ?, ?, ?, 'pending', ?, ?, ?)`,
			id, r.ID, archTSS, archSerial, now, now, NewID(), now, now, now)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.Write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE tse_archives SET kind = 'incremental', state = 'archived', verification = 'passed',
			file_name = 'b.tar', sha256 = 'x' WHERE id = ?`, id)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), ETSEArchiveOverlap) {
		t.Fatalf("archiving an overlapping range: %v, want the trigger's %s", err, ETSEArchiveOverlap)
	}
	if n := queryInt(t, st, `SELECT COUNT(*) FROM tse_archives WHERE state = 'archived'`); n != 1 {
		t.Fatalf("%d archived rows, want 1", n)
	}
}

// Many workers finishing the same range at once (a resume racing the
// job): exactly one archives it, the rest are refused.
func TestTSEArchiveConcurrentArchiveOnce(t *testing.T) {
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "Archiv")
	ctx := context.Background()
	rows, err := st.PlanTSEArchiveRanges(ctx, r.ID, archTSS, archSerial, 500, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := st.ArchiveTSEArchive(ctx, rows[0].ID, archResult(1, 500, "a.tar")); err == nil {
				mu.Lock()
				ok++
				mu.Unlock()
			} else if ErrorCode(err) != EConflict {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if ok != 1 {
		t.Fatalf("%d workers archived the range, want 1", ok)
	}
	// A result that does not cover the planned range is refused.
	rows, _ = st.PlanTSEArchiveRanges(ctx, r.ID, archTSS, archSerial, 900, 1000)
	if _, err := st.ArchiveTSEArchive(ctx, rows[0].ID, archResult(501, 899, "b.tar")); ErrorCode(err) != EConflict {
		t.Fatalf("short result archived: %v", err)
	}
}

// A TAR that fails verification keeps its range pending with the reason,
// a new export id for the next attempt, and one tse_error event.
func TestTSEArchiveRejectKeepsRangePending(t *testing.T) {
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "Archiv")
	notifyOn(t, st, r, EventTSEError) // so the event is stored
	ctx := context.Background()
	rows, _ := st.PlanTSEArchiveRanges(ctx, r.ID, archTSS, archSerial, 300, 1000)
	a := rows[0]
	if err := st.StartTSEArchiveExport(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	next := testStart.Add(12 * time.Hour)
	if err := st.RejectTSEArchive(ctx, a, next, TSEArchiveFinding{Code: "tar_gap", Reason: "the TAR failed verification: signature counter 7 missing",
		Details: map[string]any{"missing_from": 7, "missing_to": 7}}); err != nil {
		t.Fatal(err)
	}
	got, err := st.TSEArchive(ctx, r.ID, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != TSEArchivePending || got.Verification != TSEVerificationFailed || got.ReasonCode != "tar_gap" ||
		got.ExportID == a.ExportID || !got.NextAttemptAt.Equal(next) || got.Attempts != 1 {
		t.Fatalf("after rejection: %+v", got)
	}
	evs := eventsOf(t, st, r.ID, EventTSEError)
	if len(evs) != 1 {
		t.Fatalf("%d tse_error events, want 1", len(evs))
	}
	var data map[string]any
	_ = json.Unmarshal(evs[0].Data, &data)
	if data["reason"] != "archive_verification_failed" || data["error_code"] != "tar_gap" || data["first_counter"] != float64(1) ||
		data["missing_from"] != float64(7) {
		t.Fatalf("event data %v", data)
	}
	state, err := st.TSEArchiveStateOf(ctx, archTSS)
	if err != nil {
		t.Fatal(err)
	}
	if state.Rejected != 1 || state.Open != 1 || state.LastArchivedCounter != 0 || !strings.Contains(state.LastProblem, "counter 7") {
		t.Fatalf("state %+v", state)
	}
}

func archResult(first, last int64, name string) TSEArchiveResult {
	return TSEArchiveResult{FirstCounter: first, LastCounter: last, LogMessages: last - first + 1, FirstLogTime: testStart,
		LastLogTime: testStart, FileName: name, SizeBytes: 1024, SHA256: strings.Repeat("ab", 32)}
}

// The archived chain ends where the first range not archived begins, even
// with a younger range archived beyond it; the last archiving is the
// newest of any range. Once the gap is archived the chain reaches the end.
func TestTSEArchiveStateChainEndsAtTheFirstRangeNotArchived(t *testing.T) {
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "Archiv")
	ctx := context.Background()
	state := func() *TSEArchiveState {
		t.Helper()
		s, err := st.TSEArchiveStateOf(ctx, archTSS)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := state(); s.LastArchivedCounter != 0 || s.LastArchivedAt != nil {
		t.Fatalf("before any range: %+v", s)
	}
	rows, err := st.PlanTSEArchiveRanges(ctx, r.ID, archTSS, archSerial, 40, 10)
	if err != nil || len(rows) != 4 {
		t.Fatalf("planned %d ranges, %v", len(rows), err)
	}
	if s := state(); s.LastArchivedCounter != 0 || s.Open != 4 {
		t.Fatalf("nothing archived yet: %+v", s)
	}
	for _, i := range []int{0, 1, 3} {
		clock.Add(time.Hour)
		if _, err := st.ArchiveTSEArchive(ctx, rows[i].ID, archResult(*rows[i].FirstCounter, *rows[i].LastCounter, rows[i].ID+".tar")); err != nil {
			t.Fatal(err)
		}
	}
	newest := clock.Now()
	if s := state(); s.LastArchivedCounter != 20 || s.LastArchivedAt == nil || !s.LastArchivedAt.Equal(newest) || s.Open != 1 {
		t.Fatalf("with 21-30 not archived: %+v, want the chain to end at 20 and last archived at %s", s, newest)
	}
	clock.Add(time.Hour)
	if _, err := st.ArchiveTSEArchive(ctx, rows[2].ID, archResult(21, 30, "gap.tar")); err != nil {
		t.Fatal(err)
	}
	if s := state(); s.LastArchivedCounter != 40 || !s.LastArchivedAt.Equal(clock.Now()) || s.Open != 0 {
		t.Fatalf("all archived: %+v", s)
	}
}
