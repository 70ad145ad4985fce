package store

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"posbox/store/storetest"
)

// The program-change log gets one row per program the box starts with:
// a restart of the same program adds none, a new release one (with its
// first start's instant), a new commit of the same release one; a new
// database says it was made new (schema from 0).
func TestProgramVersionRecordedOncePerChange(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	clock := storetest.NewClock(testStart)
	start := func(version, build string) bool {
		t.Helper()
		st := openTestStore(t, dir, clock)
		defer st.Close()
		added, err := st.RecordProgramVersion(ctx, version, build)
		if err != nil {
			t.Fatal(err)
		}
		clock.Add(time.Hour)
		return added
	}
	if !start("v1.0.0", "abc") {
		t.Fatal("the first start recorded nothing")
	}
	for restart := 1; restart <= 2; restart++ {
		if start("v1.0.0", "abc") {
			t.Fatalf("restart %d of the same program added a row", restart)
		}
	}
	if !start("v1.1.0", "def") {
		t.Fatal("a new release was not recorded")
	}
	if !start("v1.1.0", "fed") {
		t.Fatal("a new build of the same release was not recorded")
	}
	st := openTestStore(t, dir, clock)
	got, err := st.ProgramChanges(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d rows, want 3: %+v", len(got), got)
	}
	want := []struct {
		version string
		at      time.Time
	}{{"v1.0.0", testStart}, {"v1.1.0", testStart.Add(3 * time.Hour)}, {"v1.1.0", testStart.Add(4 * time.Hour)}}
	for i, w := range want {
		if got[i].Version != w.version || !got[i].FirstSeenAt.Equal(w.at) || got[i].SchemaVersion != st.SchemaVersion() {
			t.Errorf("row %d: %+v, want %s first seen %v", i, got[i], w.version, w.at)
		}
	}
	if got[0].SchemaFrom == nil || *got[0].SchemaFrom != 0 {
		t.Errorf("the new database's row says schema from %v, want 0", got[0].SchemaFrom)
	}
	if got[1].SchemaFrom != nil {
		t.Errorf("a start without migrations says schema from %d", *got[1].SchemaFrom)
	}
}

// An upgrade that migrates the database records where the schema came
// from and went to.
func TestProgramVersionRecordsMigrations(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	databaseAt(t, dir, 24).Close()
	st := openTestStore(t, dir, storetest.NewClock(testStart))
	if _, err := st.RecordProgramVersion(ctx, "v2.0.0", "abc"); err != nil {
		t.Fatal(err)
	}
	got, err := st.ProgramChanges(ctx)
	if err != nil || len(got) != 1 {
		t.Fatalf("%+v %v", got, err)
	}
	if got[0].SchemaFrom == nil || *got[0].SchemaFrom != 24 || got[0].SchemaVersion != st.SchemaVersion() || st.SchemaVersion() <= 24 {
		t.Fatalf("row %+v (schema now %d), want from 24 to now", got[0], st.SchemaVersion())
	}
}

// "posbox migrate" moves the schema before the next start: that start
// finds no migration to run, and its row says the schema came from the
// one the row before ran with.
func TestProgramVersionAfterSeparateMigrate(t *testing.T) {
	ctx := context.Background()
	dir, clock := t.TempDir(), storetest.NewClock(testStart)
	st := openTestStore(t, dir, clock)
	// The row the last start of the old release left.
	if err := st.Write(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO program_changes (version, build, schema_version, schema_from, first_seen_at)
			VALUES ('v1.0.0', 'abc', 24, NULL, '2026-01-01T00:00:00.000Z')`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	st = openTestStore(t, dir, clock) // the start after posbox migrate: nothing left to migrate
	if added, err := st.RecordProgramVersion(ctx, "v2.0.0", "def"); err != nil || !added {
		t.Fatalf("added %v, %v", added, err)
	}
	got, err := st.ProgramChanges(ctx)
	if err != nil || len(got) != 2 {
		t.Fatalf("%+v %v", got, err)
	}
	if got[1].SchemaFrom == nil || *got[1].SchemaFrom != 24 || got[1].SchemaVersion != st.SchemaVersion() {
		t.Fatalf("row %+v, want from 24 to %d", got[1], st.SchemaVersion())
	}
}

// Starts at the same moment (two processes, a retried start) record the
// program once: the check and the insert are one write.
func TestProgramVersionConcurrentStarts(t *testing.T) {
	ctx := context.Background()
	st, _ := newTestStore(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	added := 0
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := st.RecordProgramVersion(ctx, "v1.0.0", "abc")
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				added++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if n := queryInt(t, st, `SELECT count(*) FROM program_changes`); n != 1 || added != 1 {
		t.Fatalf("%d rows, %d starts said they added one; want 1 and 1", n, added)
	}
}

// The log, the owner's texts and the document's versions are
// append-only in the database itself: no UPDATE or DELETE gets through,
// whatever the code does.
func TestProcedureDocumentTablesAreAppendOnly(t *testing.T) {
	ctx := context.Background()
	st, _ := newTestStore(t)
	r := mustRestaurant(t, st, "Linde")
	admin := mustUser(t, st, r, "Anna Admin", RoleAdmin)
	if _, err := st.RecordProgramVersion(ctx, "v1.0.0", "abc"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SaveOwnerText(ctx, r.ID, admin.ID, OwnerSections{Organisation: "GmbH"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecordProcDocVersion(ctx, r.ID, strings.Repeat("a", 64), `{}`); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE program_changes SET version = 'v0.9.0'`,
		`DELETE FROM program_changes`,
		`UPDATE procdoc_owner_texts SET organisation = 'other'`,
		`DELETE FROM procdoc_owner_texts`,
		`UPDATE procdoc_versions SET content = '{"x":1}'`,
		`DELETE FROM procdoc_versions`,
	} {
		err := st.Write(ctx, func(tx *Tx) error { _, err := tx.ExecContext(ctx, q); return err })
		if err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v, want refused as append-only", q, err)
		}
	}
	for table, want := range map[string]int64{"program_changes": 1, "procdoc_owner_texts": 1, "procdoc_versions": 1} {
		if n := queryInt(t, st, `SELECT count(*) FROM `+table); n != want {
			t.Errorf("%s has %d rows, want %d", table, n, want)
		}
	}
}

