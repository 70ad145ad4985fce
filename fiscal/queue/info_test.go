package queue

import (
	"context"
	"testing"
	"time"
)

// The TSS info is stored when it changed or its stored fetch time is
// infoStoreEvery old, not on every read: each write made every reader
// drop its page cache. The box still answers with the exact fetch time.
func TestTSSInfoStoredWhenItChanges(t *testing.T) {
	e := newEnv(t, envOpts{})
	ctx := context.Background()
	stored := func() time.Time {
		t.Helper()
		info, ok, err := e.st.CachedTSEInfo(ctx, e.q.tssID)
		if err != nil || !ok {
			t.Fatalf("stored info: %v %v", ok, err)
		}
		return info.FetchedAt
	}
	read := func(wantState string) time.Time {
		t.Helper()
		info, fresh, err := e.q.TSS(ctx, e.restaurant.ID)
		if err != nil || !fresh || info.State != wantState {
			t.Fatalf("TSS: %+v fresh %v, %v; want state %s", info, fresh, err, wantState)
		}
		if !info.FetchedAt.Equal(e.clock.Now()) {
			t.Fatalf("answered fetched at %s, want now %s", info.FetchedAt, e.clock.Now())
		}
		return info.FetchedAt
	}
	first := read("INITIALIZED")
	if got := stored(); !got.Equal(first) {
		t.Fatalf("first read stored %s, want %s", got, first)
	}
	e.clock.Add(time.Minute)
	read("INITIALIZED")
	if got := stored(); !got.Equal(first) {
		t.Fatalf("an unchanged TSS a minute later was stored again (%s)", got)
	}
	e.clock.Add(infoStoreEvery)
	later := read("INITIALIZED")
	if got := stored(); !got.Equal(later) {
		t.Fatalf("after %s the stored fetch time is %s, want %s", infoStoreEvery, got, later)
	}
	e.clock.Add(time.Second)
	if err := e.sim.SetState("DISABLED"); err != nil {
		t.Fatal(err)
	}
	changed := read("DISABLED")
	info, _, _ := e.st.CachedTSEInfo(ctx, e.q.tssID)
	if info.State != "DISABLED" || !info.FetchedAt.Equal(changed) {
		t.Fatalf("a changed TSS was not stored at once: %+v", info)
	}
}
