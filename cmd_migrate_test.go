package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"posbox/retention"
	"posbox/store"
)

// posbox migrate --vacuum switches a database an older posbox made (no
// auto_vacuum) to incremental vacuum, keeping its rows; plain migrate
// leaves the mode alone, and short of free space it refuses.
func TestMigrateVacuumSwitchesAnOlderDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE older (x); INSERT INTO older VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	mode := func() int {
		t.Helper()
		st, err := store.Open(ctx, dir, store.Options{Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		fs, err := st.FileSpace(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return fs.AutoVacuum
	}
	var out bytes.Buffer
	if err := cmdMigrate(ctx, []string{"--data-dir", dir}, &out, &out); err != nil || mode() != store.AutoVacuumNone {
		t.Fatalf("plain migrate: %v, mode %d\n%s", err, mode(), out.String())
	}
	out.Reset()
	// Short of space, it refuses and changes nothing.
	vacuumSpace = func(string, int64) error {
		return errors.New("not enough free space on /tmp: 1 MiB free, 65 MiB needed")
	}
	err = cmdMigrate(ctx, []string{"--vacuum", "--data-dir", dir}, &out, &out)
	vacuumSpace = retention.CheckConvertSpace
	if err == nil || !strings.Contains(err.Error(), "not enough free space") || mode() != store.AutoVacuumNone {
		t.Fatalf("short of space: %v, mode %d", err, mode())
	}
	out.Reset()
	if err := cmdMigrate(ctx, []string{"--vacuum", "--data-dir", dir}, &out, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if m := mode(); m != store.AutoVacuumIncremental || !strings.Contains(out.String(), "switched to incremental vacuum") {
		t.Fatalf("mode %d after --vacuum; said:\n%s", m, out.String())
	}
}
