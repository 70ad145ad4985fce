package store

import (
	"context"
	"sync"
	"testing"
)

// A declared start cuts the planned range that reaches over it: the part
// before is set aside (failed, before_archive_start), the rest planned
// again from the start; the next plan goes on after it. Twenty admins
// declaring the same start at once record it once.
func TestTSEArchiveStartCutsThePlanOnce(t *testing.T) {
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "Archiv")
	admin := mustUser(t, st, r, "Ada Admin", RoleAdmin)
	ctx := context.Background()
	if _, err := st.PlanTSEArchiveRanges(ctx, r.ID, archTSS, archSerial, 250, 100); err != nil { // 1-100, 101-200, 201-250
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := st.SetTSEArchiveStart(ctx, r.ID, archTSS, archSerial, 150, 250, "vor posbox signiert", admin.ID); err == nil {
				mu.Lock()
				ok++
				mu.Unlock()
			} else if ErrorCode(err) != EValidation {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if ok != 1 {
		t.Fatalf("%d declarations of the same start succeeded, want 1", ok)
	}
	if _, err := st.PlanTSEArchiveRanges(ctx, r.ID, archTSS, archSerial, 300, 100); err != nil {
		t.Fatal(err)
	}
	all, err := st.TSEArchives(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]int64]string{}
	for _, a := range all {
		got[[2]int64{*a.FirstCounter, *a.LastCounter}] = a.State + "/" + a.ReasonCode
	}
	want := map[[2]int64]string{
		{1, 100}: "failed/" + ReasonArchiveStart, {101, 149}: "failed/" + ReasonArchiveStart,
		{150, 200}: "pending/", {201, 250}: "pending/", {251, 300}: "pending/",
	}
	if len(got) != len(want) {
		t.Fatalf("ranges %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("range %v is %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	s, err := st.TSEArchiveStateOf(ctx, archTSS)
	if err != nil || s.LastArchivedCounter != 149 || s.Start == nil || s.Start.SetByName != "Ada Admin" || s.Rejected != 0 {
		t.Fatalf("state %+v (%v)", s, err)
	}
	starts, err := st.TSEArchiveStarts(ctx, archTSS)
	if err != nil || len(starts) != 1 || starts[0].FirstCounter != 150 || starts[0].Reason != "vor posbox signiert" {
		t.Fatalf("starts %+v (%v)", starts, err)
	}
}
