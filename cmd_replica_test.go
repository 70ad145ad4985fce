package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"posbox/replica"
)

// posbox replica key prints the recovery sheet with the private key;
// status never does; both say plainly when there is no key yet.
func TestReplicaCommands(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("POSBOX_REPLICA_URL", "sftp://backup:hunter2@nas.local:22/posbox")
	cmd := func(args ...string) (string, string, int) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), append(args, "--data-dir", dir), strings.NewReader(""), &out, &errOut)
		return out.String(), errOut.String(), code
	}
	if _, stderr, code := cmd("replica", "key"); code == 0 || !strings.Contains(stderr, "no recovery key") {
		t.Fatalf("key without a key: exit %d, %q", code, stderr)
	}
	if out, _, code := cmd("replica", "status"); code != 0 || !strings.Contains(out, "none yet") {
		t.Fatalf("status without a key: exit %d, %q", code, out)
	}

	id, _, err := replica.LoadOrCreateKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := cmd("replica", "key")
	if code != 0 || !strings.Contains(out, id.String()) || !strings.Contains(out, id.Recipient().String()) ||
		!strings.Contains(out, "sftp://backup:xxxxx@nas.local:22/posbox") || strings.Contains(out, "hunter2") {
		t.Fatalf("key: exit %d\n%s", code, out)
	}
	out, _, code = cmd("replica", "status")
	if code != 0 || strings.Contains(out, "AGE-SECRET-KEY") || strings.Contains(out, "hunter2") || !strings.Contains(out, id.Recipient().String()) {
		t.Fatalf("status: exit %d\n%s", code, out)
	}
	if _, _, code := cmd("replica", "nonsense"); code == 0 {
		t.Fatal("replica nonsense: exit 0")
	}
}

// The server's view: off without a URL; a replication that did not start
// is an error with the key's public half, never "off".
func TestReplicaViewFailedStart(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	if v := replicaView(cfg, nil); v != nil {
		t.Fatalf("replication off: view %v, want nil", v)
	}
	id, _, err := replica.LoadOrCreateKey(cfg.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ReplicaURL = "sftp://backup:hunter2@nas.local:22/posbox"
	st := replicaView(cfg, nil).ReplicaStatus()
	if st.LastError == "" || st.ErrorSince.IsZero() || st.PublicKey != id.Recipient().String() || strings.Contains(st.URL, "hunter2") {
		t.Fatalf("failed start: %+v", st)
	}
}
