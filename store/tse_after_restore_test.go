package store

import (
	"context"
	"testing"
	"time"
)

// A start that stops between recording the restore and removing its
// marker records it again: one comparison. A second finish (two runs
// racing) keeps the first result, and a late failed attempt does not
// touch it.
func TestTSEAfterRestoreIsRecordedOnce(t *testing.T) {
	ctx := context.Background()
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "Linde")
	id, through := NewID(), clock.Now().Add(-time.Minute)
	for range 2 {
		if _, err := st.StartTSEAfterRestore(ctx, id, r.ID, "tss-1", clock.Now(), &through, nil); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := st.ReadDB().QueryRowContext(ctx, `SELECT COUNT(*) FROM tse_after_restore`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("rows %d %v", n, err)
	}
	p, err := st.PendingTSEAfterRestore(ctx, r.ID)
	if err != nil || p.ID != id || p.ComparedFrom != nil || !p.ReplicatedThrough.Equal(through) {
		t.Fatalf("pending: %+v %v", p, err)
	}
	tx := TSEMissingTx{TxID: NewID(), Number: 7, SignatureCounter: 20, State: "FINISHED", TimeStart: clock.Now(), ClientID: NewID()}
	if err := st.FinishTSEAfterRestore(ctx, id, []TSEMissingTx{tx}); err != nil {
		t.Fatal(err)
	}
	if err := st.FinishTSEAfterRestore(ctx, id, nil); err != nil {
		t.Fatal(err)
	}
	a, err := st.LatestTSEAfterRestore(ctx, r.ID)
	if err != nil || a.State != AfterRestoreDone || len(a.Missing) != 1 || a.Missing[0].TxID != tx.TxID || a.Attempts != 1 {
		t.Fatalf("done: %+v %v", a, err)
	}
	if _, err := st.PendingTSEAfterRestore(ctx, r.ID); !IsNotFound(err) {
		t.Fatalf("pending after done: %v", err)
	}
	if err := st.RecordTSEAfterRestoreAttempt(ctx, id, "late"); err != nil {
		t.Fatal(err)
	}
	if a, _ := st.LatestTSEAfterRestore(ctx, r.ID); a.LastError != "" || a.Attempts != 1 {
		t.Fatalf("an attempt recorded on a finished comparison: %+v", a)
	}
}
