package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// fakeReplica stands in for package replica's Replicator: outside the
// box is the replica, so its state is what the test says it is.
type fakeReplica struct{ st ReplicaStatus }

func (f *fakeReplica) ReplicaStatus() ReplicaStatus { return f.st }

// replicaAnswer reads GET /api/replica as the admin.
func replicaAnswer(t *testing.T, e *testEnv) map[string]any {
	t.Helper()
	rec := e.do(t, "GET", "/api/replica", nil, e.adminToken)
	wantStatus(t, rec, http.StatusOK)
	var out map[string]map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out["replica"]
}

// Without replica_url the answer says "off" and nothing else.
func TestReplicaOff(t *testing.T) {
	e := newTestEnv(t)
	got := replicaAnswer(t, e)
	if got["enabled"] != false {
		t.Fatalf("enabled %v", got["enabled"])
	}
	for k, v := range got {
		if k != "enabled" && v != nil {
			t.Errorf("%s = %v with replication off, want null", k, v)
		}
	}
	_, staffToken := e.staff(t, "Sam Staff")
	wantProblem(t, e.do(t, "GET", "/api/replica", nil, staffToken), http.StatusForbidden, eForbidden)
}

// A replica that failed for a while after an upload: the owner sees
// where to, when it last worked, what waits and why, never a secret.
func TestReplicaFailing(t *testing.T) {
	e := newTestEnv(t)
	up := time.Date(2026, 11, 22, 8, 59, 0, 123456789, time.UTC)
	fake := &fakeReplica{ReplicaStatus{URL: "sftp://backup@nas.local:22/posbox", PublicKey: "age1qqexample",
		ReplicatedAt: up, LagSeconds: 60.123456, BacklogFiles: 3, BacklogBytes: 12288,
		LastError: "dial tcp 192.168.1.9:22: connect: connection refused", ErrorSince: up.Add(time.Second),
		BacklogLimit: 2 << 30, BacklogGivenUpAt: up.Add(time.Hour), BacklogGivenUpReason: "disk_full"}}
	e.serve(t, Config{Replica: fake})
	rec := e.do(t, "GET", "/api/replica", nil, e.adminToken)
	body := rec.Body.String()
	if strings.Contains(body, "AGE-SECRET-KEY") {
		t.Fatalf("private key in %s", body)
	}
	got := replicaAnswer(t, e)
	want := map[string]any{"enabled": true, "url": "sftp://backup@nas.local:22/posbox", "public_key": "age1qqexample",
		"replicated_at": "2026-11-22T08:59:00.123Z", "lag_seconds": 60.123, "backlog_files": 3.0, "backlog_bytes": 12288.0,
		"last_error": "dial tcp 192.168.1.9:22: connect: connection refused", "error_since": "2026-11-22T08:59:01.123Z",
		"backlog_limit": float64(2 << 30), "backlog_given_up_at": "2026-11-22T09:59:00.123Z", "backlog_given_up_reason": "disk_full"}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %v, want %v", k, got[k], w)
		}
	}

	// Before the first upload and with no error: null, not the year 1.
	fake.st = ReplicaStatus{URL: "file:///mnt/nas/posbox", PublicKey: "age1qqexample"}
	got = replicaAnswer(t, e)
	for _, k := range []string{"replicated_at", "last_error", "error_since", "backlog_given_up_at", "backlog_given_up_reason"} {
		if got[k] != nil {
			t.Errorf("%s = %v before the first upload, want null", k, got[k])
		}
	}
	if got["backlog_files"] != 0.0 || got["lag_seconds"] != 0.0 {
		t.Errorf("backlog %v lag %v, want 0", got["backlog_files"], got["lag_seconds"])
	}
}
