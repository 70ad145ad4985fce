package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"posbox/store"
)

// cmdBackup writes a consistent copy of the database while the appliance
// may be serving: posbox backup [--data-dir DIR] FILE.
func cmdBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: posbox backup [--data-dir DIR] [--config FILE] FILE")
		fs.PrintDefaults()
	}
	cfg, err := loadConfig(fs, args)
	if err != nil {
		return usageErr(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	dest, err := filepath.Abs(fs.Arg(0))
	if err != nil {
		return err
	}
	if err := store.BackupFile(ctx, filepath.Join(cfg.DataDir, store.FileName), dest); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "backup written and checked:", dest)
	return nil
}
