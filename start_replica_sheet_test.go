package main

import (
	"strings"
	"testing"

	"posbox/replica"
	"posbox/server"
)

// The server gets the recovery sheet of DATA_DIR/replica.key through the
// replication's view, with the URL redacted, also when replication did
// not start.
func TestReplicaViewRecoverySheet(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	id, _, err := replica.LoadOrCreateKey(cfg.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ReplicaURL = "sftp://backup:hunter2@nas.local:22/posbox"
	src, ok := replicaView(cfg, nil).(server.RecoverySheeter)
	if !ok {
		t.Fatal("the replication's view has no recovery sheet")
	}
	sh, err := src.RecoverySheet()
	if err != nil {
		t.Fatal(err)
	}
	if sh.RecoveryKey != id.String() || sh.PublicKey != id.Recipient().String() || strings.Contains(sh.URL+sh.RestoreCommand+sh.Text, "hunter2") ||
		!strings.HasPrefix(sh.RestoreCommand, "posbox restore --from '"+sh.URL+"'") || !strings.Contains(sh.Text, id.String()) {
		t.Fatalf("sheet: %+v", sh)
	}
}
