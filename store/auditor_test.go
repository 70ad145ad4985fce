package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"posbox/store/storetest"
)

// A database of version 24 takes 00028's rebuild of users: every user
// with every column, and every row that refers to one, stays; the
// database then holds an auditor's shape (a last day, no till login) and
// keeps its log append-only.
func TestMigrationAuditor(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := databaseAt(t, dir, 24,
		`INSERT INTO restaurants (id, name, timezone, created_at) VALUES ('r1', 'R', 'Europe/Berlin', '2026-11-01T00:00:00.000Z')`,
		`INSERT INTO users (id, restaurant_id, email, name, role, password_hash, created_at, updated_at, token_version, staff_number,
			must_change_password, pin_hash) VALUES ('u1', 'r1', 'a@b.example', 'A', 'staff', 'x', '2026-11-01T00:00:00.000Z',
			'2026-11-01T00:00:00.000Z', 3, '1001', 1, 'pinhash')`,
		`INSERT INTO users (id, restaurant_id, email, name, role, password_hash, created_at, updated_at, deleted_at, erased_at)
			VALUES ('u2', 'r1', 'gone@b.example', 'Gone', 'staff', '', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z',
			'2026-11-02T00:00:00.000Z', '2026-11-02T00:00:00.000Z')`,
		`INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, break_minutes, created_at, updated_at)
			VALUES ('t1', 'r1', 'u2', '2026-11-01T08:00:00.000Z', '2026-11-01T16:00:00.000Z', 30, '2026-11-01T08:00:00.000Z', '2026-11-01T16:00:00.000Z')`,
	)
	db.Close()

	clock := storetest.NewClock(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	st, err := Open(ctx, dir, testStoreOptions(clock))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u, err := st.User(ctx, "r1", "u1")
	if err != nil || u.TokenVersion != 3 || u.StaffNumber != "1001" || !u.MustChangePassword || u.PINHash != "pinhash" || u.ValidUntil != "" {
		t.Fatalf("after 00028: %+v %v", u, err)
	}
	if n := queryInt(t, st, `SELECT count(*) FROM users WHERE id = 'u2' AND deleted_at IS NOT NULL AND erased_at IS NOT NULL`); n != 1 {
		t.Fatal("the erased user lost its marks")
	}
	if n := queryInt(t, st, `SELECT count(*) FROM pragma_foreign_key_check`); n != 0 {
		t.Fatalf("%d foreign keys broken", n)
	}
	for _, idx := range []string{"users_email", "users_restaurant", "users_staff_number"} {
		if n := queryInt(t, st, `SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = '`+idx+`'`); n != 1 {
			t.Fatalf("index %s missing after the rebuild", idx)
		}
	}
	if err := st.Write(ctx, func(tx *Tx) error { _, err := tx.ExecContext(ctx, `DELETE FROM users WHERE id = 'u2'`); return err }); err == nil {
		t.Fatal("foreign keys are not enforced after the rebuild")
	}
	// The database refuses an auditor without a last day, with a PIN, and
	// a last day for anyone else, whatever the code does.
	for _, q := range []string{
		`INSERT INTO users (id, restaurant_id, email, name, role, password_hash, created_at, updated_at) VALUES ('x1', 'r1', 'x1@b.example', 'X', 'auditor', 'x', '', '')`,
		`INSERT INTO users (id, restaurant_id, email, name, role, password_hash, created_at, updated_at, valid_until, staff_number, pin_hash)
			VALUES ('x2', 'r1', 'x2@b.example', 'X', 'auditor', 'x', '', '', '2026-12-01', '9', 'p')`,
		`INSERT INTO users (id, restaurant_id, email, name, role, password_hash, created_at, updated_at, valid_until) VALUES ('x3', 'r1', 'x3@b.example', 'X', 'staff', 'x', '', '', '2026-12-01')`,
		`INSERT INTO users (id, restaurant_id, email, name, role, password_hash, created_at, updated_at, valid_until) VALUES ('x4', 'r1', 'x4@b.example', 'X', 'auditor', 'x', '', '', '1.12.2026')`,
	} {
		if err := st.Write(ctx, func(tx *Tx) error { _, err := tx.ExecContext(ctx, q); return err }); err == nil || !strings.Contains(err.Error(), "CHECK") {
			t.Fatalf("%s: %v", q, err)
		}
	}
	a := &User{RestaurantID: "r1", Email: "p@finanzamt.example", Name: "Prüfer", Role: RoleAuditor, ValidUntil: "2026-11-30"}
	if err := st.CreateUser(ctx, a, "password1"); err != nil {
		t.Fatal(err)
	}
	if err := st.RecordAuditorRequest(ctx, a, "GET", "/api/tse/closings", 200); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`UPDATE auditor_requests SET target = '/'`, `DELETE FROM auditor_requests`} {
		if err := st.Write(ctx, func(tx *Tx) error { _, err := tx.ExecContext(ctx, q); return err }); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// An auditor's access holds through its last day in the restaurant's
// timezone and ends at the local midnight after it.
func TestAuditorValidIsTheLocalLastDay(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	u := &User{Role: RoleAuditor, ValidUntil: "2026-11-30"}
	for _, c := range []struct {
		at   time.Time
		want bool
	}{
		{time.Date(2026, 11, 30, 22, 59, 0, 0, time.UTC), true},
		{time.Date(2026, 11, 30, 23, 0, 0, 0, time.UTC), false},
		{time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), true},
	} {
		if got := u.AuditorValid(c.at, berlin); got != c.want {
			t.Errorf("at %v: valid %v, want %v", c.at, got, c.want)
		}
	}
	if !(&User{Role: RoleAdmin}).AuditorValid(time.Now(), berlin) {
		t.Error("an admin is not an auditor and always valid")
	}
}
