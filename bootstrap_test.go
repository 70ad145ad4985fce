package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"posbox/store"
)

// The generated password file of the first admin goes away with the first
// password change of that admin, and only then.
func TestInitialPasswordFileRemovedOnFirstChange(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	var st *store.Store
	st, err := store.Open(ctx, cfg.DataDir, store.Options{Logger: log, BcryptCost: 4,
		PasswordChanged: func(u *store.User) { forgetInitialPassword(ctx, st, cfg, u, log) }})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := bootstrap(ctx, st, cfg, log); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(cfg.DataDir, adminPasswordFile)
	admin, err := st.UserByEmail(ctx, cfg.AdminEmail)
	if err != nil {
		t.Fatal(err)
	}
	other := &store.User{RestaurantID: admin.RestaurantID, Email: "sam@test.local", Name: "Sam", Role: store.RoleAdmin}
	if err := st.CreateUser(ctx, other, "password1"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpdateUser(ctx, other.RestaurantID, other.ID, store.UserUpdate{Password: store.Of("password2")}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpdateUser(ctx, admin.RestaurantID, admin.ID, store.UserUpdate{Name: store.Of("Chef")}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the file went before the admin's password changed: %v", err)
	}
	if _, err := st.UpdateUser(ctx, admin.RestaurantID, admin.ID, store.UserUpdate{Password: store.Of("my-own-password")}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the generated password file is still there: %v", err)
	}
}

// The first admin must replace the generated password at the first
// login; on a box set up before posbox asked, the mark is added at the
// next start while the generated password's file is still there, and
// not once the admin chose their own.
func TestGeneratedPasswordMustBeChanged(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	st, err := store.Open(ctx, cfg.DataDir, store.Options{Logger: log, BcryptCost: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := bootstrap(ctx, st, cfg, log); err != nil {
		t.Fatal(err)
	}
	flag := func() bool {
		t.Helper()
		u, err := st.UserByEmail(ctx, cfg.AdminEmail)
		if err != nil {
			t.Fatal(err)
		}
		return u.MustChangePassword
	}
	if !flag() {
		t.Fatal("the first admin is not asked to change the generated password")
	}
	unmark := func() {
		t.Helper()
		if err := st.Write(ctx, func(tx *store.Tx) error {
			_, err := tx.ExecContext(ctx, `UPDATE users SET must_change_password = 0`)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	unmark() // as an older release left it
	if err := bootstrap(ctx, st, cfg, log); err != nil {
		t.Fatal(err)
	}
	if !flag() {
		t.Fatal("an older box's generated password is not marked")
	}
	unmark()
	if err := os.Remove(filepath.Join(cfg.DataDir, adminPasswordFile)); err != nil {
		t.Fatal(err)
	}
	if err := bootstrap(ctx, st, cfg, log); err != nil {
		t.Fatal(err)
	}
	if flag() {
		t.Fatal("marked although the generated password is gone")
	}
}
