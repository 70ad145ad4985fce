package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"posbox/store"
)

// cmdMigrate is `posbox migrate`: apply the embedded migrations.
func cmdMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg, err := loadConfig(fs, args)
	if err != nil {
		return usageErr(err)
	}
	st, err := store.Open(ctx, cfg.DataDir, store.Options{Logger: slog.New(slog.NewTextHandler(stdout, nil))})
	if err != nil {
		return err
	}
	defer st.Close()
	fmt.Fprintln(stdout, "database is up to date:", st.Path())
	return nil
}
