package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// Shift overlap straight on the store: no two non-cancelled shifts of one
// user may share an instant, also when the creates race.

// shiftFixture is a restaurant with an admin and two staff members.
type shiftFixture struct {
	st         *Store
	r          *Restaurant
	admin      *User
	sam, alex  *User
	restaurant string
}

func newShiftFixture(tb testing.TB) *shiftFixture {
	tb.Helper()
	st, _ := newTestStore(tb)
	r := mustRestaurant(tb, st, "R")
	return &shiftFixture{st: st, r: r, restaurant: r.ID,
		admin: mustUser(tb, st, r, "Ada Admin", RoleAdmin),
		sam:   mustUser(tb, st, r, "Sam Staff", RoleStaff),
		alex:  mustUser(tb, st, r, "Alex Cook", RoleStaff)}
}

// create schedules a shift of u; the error is the caller's to judge.
func (f *shiftFixture) create(u *User, date, start, end string) (*Shift, error) {
	sh := &Shift{UserID: u.ID, ShiftDate: date, StartTime: start, EndTime: end}
	err := f.st.CreateShift(context.Background(), f.r, f.admin, sh, true)
	return sh, err
}

// mustCreate schedules a shift that must be accepted.
func (f *shiftFixture) mustCreate(tb testing.TB, u *User, date, start, end string) *Shift {
	tb.Helper()
	sh, err := f.create(u, date, start, end)
	if err != nil {
		tb.Fatalf("shift %s %s-%s of %s: %v", date, start, end, u.Name, err)
	}
	return sh
}

// count is how many shifts the restaurant has, all statuses.
func (f *shiftFixture) count(tb testing.TB) int {
	tb.Helper()
	shifts, err := f.st.Shifts(context.Background(), f.restaurant, "", "")
	if err != nil {
		tb.Fatal(err)
	}
	return len(shifts)
}

// TestCreateShiftOverlap: an overlapping shift of the same user is refused
// with shift_overlap and not stored; touching shifts, other users' shifts
// and cancelled shifts do not block; a night shift blocks the next
// morning; reviving a cancelled shift checks again.
func TestCreateShiftOverlap(t *testing.T) {
	ctx := context.Background()
	f := newShiftFixture(t)
	notifyOn(t, f.st, f.r, EventShiftChange) // so the events are stored
	first := f.mustCreate(t, f.sam, "2026-12-01", "10:00", "14:00")
	if first.Status != ShiftPending || first.UserName != "Sam Staff" {
		t.Fatalf("created shift %+v", first)
	}

	for _, c := range [][2]string{{"13:00", "17:00"}, {"09:00", "10:01"}, {"11:00", "12:00"}, {"08:00", "16:00"}, {"10:00", "14:00"}} {
		if _, err := f.create(f.sam, "2026-12-01", c[0], c[1]); ErrorCode(err) != EShiftOverlap {
			t.Fatalf("%s-%s over 10:00-14:00: %v, want %s", c[0], c[1], err, EShiftOverlap)
		}
	}
	if n := f.count(t); n != 1 {
		t.Fatalf("%d shifts after refused overlaps, want 1", n)
	}
	if n := len(eventsOf(t, f.st, f.restaurant, EventShiftChange)); n != 1 {
		t.Fatalf("%d shift_change events, want 1 (a refused create raises none)", n)
	}

	// Touching ends are fine, before and after; so is another user.
	f.mustCreate(t, f.sam, "2026-12-01", "14:00", "18:00")
	f.mustCreate(t, f.sam, "2026-12-01", "06:00", "10:00")
	f.mustCreate(t, f.alex, "2026-12-01", "11:00", "13:00")

	// A night shift ends on the next day and blocks that morning.
	f.mustCreate(t, f.sam, "2026-12-01", "22:00", "02:00")
	if _, err := f.create(f.sam, "2026-12-02", "01:00", "05:00"); ErrorCode(err) != EShiftOverlap {
		t.Fatalf("01:00 after a night shift to 02:00: %v, want %s", err, EShiftOverlap)
	}
	f.mustCreate(t, f.sam, "2026-12-02", "02:00", "05:00")

	// A cancelled shift blocks nothing.
	if _, err := f.st.SetShiftStatus(ctx, f.r, f.admin, first.ID, ShiftCancelled); err != nil {
		t.Fatal(err)
	}
	replacement := f.mustCreate(t, f.sam, "2026-12-01", "11:00", "13:00")
	// Reviving it now would overlap the replacement.
	if _, err := f.st.SetShiftStatus(ctx, f.r, f.admin, first.ID, ShiftConfirmed); ErrorCode(err) != EShiftOverlap {
		t.Fatalf("reviving a cancelled shift over %s: %v, want %s", replacement.ID, err, EShiftOverlap)
	}
	if sh, err := f.st.Shift(ctx, f.restaurant, first.ID); err != nil || sh.Status != ShiftCancelled {
		t.Fatalf("refused revival: %+v, %v; want still cancelled", sh, err)
	}
	if n := f.count(t); n != 7 {
		t.Fatalf("%d shifts, want 7", n)
	}
}

