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
	path := filepath.Join(dir, FileName)
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, migrations.FS, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 5); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO restaurants (id, name, timezone, created_at) VALUES ('r1', 'R', 'Europe/Berlin', '2026-11-01T00:00:00.000Z')`,
		`INSERT INTO discounts (id, restaurant_id, name, discount_type, value, valid_from, usage_limit, usage_count, created_at, updated_at)
			VALUES ('d1', 'r1', 'Lunch', 'percentage', 1250, '2026-11-01T00:00:00.000Z', 10, 3, '2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z')`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
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
