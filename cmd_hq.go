package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"

	"posbox/internal/logging"
	"posbox/replica"
)

const hqUsage = `usage: posbox hq [--data-dir DIR] [--config FILE] [--listen HOST:PORT] --follow URL [--follow URL ...] [--key-file F ...]
       posbox hq key [--data-dir DIR] [--config FILE]

Runs HQ mode: follows the replicas of a chain's boxes read-only (never
writing to a box) and serves the chain's console and GET /api/hq/restaurants
on --listen (the addr setting). --follow and --key-file may be repeated,
or set as hq_follow and hq_key_file in the config. Without --key-file HQ
reads the replicas with its own key, DATA_DIR/hq.key.
HQ has its own users; the first start makes its admin
(DATA_DIR/initial-admin-password), as a box does.

key  makes HQ's key (DATA_DIR/hq.key, mode 0600) if there is none and
     prints its public key: every box lists it in replica_recipients.
See docs/HQ.md.`

// cmdHQ is "posbox hq" and "posbox hq key".
func cmdHQ(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "key" {
		return cmdHQKey(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("hq", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, hqUsage); fs.PrintDefaults() }
	var follow, keyFiles listValue
	var listenAddr string
	fs.Var(&follow, "follow", "a box's replica URL to follow (repeat for each box)")
	fs.Var(&keyFiles, "key-file", "an age key file that opens the boxes' replicas (repeatable; default DATA_DIR/hq.key)")
	fs.StringVar(&listenAddr, "listen", "", "listen address HOST:PORT (the addr setting)")
	cfg, err := loadConfig(fs, args, "addr", "token_ttl", "log_format", "log_level", "admin_email", "timezone")
	if err != nil {
		return usageErr(err)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	cfg.HQFollow = append(cfg.HQFollow, follow...)
	cfg.HQKeyFiles = append(cfg.HQKeyFiles, keyFiles...)
	if listenAddr != "" {
		cfg.Addr = listenAddr
	}
	log := logging.New(cfg.logOptions(), stderr)
	slog.SetDefault(log)
	return serveHQ(ctx, cfg, log, nil)
}

// cmdHQKey is "posbox hq key": HQ's public key, made if need be.
func cmdHQKey(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("hq key", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, hqUsage); fs.PrintDefaults() }
	cfg, err := loadConfig(fs, args)
	if err != nil {
		return usageErr(err)
	}
	id, created, err := replica.LoadOrCreateHQKey(cfg.DataDir)
	if err != nil {
		return err
	}
	state := "HQ's key"
	if created {
		state = "made HQ's key"
	}
	fmt.Fprintf(stdout, `%s: %s (keep it on HQ; it opens every box's replica that lists its public key)
public key: %s

On every box, add the public key to the config and restart the service:
  replica_recipients = %s
Objects the box uploads from then on are readable by HQ; the older ones
are merged into readable ones by the box's compaction (the daily
snapshot at the latest).
`, state, filepath.Join(cfg.DataDir, replica.HQKeyFile), id.Recipient(), id.Recipient())
	return nil
}
