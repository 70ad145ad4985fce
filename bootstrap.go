package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"posbox/internal/secretfile"
	"posbox/store"
)

const (
	jwtKeyFile        = "jwt.key"
	adminPasswordFile = "initial-admin-password"
	// bootstrapAdminKey (kv) names the admin whose password is in
	// adminPasswordFile.
	bootstrapAdminKey = "bootstrap.admin_id"
)

// loadJWTKey reads the token signing key from the data dir, creating a
// random 32-byte key (mode 0600) on first use.
func loadJWTKey(dataDir string) ([]byte, error) {
	path := filepath.Join(dataDir, jwtKeyFile)
	key, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		key = make([]byte, 32)
		rand.Read(key)
		if err := secretfile.Create(path, key); err != nil {
			return nil, err
		}
		return key, nil
	}
	if err != nil {
		return nil, err
	}
	if len(key) < 32 {
		return nil, fmt.Errorf("%s holds %d bytes; want at least 32", path, len(key))
	}
	return key, nil
}

// bootstrap creates the first restaurant and its admin when the database
// has no user yet, and writes the admin's password to the data dir. The
// admin must choose a password of their own at the first login.
func bootstrap(ctx context.Context, st *store.Store, cfg Config, log *slog.Logger) error {
	n, err := st.CountUsers(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return markGeneratedPassword(ctx, st, cfg)
	}
	rs, err := st.Restaurants(ctx)
	if err != nil {
		return err
	}
	var r *store.Restaurant
	if len(rs) > 0 {
		r = rs[0]
	} else {
		r = &store.Restaurant{Name: "My Restaurant", Timezone: cfg.Timezone}
		if err := st.CreateRestaurant(ctx, r); err != nil {
			return err
		}
	}
	password := rand.Text()
	path := filepath.Join(cfg.DataDir, adminPasswordFile)
	_ = os.Remove(path) // a stale file from an earlier, emptied database
	if err := secretfile.Create(path, []byte(password+"\n")); err != nil {
		return err
	}
	u := &store.User{RestaurantID: r.ID, Email: cfg.AdminEmail, Name: "Administrator", Role: store.RoleAdmin, MustChangePassword: true}
	if err := st.CreateUser(ctx, u, password); err != nil {
		return fmt.Errorf("create admin: %w", err)
	}
	if err := st.SetKV(ctx, bootstrapAdminKey, u.ID); err != nil {
		return err
	}
	log.Info("first start: created the restaurant and its admin",
		"restaurant_id", r.ID, "email", u.Email, "password_file", path)
	return nil
}

// markGeneratedPassword asks the first admin of a box set up before
// posbox asked for a new password (migration 00013) to choose one, while
// the generated password is still in use: its file is still there (it
// goes with the first change).
func markGeneratedPassword(ctx context.Context, st *store.Store, cfg Config) error {
	if _, err := os.Stat(filepath.Join(cfg.DataDir, adminPasswordFile)); err != nil {
		return nil
	}
	id, ok, err := st.KV(ctx, bootstrapAdminKey)
	if err != nil || !ok {
		return err
	}
	u, err := st.UserByID(ctx, id)
	if store.IsNotFound(err) || (err == nil && u.MustChangePassword) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := st.RequirePasswordChange(ctx, id); !store.IsNotFound(err) {
		return err
	}
	return nil
}

// forgetInitialPassword removes the first admin's generated password file
// once that admin has a password of their own: the file would otherwise
// only mislead (its password no longer works), and a file that is still
// there tells a technician the generated password is still in use.
func forgetInitialPassword(ctx context.Context, st *store.Store, cfg Config, u *store.User, log *slog.Logger) {
	id, ok, err := st.KV(ctx, bootstrapAdminKey)
	if err != nil || !ok || id != u.ID {
		return
	}
	path := filepath.Join(cfg.DataDir, adminPasswordFile)
	if err := os.Remove(path); err == nil {
		log.Info("the first admin changed the generated password; its file is removed", "file", path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		log.Warn("remove the generated admin password file", "file", path, "err", err)
	}
}
