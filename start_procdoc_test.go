package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"posbox/store"
)

// The procedure document says how the box is set up without a secret:
// the replica's kind, not its URL with user, password and host; not the
// backup passphrase, the SMTP or SMS credentials, nor a user's email or
// password hash.
func TestProcedureDocumentHoldsNoSecret(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	passFile := filepath.Join(dir, "backup.pass")
	if err := os.WriteFile(passFile, []byte("Pferd-Batterie-Heftklammer\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.DataDir, cfg.BackupDir, cfg.BackupPassphraseFile = dir, filepath.Join(dir, "backups"), passFile
	cfg.ReplicaURL = "sftp://kasse:Geheim-Replica-42@nas.linde.example:2222/srv/posbox"
	cfg.ReplicaRecipients = "age1qyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqs3290gq"
	cfg.SMTPPassword, cfg.SMSToken = "smtp-Geheim-7", "sms-Geheim-8"
	st, r, _ := procDocBox(t, dir)
	v, err := newProcDoc(st, nil, true, cfg).Current(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"Geheim", "kasse", "nas.linde.example", "2222", "Pferd", "chef@linde.example", "$2a$", "age1"} {
		if strings.Contains(v.Content, secret) {
			t.Errorf("the document holds %q: %s", secret, v.Content)
		}
	}
	for _, want := range []string{`"target_kind":"sftp"`, `"extra_recipients":1`, `"names":["Chefin"]`, `"encrypted":false`} {
		if !strings.Contains(v.Content, want) {
			t.Errorf("the document lacks %s: %s", want, v.Content)
		}
	}
}

// Every start records the program it runs unless it is the one the last
// start ran: the same binary twice is one row, a new release another.
func TestRecordProgramAtStart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	oldVersion, oldBuild := version, build
	t.Cleanup(func() { version, build = oldVersion, oldBuild })
	start := func(v string) {
		t.Helper()
		version, build = v, "commit-"+v
		st, err := store.Open(ctx, dir, store.Options{Logger: log})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := recordProgram(ctx, st, log); err != nil {
			t.Fatal(err)
		}
	}
	start("v1.0.0")
	start("v1.0.0")
	start("v1.1.0")
	st, err := store.Open(ctx, dir, store.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := st.ProgramChanges(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Version != "v1.0.0" || rows[1].Version != "v1.1.0" || rows[1].Build != "commit-v1.1.0" {
		t.Fatalf("program changes %+v, want v1.0.0 and v1.1.0 once each", rows)
	}
}

// The archive's declared first counter and its reason are in the
// procedure document (docs/FISCAL.md, "The procedure document").
func TestProcedureDocumentNamesTheArchiveStart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cfg := DefaultConfig()
	cfg.DataDir, cfg.BackupDir = dir, filepath.Join(dir, "backups")
	st, r, admin := procDocBox(t, dir)
	v, err := newProcDoc(st, nil, true, cfg).Current(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(v.Content, `"first_counter":null`) {
		t.Fatalf("no start declared, yet: %s", v.Content)
	}
	const why = "Die TSE signierte drei Monate vor posbox; fiskaly hält nur drei Monate vor."
	if _, err := st.SetTSEArchiveStart(ctx, r.ID, "tss-1", strings.Repeat("ab", 32), 120, 500, why, admin.ID); err != nil {
		t.Fatal(err)
	}
	v, err = newProcDoc(st, nil, true, cfg).Current(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"first_counter":120`, why} {
		if !strings.Contains(v.Content, want) {
			t.Errorf("the document lacks %s: %s", want, v.Content)
		}
	}
}

// procDocBox is a store in dir with a restaurant and its admin.
func procDocBox(t *testing.T, dir string) (*store.Store, *store.Restaurant, *store.User) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dir, store.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), BcryptCost: bcrypt.MinCost})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := &store.Restaurant{Name: "Linde", Timezone: "Europe/Berlin"}
	if err := st.CreateRestaurant(ctx, r); err != nil {
		t.Fatal(err)
	}
	admin := &store.User{RestaurantID: r.ID, Email: "chef@linde.example", Name: "Chefin", Role: store.RoleAdmin}
	if err := st.CreateUser(ctx, admin, "Admin-Geheim-9"); err != nil {
		t.Fatal(err)
	}
	return st, r, admin
}
