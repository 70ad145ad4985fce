package store

import (
	"context"
	"testing"

	"posbox/store/storetest"
)

// The confirmation is per recovery key, stands once made (a second one
// changes nothing) and survives a restart; a new key has none.
func TestRecoverySheetConfirmation(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	clock := storetest.NewClock(testStart)
	st := openTestStore(t, dir, clock)
	if c, err := st.RecoverySheetConfirmation(ctx, "age1first"); c != nil || err != nil {
		t.Fatalf("before any confirmation: %+v %v", c, err)
	}
	c, err := st.ConfirmRecoverySheet(ctx, "age1first", "u1", "Anna Admin")
	if err != nil || c.ByName != "Anna Admin" || !c.ConfirmedAt.Equal(testStart) {
		t.Fatalf("confirm: %+v %v", c, err)
	}
	if _, err := st.ConfirmRecoverySheet(ctx, "age1first", "u2", "Bert Admin"); ErrorCode(err) != ERecoverySheetConfirmed {
		t.Fatalf("second confirmation: %v, want %s", err, ERecoverySheetConfirmed)
	}
	st.Close()

	st = openTestStore(t, dir, clock)
	c, err = st.RecoverySheetConfirmation(ctx, "age1first")
	if err != nil || c == nil || c.ByUserID != "u1" || c.ByName != "Anna Admin" || !c.ConfirmedAt.Equal(testStart) {
		t.Fatalf("after a restart: %+v %v", c, err)
	}
	if c, err := st.RecoverySheetConfirmation(ctx, "age1second"); c != nil || err != nil {
		t.Fatalf("a new key: %+v %v", c, err)
	}
}
