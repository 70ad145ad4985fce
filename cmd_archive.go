package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"posbox/fiscal/archive"
)

const archiveUsage = `usage: posbox archive copy [--data-dir DIR] [--config FILE] DEST

Copies the TSE archive (DATA_DIR/archive/tse: the verified TAR exports and
their .sha256 files) into the folder DEST, e.g. a USB stick for the tax
office or a second copy off the box. Every file is checked against its
.sha256 before and after copying; a file already in DEST with the same
content is left alone, one with other content is never overwritten. DEST
must exist. Works while the appliance runs. See docs/FISCAL.md.`

// cmdArchive is "posbox archive copy DEST".
func cmdArchive(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "copy" {
		fmt.Fprintln(stderr, archiveUsage)
		return errUsage
	}
	fs := flag.NewFlagSet("archive copy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, archiveUsage)
		fs.PrintDefaults()
	}
	cfg, err := loadConfig(fs, args[1:])
	if err != nil {
		return usageErr(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	src := filepath.Join(cfg.DataDir, archiveTSEDir)
	res, err := archive.Copy(ctx, src, fs.Arg(0))
	fmt.Fprintf(stdout, "%d file(s) copied, %d already there, from %s to %s\n", res.Copied, res.Present, src, fs.Arg(0))
	if res.Copied+res.Present > 0 {
		fmt.Fprintf(stdout, "check the copy: cd %s && sha256sum -c *.sha256\n", fs.Arg(0))
	}
	return err
}
