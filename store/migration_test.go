package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/pressly/goose/v3"

	"posbox/migrations"
	"posbox/store/storetest"
)

// A database of the release before 00006 keeps its discounts through the
// table rebuild, and afterwards takes a 0 % discount.
func TestMigrationKeepsDiscountsAndAllowsZeroPercent(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := databaseAt(t, dir, 5,
		`INSERT INTO restaurants (id, name, timezone, created_at) VALUES ('r1', 'R', 'Europe/Berlin', '2026-11-01T00:00:00.000Z')`,
		`INSERT INTO discounts (id, restaurant_id, name, discount_type, value, valid_from, usage_limit, usage_count, created_at, updated_at)
			VALUES ('d1', 'r1', 'Lunch', 'percentage', 1250, '2026-11-01T00:00:00.000Z', 10, 3, '2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z')`,
	)
	if _, err := db.ExecContext(ctx, `INSERT INTO discounts (id, restaurant_id, name, discount_type, value, valid_from, created_at, updated_at)
		VALUES ('d0', 'r1', 'Zero', 'percentage', 0, '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')`); err == nil {
		t.Fatal("version 5 took a 0 % discount")
	}
	db.Close()

	st, err := Open(ctx, dir, testStoreOptions(storetest.NewClock(testStart)))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ds, err := st.Discounts(ctx, "r1")
	if err != nil || len(ds) != 1 {
		t.Fatalf("after the migration: %v %v", ds, err)
	}
	if d := ds[0]; d.Name != "Lunch" || d.Value != 1250 || d.UsageCount != 3 || d.UsageLimit == nil || *d.UsageLimit != 10 {
		t.Fatalf("after the migration: %+v", d)
	}
	if n := queryInt(t, st, `SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'discounts_restaurant_created'`); n != 1 {
		t.Fatalf("index missing after the rebuild")
	}
	if _, err := st.wdb.ExecContext(ctx, `INSERT INTO discounts (id, restaurant_id, name, discount_type, value, valid_from, created_at, updated_at)
		VALUES ('d0', 'r1', 'Zero', 'percentage', 0, '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')`); err != nil {
		t.Fatalf("0 %% after the migration: %v", err)
	}
	if _, err := st.wdb.ExecContext(ctx, `INSERT INTO discounts (id, restaurant_id, name, discount_type, value, valid_from, created_at, updated_at)
		VALUES ('f0', 'r1', 'Free', 'fixed', 0, '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')`); err == nil {
		t.Fatal("a fixed discount of 0 was stored")
	}
}

// A database of version 7 takes 00008: its restaurants get the default
// time-clock settings, its punches stay punches, and the history it adds
// refuses UPDATE and DELETE.
func TestMigrationTimeClock(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := databaseAt(t, dir, 7,
		`INSERT INTO restaurants (id, name, timezone, created_at) VALUES ('r1', 'R', 'Europe/Berlin', '2026-11-01T00:00:00.000Z')`,
		`INSERT INTO users (id, restaurant_id, email, name, role, password_hash, created_at, updated_at)
			VALUES ('u1', 'r1', 'a@b.example', 'A', 'admin', 'x', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')`,
		`INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, break_minutes, created_at, updated_at)
			VALUES ('t1', 'r1', 'u1', '2026-11-01T08:00:00.000Z', '2026-11-01T16:00:00.000Z', 30, '2026-11-01T08:00:00.000Z', '2026-11-01T16:00:00.000Z')`,
	)
	db.Close()

	st, err := Open(ctx, dir, testStoreOptions(storetest.NewClock(testStart)))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r, err := st.Restaurant(ctx, "r1")
	if err != nil || r.FederalState != "" || r.OpenEntryLimitHours != 16 || r.MinRestHours != 11 {
		t.Fatalf("restaurant after 00008: %+v %v", r, err)
	}
	e, err := st.TimeEntry(ctx, "r1", "t1")
	if err != nil || e.Source != EntryClock || e.Corrected || e.StaffNumber != "" {
		t.Fatalf("entry after 00008: %+v %v", e, err)
	}
	admin, err := st.User(ctx, "r1", "u1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CorrectTimeEntry(ctx, r, admin, "t1", EntryUpdate{BreakMinutes: Of(45)}, "longer lunch"); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`UPDATE time_entry_corrections SET reason = 'x'`, `DELETE FROM time_entry_corrections`} {
		if err := st.Write(ctx, func(tx *Tx) error { _, err := tx.ExecContext(ctx, q); return err }); err == nil {
			t.Fatalf("%s was allowed", q)
		}
	}
	if n := queryInt(t, st, `SELECT count(*) FROM time_entry_corrections WHERE reason = 'longer lunch'`); n != 1 {
		t.Fatalf("%d history rows", n)
	}
}

