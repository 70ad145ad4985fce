package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"posbox/store"
)

// cmdMigrate is `posbox migrate`: apply the embedded migrations; with
// --vacuum also switch a database made before posbox set auto_vacuum to
// incremental vacuum, for a file too large for the retention job to do it
// on its own at night (docs/RETENTION.md).
func cmdMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	vacuum := fs.Bool("vacuum", false, "also switch the database to incremental vacuum (one VACUUM: stop the service first; needs free space of twice the file)")
	cfg, err := loadConfig(fs, args)
	if err != nil {
		return usageErr(err)
	}
	st, err := store.Open(ctx, cfg.DataDir, store.Options{Logger: slog.New(slog.NewTextHandler(stdout, nil))})
	if err != nil {
		return err
	}
	defer st.Close()
	if *vacuum {
		if err := st.ConvertToIncrementalVacuum(ctx); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "database switched to incremental vacuum")
	}
	fmt.Fprintln(stdout, "database is up to date:", st.Path())
	return nil
}
