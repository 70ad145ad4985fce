package main

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

// With replica_url set the log says at start that the nightly backups
// hold the database only, also with a passphrase file.
func TestNightlyBackupWithReplication(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.BackupDir = t.TempDir()
	cfg.BackupPassphraseFile = "/etc/posbox/backup-passphrase"
	cfg.ReplicaURL = "file:///mnt/nas/posbox"
	startBackups(context.Background(), newScheduler(log), nil, cfg, log)
	if got := buf.String(); !strings.Contains(got, "nightly backups hold the database only: with replica_url") {
		t.Fatalf("log: %s", got)
	}
	buf.Reset()
	cfg.ReplicaURL = ""
	startBackups(context.Background(), newScheduler(log), nil, cfg, log)
	if got := buf.String(); !strings.Contains(got, "nightly backups are complete and encrypted") {
		t.Fatalf("log without replication: %s", got)
	}
}