// databaseAt is a database file in dir migrated to version (an older
// release's) with rows inserted, still open so a test can probe it before
// Open migrates it the rest of the way.
func databaseAt(t *testing.T, dir string, version int64, rows ...string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(filepath.Join(dir, FileName))+"?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, migrations.FS, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(context.Background(), version); err != nil {
		t.Fatal(err)
	}
	for _, q := range rows {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// A database of version 11 takes 00013's rebuild of users: every user,
// and every row that refers to one, stays; nobody must change a password
// yet; a staff member without an email can then be stored, an admin
// without one cannot.
func TestMigrationUsersWithoutEmail(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := databaseAt(t, dir, 11,
		`INSERT INTO restaurants (id, name, timezone, created_at) VALUES ('r1', 'R', 'Europe/Berlin', '2026-11-01T00:00:00.000Z')`,
		`INSERT INTO users (id, restaurant_id, email, name, role, password_hash, created_at, updated_at, token_version, staff_number)
			VALUES ('u1', 'r1', 'A@b.example', 'A', 'admin', 'x', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z', 3, '1001')`,
		`INSERT INTO users (id, restaurant_id, email, name, role, password_hash, created_at, updated_at, deleted_at)
			VALUES ('u2', 'r1', 'gone@b.example', 'Gone', 'staff', 'x', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z')`,
		`INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, clock_out, break_minutes, created_at, updated_at)
			VALUES ('t1', 'r1', 'u2', '2026-11-01T08:00:00.000Z', '2026-11-01T16:00:00.000Z', 30, '2026-11-01T08:00:00.000Z', '2026-11-01T16:00:00.000Z')`,
	)
	db.Close()

	st, err := Open(ctx, dir, testStoreOptions(storetest.NewClock(testStart)))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u, err := st.User(ctx, "r1", "u1")
	if err != nil || u.Email != "A@b.example" || u.TokenVersion != 3 || u.StaffNumber != "1001" || u.MustChangePassword || u.HasPIN() {
		t.Fatalf("after 00013: %+v %v", u, err)
	}
	if _, err := st.UserByEmail(ctx, "a@B.example"); err != nil {
		t.Fatalf("the email is no longer case-insensitive: %v", err)
	}
	if n := queryInt(t, st, `SELECT count(*) FROM users WHERE id = 'u2' AND deleted_at IS NOT NULL`); n != 1 {
		t.Fatal("the deleted user is gone")
	}
	if n := queryInt(t, st, `SELECT count(*) FROM pragma_foreign_key_check`); n != 0 {
		t.Fatalf("%d foreign keys broken", n)
	}
	for _, idx := range []string{"users_email", "users_restaurant", "users_staff_number"} {
		if n := queryInt(t, st, `SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = '`+idx+`'`); n != 1 {
			t.Fatalf("index %s missing after the rebuild", idx)
		}
	}
	// The time entry still points at its user: deleting the user's row is refused.
	if err := st.Write(ctx, func(tx *Tx) error { _, err := tx.ExecContext(ctx, `DELETE FROM users WHERE id = 'u2'`); return err }); err == nil {
		t.Fatal("foreign keys are not enforced after the rebuild")
	}
	kim := &User{RestaurantID: "r1", Name: "Kim", Role: RoleStaff, StaffNumber: "K1"}
	if err := st.CreateUserWith(ctx, kim, "", "4711"); err != nil {
		t.Fatal(err)
	}
	if err := st.Write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO users (id, restaurant_id, name, role, password_hash, staff_number, pin_hash, created_at, updated_at)
			VALUES ('u9', 'r1', 'X', 'admin', '', '9', 'h', '', '')`)
		return err
	}); err == nil {
		t.Fatal("the database stored an admin without an email")
	}
}
