package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"posbox/replica"
)

const replicaUsage = `usage: posbox replica key|status [--data-dir DIR] [--config FILE]

key     prints the recovery sheet's text: the replica's recovery key (keep it
        off the box: without it the replica cannot be read), its public key
        and the replica's URL (without secrets).
status  prints what the box knows without the server: the URL (without
        secrets) and the recovery key's public key. The live state (last
        upload, backlog, errors) is the console's dashboard or GET /api/replica.
See docs/REPLICATION.md.`

// cmdReplica is "posbox replica key|status".
func cmdReplica(_ context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "key" && args[0] != "status") {
		fmt.Fprintln(stderr, replicaUsage)
		return errUsage
	}
	flags := flag.NewFlagSet("replica "+args[0], flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() { fmt.Fprintln(stderr, replicaUsage); flags.PrintDefaults() }
	cfg, err := loadConfig(flags, args[1:])
	if err != nil {
		return usageErr(err)
	}
	url := "(not set: replica_url is empty, replication is off)"
	if cfg.ReplicaURL != "" {
		url = replica.Redact(cfg.ReplicaURL)
	}
	keyFile := filepath.Join(cfg.DataDir, replica.KeyFile)
	id, err := replica.LoadKey(keyFile)
	if errors.Is(err, fs.ErrNotExist) {
		if args[0] == "key" {
			return fmt.Errorf("no recovery key in %s yet: it is made at the first start with replica_url set", cfg.DataDir)
		}
		fmt.Fprintf(stdout, "replica      %s\nrecovery key none yet (made at the first start with replica_url set)\n", url)
		return nil
	}
	if err != nil {
		return err
	}
	if args[0] == "status" {
		fmt.Fprintf(stdout, "replica      %s\npublic key   %s\nlive state   the console's dashboard, or GET /api/replica\n", url, id.Recipient())
		return nil
	}
	_, err = io.WriteString(stdout, replica.RecoverySheet(url, id))
	return err
}
