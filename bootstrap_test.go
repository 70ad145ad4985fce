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
