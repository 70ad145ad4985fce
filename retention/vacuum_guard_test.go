package retention

import (
	"bytes"
	"context"
	"database/sql"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"posbox/store"
)

// oldFile is a fixture on a database made before posbox set auto_vacuum.
func oldFile(t *testing.T, now time.Time) *fixture {
	t.Helper()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE older (x)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	return openFixture(t, dir, now)
}

// The one VACUUM that switches an older file holds off every write, so
// the job does it only on a quiet box (nobody clocked in, nothing
// recorded for 30 minutes, no TSE transaction open), never with
// replication on (it says to run posbox migrate --vacuum), and only when
// the temporary copy's disk has the space too; then it does.
func TestOldFileIsSwitchedOnlyOnAQuietBoxWithTheSpace(t *testing.T) {
	ctx := context.Background()
	night := local(2030, time.June, 2, 3, 41)
	f := oldFile(t, night)
	var out bytes.Buffer
	tmp := sqliteTempDir(os.Getenv)
	tmpFree := int64(1 << 40)
	job := func(replicated bool) *Job {
		j := New(f.st, Options{Logger: slog.New(slog.NewTextHandler(&out, nil)), Replicated: replicated})
		j.free = func(dir string) (int64, error) {
			if dir == tmp {
				return tmpFree, nil
			}
			return 1 << 40, nil
		}
		return j
	}
	try := func(what string, replicated bool, wantLog string) {
		t.Helper()
		out.Reset()
		rep, err := job(replicated).Run(ctx)
		if err != nil || rep.Converted {
			t.Fatalf("%s: %+v, %v; want no switch", what, rep, err)
		}
		if !strings.Contains(out.String(), wantLog) {
			t.Errorf("%s: the log says %q, want %q", what, out.String(), wantLog)
		}
	}

	f.exec(t, `INSERT INTO time_entries (id, restaurant_id, user_id, clock_in, created_at, updated_at)
		VALUES ('te-open', '`+f.rest.ID+`', '`+f.staff.ID+`', '`+ts(night.Add(-5*time.Hour))+`', '`+ts(night)+`', '`+ts(night)+`')`)
	try("someone clocked in", false, "clocked_in=1")
	f.exec(t, `UPDATE time_entries SET clock_out = '`+ts(night.Add(-4*time.Hour))+`'`)

	f.clock.Set(night.Add(-10 * time.Minute))
	f.touch(t)
	f.clock.Set(night)
	try("an event ten minutes ago", false, "waits for a quiet night")

	f.clock.Set(night.Add(24 * time.Hour))
	try("replication on", true, "posbox migrate --vacuum")
	tmpFree = 1 << 20
	try("no room for the temporary copy", false, "not enough free space on "+tmp)
	tmpFree = 1 << 40

	rep, err := job(false).Run(ctx)
	if err != nil || !rep.Converted {
		t.Fatalf("a quiet night: %+v, %v; want the switch", rep, err)
	}
}

// SQLite puts the temporary copy in SQLITE_TMPDIR, else TMPDIR, else
// /var/tmp or /tmp: the space is checked there.
func TestTheTemporaryCopysDirectoryIsSQLites(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	env := map[string]string{"SQLITE_TMPDIR": filepath.Join(a, "missing"), "TMPDIR": b}
	if got := sqliteTempDir(func(k string) string { return env[k] }); got != b {
		t.Errorf("with SQLITE_TMPDIR missing: %s, want TMPDIR %s", got, b)
	}
	env["SQLITE_TMPDIR"] = a
	if got := sqliteTempDir(func(k string) string { return env[k] }); got != a {
		t.Errorf("%s, want SQLITE_TMPDIR %s", got, a)
	}
}
