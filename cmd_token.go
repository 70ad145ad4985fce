package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"posbox/server"
	"posbox/store"
	"time"
)

// cmdToken is `posbox token`: print an access token for a user.
func cmdToken(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("token", flag.ContinueOnError)
	fs.SetOutput(stderr)
	email := fs.String("email", "", "email of the user")
	cfg, err := loadConfig(fs, args, "token_ttl")
	if err != nil {
		return usageErr(err)
	}
	st, err := store.Open(ctx, cfg.DataDir, store.Options{Logger: quietLogger(stderr)})
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.UserByEmail(ctx, *email)
	if err != nil {
		return fmt.Errorf("%s: %w", *email, err)
	}
	if !u.IsActive {
		return fmt.Errorf("%s is disabled", *email)
	}
	key, err := loadJWTKey(cfg.DataDir)
	if err != nil {
		return err
	}
	tok, err := server.IssueToken(key, u, time.Now(), cfg.TokenTTL)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, tok)
	return nil
}
