package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"posbox/internal/poll"
	"posbox/notify"
	"posbox/replica"
	"posbox/store"
)

// A replica away for longer than replica_stall_after raises
// replication_stalled once, in the German text the owner reads, and its
// return replication_recovered once. The watcher's clock runs two hours
// ahead: no test waits an hour.
func TestReplicationStallIsRaisedOnce(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	dir := t.TempDir()
	st, err := store.Open(ctx, dir, store.Options{Logger: log, BcryptCost: 4, ExternalCheckpoints: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := &store.Restaurant{Name: "Trattoria", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(ctx, r); err != nil {
		t.Fatal(err)
	}
	notifyOn(t, st, r, store.EventReplicationStalled, store.EventReplicationRecovered) // so the events are stored
	repDir := filepath.Join(t.TempDir(), "nas")
	if err := os.Mkdir(repDir, 0o700); err != nil {
		t.Fatal(err)
	}
	id, _, err := replica.LoadOrCreateKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := replica.Start(ctx, st.Path(), replica.Options{URL: "file://" + repDir, Identity: id, Logger: log, SyncInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer closeReplica(rep, log)
	user := func(n string) {
		t.Helper()
		if err := st.CreateUser(ctx, &store.User{RestaurantID: r.ID, Email: n + "@x.example", Name: n, Role: store.RoleStaff}, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	user("ada")
	poll.Until(t, 60*time.Second, "a first upload", func() bool { return !rep.Status().ReplicatedAt.IsZero() })

	cfg := DefaultConfig()
	w := newStallWatcher(st, rep.Status, cfg, log)
	w.Now = func() time.Time { return time.Now().Add(2 * time.Hour) }
	events := func(typ string) []*store.Event {
		evs, err := st.Events(ctx, r.ID, typ, 10)
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}
	if err := os.Rename(repDir, repDir+".away"); err != nil { // the NAS unmounted
		t.Fatal(err)
	}
	if err := os.WriteFile(repDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	user("ben") // the sale goes on
	poll.Until(t, 60*time.Second, "the failed upload in the status", func() bool { return rep.Status().LastError != "" })
	for range 3 {
		w.Check(ctx)
	}
	stalled := events(store.EventReplicationStalled)
	if len(stalled) != 1 {
		t.Fatalf("%d replication_stalled events, want 1", len(stalled))
	}
	text := notify.Render(notify.LangDE, stalled[0].Type, stalled[0].Data, time.UTC).Subject
	if !strings.HasPrefix(text, "Datensicherung außer Haus: seit ") || !strings.Contains(text, "nichts übertragen") {
		t.Errorf("text: %s", text)
	}

	if err := os.Remove(repDir); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(repDir+".away", repDir); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, 5*time.Minute, "the catch-up", func() bool {
		s := rep.Status()
		return s.LastError == "" && s.BacklogFiles == 0
	})
	for range 2 {
		w.Check(ctx)
	}
	if n, m := len(events(store.EventReplicationRecovered)), len(events(store.EventReplicationStalled)); n != 1 || m != 1 {
		t.Fatalf("%d replication_recovered and %d replication_stalled events, want 1 and 1", n, m)
	}
}

// The data dir's files failing for replica_stall_after, the database
// going up: the owner is told the archive and keys stay on the box.
func TestFilesStallSaysTheArchiveStays(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.Open(ctx, t.TempDir(), store.Options{Logger: log, BcryptCost: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := &store.Restaurant{Name: "Trattoria", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(ctx, r); err != nil {
		t.Fatal(err)
	}
	notifyOn(t, st, r, store.EventReplicationStalled) // so the event is stored
	now := time.Now()
	status := func() replica.Status {
		return replica.Status{URL: "file:///mnt/nas/posbox", ReplicatedAt: now, ReplicatedThrough: now,
			FilesError: "put blob: permission denied", FilesErrorSince: now.Add(-2 * time.Hour)}
	}
	w := newStallWatcher(st, status, DefaultConfig(), log)
	w.Check(ctx)
	evs, err := st.Events(ctx, r.ID, store.EventReplicationStalled, 10)
	if err != nil || len(evs) != 1 {
		t.Fatalf("%d replication_stalled events (%v), want 1", len(evs), err)
	}
	if text := notify.Render(notify.LangDE, evs[0].Type, evs[0].Data, time.UTC).Subject; !strings.Contains(text, "TSE-Archiv und Schlüssel nicht übertragen") {
		t.Errorf("text: %s", text)
	}
}