// Each save of the owner's text is a new version; the earlier ones stay
// as they were, with who saved them and when. A text too long or with a
// control character is refused and saves nothing.
func TestOwnerTextVersions(t *testing.T) {
	ctx := context.Background()
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "Linde")
	admin := mustUser(t, st, r, "Anna Admin", RoleAdmin)
	if o, err := st.OwnerText(ctx, r.ID); o != nil || err != nil {
		t.Fatalf("before any save: %+v %v", o, err)
	}
	first, err := st.SaveOwnerText(ctx, r.ID, admin.ID, OwnerSections{Organisation: "Inhaberin: Anna\nGmbH", CashCounting: "Täglich"})
	if err != nil || first.Version != 1 || first.SavedByName != "Anna Admin" {
		t.Fatalf("first save: %+v %v", first, err)
	}
	clock.Add(time.Hour)
	second, err := st.SaveOwnerText(ctx, r.ID, admin.ID, OwnerSections{Organisation: "Inhaber: Bert"})
	if err != nil || second.Version != 2 {
		t.Fatalf("second save: %+v %v", second, err)
	}
	for _, bad := range []OwnerSections{{TillOperation: strings.Repeat("x", MaxOwnerSectionLen+1)}, {InternalControl: "a\x00b"}} {
		if _, err := st.SaveOwnerText(ctx, r.ID, admin.ID, bad); ErrorCode(err) != EValidation {
			t.Errorf("bad text: %v, want %s", err, EValidation)
		}
	}
	all, err := st.OwnerTexts(ctx, r.ID)
	if err != nil || len(all) != 2 {
		t.Fatalf("%+v %v", all, err)
	}
	if all[0].Organisation != "Inhaber: Bert" || all[1].Organisation != "Inhaberin: Anna\nGmbH" || all[1].CashCounting != "Täglich" ||
		!all[1].SavedAt.Equal(testStart) || !all[0].SavedAt.Equal(testStart.Add(time.Hour)) {
		t.Fatalf("versions %+v", all)
	}
	if cur, err := st.OwnerText(ctx, r.ID); err != nil || cur.Version != 2 {
		t.Fatalf("current %+v %v", cur, err)
	}
}

// The same content is the same version; a change is the next one, and
// a return to earlier content is a new version too (it was valid again
// from then on).
func TestProcDocVersions(t *testing.T) {
	ctx := context.Background()
	st, clock := newTestStore(t)
	r := mustRestaurant(t, st, "Linde")
	a, b := strings.Repeat("a", 64), strings.Repeat("b", 64)
	steps := []struct {
		sha, content string
		want         int64
	}{{a, `{"a":1}`, 1}, {a, `{"a":1}`, 1}, {b, `{"b":1}`, 2}, {a, `{"a":1}`, 3}}
	for i, s := range steps {
		v, err := st.RecordProcDocVersion(ctx, r.ID, s.sha, s.content)
		if err != nil || v.Version != s.want {
			t.Fatalf("step %d: %+v %v, want version %d", i, v, err, s.want)
		}
		clock.Add(time.Minute)
	}
	list, err := st.ProcDocVersions(ctx, r.ID)
	if err != nil || len(list) != 3 || list[0].Version != 3 || list[2].Version != 1 || list[2].Content != "" {
		t.Fatalf("list %+v %v", list, err)
	}
	v2, err := st.ProcDocVersionAt(ctx, r.ID, 2)
	if err != nil || v2.Content != `{"b":1}` || !v2.GeneratedAt.Equal(testStart.Add(2*time.Minute)) {
		t.Fatalf("version 2: %+v %v", v2, err)
	}
	if _, err := st.ProcDocVersionAt(ctx, r.ID, 4); !IsNotFound(err) {
		t.Fatalf("version 4: %v", err)
	}
	other := mustRestaurant(t, st, "Eiche")
	if _, err := st.ProcDocVersionAt(ctx, other.ID, 1); !IsNotFound(err) {
		t.Fatalf("another restaurant's version 1: %v", err)
	}
}
