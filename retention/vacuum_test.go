package retention

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"posbox/store"
)

// seedOldEvents adds n events of about 2 KB each, raised a year before now.
func seedOldEvents(t *testing.T, f *fixture, n int) {
	t.Helper()
	data := `{"note":"` + strings.Repeat("x", 2000) + `"}`
	at := ts(f.clock.Now().Add(-365 * 24 * time.Hour))
	for i := 0; i < n; i += 500 {
		var stmts []string
		for j := i; j < min(n, i+500); j++ {
			stmts = append(stmts, fmt.Sprintf(`INSERT INTO events (id, restaurant_id, type, data, created_at) VALUES ('%s', '%s', 'pos.note', '%s', '%s')`,
				store.NewID(), f.rest.ID, data, at))
		}
		f.exec(t, stmts...)
	}
}

// A new database is made in incremental auto-vacuum mode, and after a
// prune the job gives the freed pages back in steps of at most 512 pages
// (2 MiB): the file shrinks.
func TestFileShrinksAfterAPrune(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, local(2030, time.June, 1, 14, 0))
	seedOldEvents(t, f, 3000)
	full, err := f.st.FileSpace(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if full.AutoVacuum != store.AutoVacuumIncremental {
		t.Fatalf("a new database has auto_vacuum %d, want incremental", full.AutoVacuum)
	}

	j := f.job()
	var steps []int
	j.step = func(ctx context.Context, pages int) error {
		steps = append(steps, pages)
		return f.st.IncrementalVacuum(ctx, pages)
	}
	rep, err := j.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// In short writes: the tills wait behind one step, not the run.
	if len(steps) < 2 {
		t.Errorf("incremental_vacuum steps %v: want several short ones", steps)
	}
	for _, n := range steps {
		if n > 512 {
			t.Fatalf("incremental_vacuum steps of %v pages; want at most 512 each", steps)
		}
	}
	after, err := f.st.FileSpace(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Events != 3000 || rep.FreedPages == 0 {
		t.Errorf("report %+v: want 3000 events removed and pages freed", rep)
	}
	if after.FreelistCount != 0 || after.PageCount*2 > full.PageCount {
		t.Errorf("pages %d (free %d) before, %d (free %d) after: the file did not shrink to under half",
			full.PageCount, full.FreelistCount, after.PageCount, after.FreelistCount)
	}
	f.st.Close() // the checkpoint moves the shrink into the file itself
	fi, err := os.Stat(filepath.Join(filepath.Dir(f.st.Path()), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > after.Bytes() {
		t.Errorf("the file is %d bytes, SQLite counts %d", fi.Size(), after.Bytes())
	}
}

// A database made before posbox set auto_vacuum is switched over once,
// at night only, and then shrinks like a new one.
func TestOldFileIsSwitchedToIncrementalVacuumAtNight(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// An older posbox's file: a table before any auto_vacuum setting.
	db, err := sql.Open("sqlite", filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE older (x)`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	f := openFixture(t, dir, local(2030, time.June, 1, 14, 0))
	seedOldEvents(t, f, 1000)
	if fs, _ := f.st.FileSpace(ctx); fs.AutoVacuum != store.AutoVacuumNone {
		t.Fatalf("auto_vacuum %d: the fixture is not an old file", fs.AutoVacuum)
	}
	rep, err := f.job().Run(ctx)
	if err != nil || rep.Converted {
		t.Fatalf("in the afternoon: %+v, %v; want no switch", rep, err)
	}

	seedOldEvents(t, f, 1000)
	f.clock.Set(local(2030, time.June, 2, 3, 10))
	rep, err = f.job().Run(ctx)
	if err != nil || !rep.Converted {
		t.Fatalf("at 03:10: %+v, %v; want the switch", rep, err)
	}
	fs, err := f.st.FileSpace(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fs.AutoVacuum != store.AutoVacuumIncremental || fs.FreelistCount != 0 {
		t.Errorf("after the switch: %+v", fs)
	}
	if n := f.count(t, `SELECT count(*) FROM users`); n != 2 {
		t.Errorf("%d users after the VACUUM, want 2", n)
	}
}
