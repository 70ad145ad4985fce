package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"

	"posbox/retention"
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
		if err := migrateVacuum(ctx, st, stdout); err != nil {
			return err
		}
	}
	fmt.Fprintln(stdout, "database is up to date:", st.Path())
	return nil
}

// vacuumSpace checks the free space for the VACUUM (tests replace it).
var vacuumSpace = retention.CheckConvertSpace

// migrateVacuum runs the one VACUUM after the retention job's free-space
// check. posbox holds no lock on the data dir: the operator stops the
// service first (docs/RETENTION.md); a running one would wait behind the
// VACUUM.
func migrateVacuum(ctx context.Context, st *store.Store, stdout io.Writer) error {
	fs, err := st.FileSpace(ctx)
	if err != nil {
		return err
	}
	if fs.AutoVacuum == store.AutoVacuumIncremental {
		fmt.Fprintln(stdout, "database is in incremental vacuum already")
		return nil
	}
	if err := vacuumSpace(filepath.Dir(st.Path()), fs.Bytes()); err != nil {
		return fmt.Errorf("the database is not switched to incremental vacuum: %w", err)
	}
	if err := st.ConvertToIncrementalVacuum(ctx); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "database switched to incremental vacuum")
	return nil
}