// TestCreateShiftConcurrentOverlap: 16 creates of mutually overlapping
// shifts for one user at the same moment: exactly one is stored, the
// other 15 get shift_overlap.
func TestCreateShiftConcurrentOverlap(t *testing.T) {
	f := newShiftFixture(t)
	notifyOn(t, f.st, f.r, EventShiftChange) // so the events are stored
	const n = 16
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			// 10:00-14:00, 10:03-14:03, ...: every pair overlaps.
			_, errs[i] = f.create(f.sam, "2026-12-01", fmt.Sprintf("10:%02d", i*3), fmt.Sprintf("14:%02d", i*3))
		}()
	}
	close(start)
	wg.Wait()
	ok, overlap := 0, 0
	for i, err := range errs {
		switch {
		case err == nil:
			ok++
		case ErrorCode(err) == EShiftOverlap:
			overlap++
		default:
			t.Errorf("create %d: %v", i, err)
		}
	}
	if ok != 1 || overlap != n-1 {
		t.Fatalf("%d created, %d shift_overlap; want 1 and %d", ok, overlap, n-1)
	}
	if c := f.count(t); c != 1 {
		t.Fatalf("%d shifts stored, want 1", c)
	}
	if c := queryInt(t, f.st, `SELECT COUNT(*) FROM shifts WHERE user_id = ?`, f.sam.ID); c != 1 {
		t.Fatalf("%d shift rows for the user, want 1", c)
	}
	if c := len(eventsOf(t, f.st, f.restaurant, EventShiftChange)); c != 1 {
		t.Fatalf("%d shift_change events, want 1", c)
	}
}

// A list of shifts takes each user's name and state from the auth view:
// a rename, a disable and a delete show in the next list, and a deleted
// user's shift keeps the name.
func TestShiftListFollowsItsUsers(t *testing.T) {
	ctx := context.Background()
	f := newShiftFixture(t)
	sh := f.mustCreate(t, f.sam, "2026-12-01", "10:00", "14:00")
	f.mustCreate(t, f.alex, "2026-12-01", "12:00", "16:00")
	list := func() *Shift {
		t.Helper()
		shs, err := f.st.Shifts(ctx, f.restaurant, "2026-12-01", "2026-12-01")
		if err != nil || len(shs) != 2 {
			t.Fatalf("%d shifts, %v", len(shs), err)
		}
		for _, s := range shs {
			if s.ID == sh.ID {
				return s
			}
		}
		t.Fatalf("shift %s not listed", sh.ID)
		return nil
	}
	if s := list(); s.UserName != "Sam Staff" || !s.UserActive || s.RestaurantID != f.restaurant || s.StartsAt.IsZero() {
		t.Fatalf("listed %+v", s)
	}
	if _, err := f.st.UpdateUser(ctx, f.restaurant, f.sam.ID, UserUpdate{Name: Of("Samira Staff")}); err != nil {
		t.Fatal(err)
	}
	if s := list(); s.UserName != "Samira Staff" || !s.UserActive {
		t.Fatalf("after the rename: %q active %v", s.UserName, s.UserActive)
	}
	if _, err := f.st.UpdateUser(ctx, f.restaurant, f.sam.ID, UserUpdate{IsActive: Of(false)}); err != nil {
		t.Fatal(err)
	}
	if s := list(); s.UserActive || !s.Unstaffed() {
		t.Fatalf("after the disable: active %v unstaffed %v", s.UserActive, s.Unstaffed())
	}
	if err := f.st.DeleteUser(ctx, f.restaurant, f.sam.ID); err != nil {
		t.Fatal(err)
	}
	if s := list(); s.UserName != "Samira Staff" || s.UserActive {
		t.Fatalf("after the delete: %q active %v", s.UserName, s.UserActive)
	}
}
