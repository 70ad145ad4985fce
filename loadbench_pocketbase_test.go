//go:build loadbench

package main

// PocketBase as a yardstick for the week of shifts (issue 22): the same
// 200 shifts as records of a PocketBase collection, listed in one page by
// the same terminals, right between posbox's week and B0. PocketBase is
// built from the module proxy once per machine, as the replica tests
// build their S3 gateway (internal/replicatest/versitygw.go).

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"posbox/internal/poll"
)

// pocketBaseVersion is the newest PocketBase on the module proxy that
// builds with the project's Go 1.26 (v0.40.4 asks for Go 1.27).
const pocketBaseVersion = "v0.36.8"

const pocketBasePackage = "github.com/pocketbase/pocketbase/examples/base"

// buildPocketBase installs examples/base into the user's cache folder
// (once per machine and version) and answers its path, or why not.
func buildPocketBase() (path, why string) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", "no cache folder: " + err.Error()
	}
	dir := filepath.Join(cache, "posbox-loadbench", "pocketbase-"+pocketBaseVersion)
	path = filepath.Join(dir, "base")
	if fileExists(path) {
		return path, ""
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err.Error()
	}
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err.Error()
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("go", "install", pocketBasePackage+"@"+pocketBaseVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+tmp, "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Sprintf("go install %s@%s: %v\n%s", pocketBasePackage, pocketBaseVersion, err, out)
	}
	if err := os.Rename(filepath.Join(tmp, "base"), path); err != nil {
		return "", err.Error()
	}
	return path, ""
}

// pocketBaseShiftFields are a shift's fields as a collection's (the
// shift's id is shift_id: PocketBase makes its own).
var pocketBaseShiftFields = []map[string]any{
	{"name": "shift_id", "type": "text"}, {"name": "user_id", "type": "text"}, {"name": "user_name", "type": "text"},
	{"name": "shift_date", "type": "text"}, {"name": "start_time", "type": "text"}, {"name": "end_time", "type": "text"},
	{"name": "break_minutes", "type": "number"}, {"name": "role", "type": "text"}, {"name": "status", "type": "text"},
	{"name": "notes", "type": "text"}, {"name": "created_at", "type": "text"}, {"name": "updated_at", "type": "text"},
	{"name": "warnings", "type": "json"}, {"name": "published_at", "type": "text"}, {"name": "unstaffed", "type": "bool"},
	{"name": "planned_hours", "type": "number"},
}

// pocketBase measures, side by side with conc terminals: posbox's week
// (weekURL, answer weekRaw), PocketBase listing the same shifts as 200
// records in one page, and B0 with PocketBase's answer size before and
// after. It adds PocketBase's row and notes the week/PocketBase ratio.
func (b *bench) pocketBase(weekURL string, weekRaw []byte, conc int) {
	t := b.t
	bin, why := buildPocketBase()
	if why != "" {
		b.rep.note("PocketBase %s left out: %s", pocketBaseVersion, why)
		return
	}
	dir, addr := t.TempDir(), freeAddr(t)
	const email, password = "bench@pocketbase.local", "bench-password-22"
	if out, err := exec.Command(bin, "superuser", "upsert", email, password, "--dir", dir).CombinedOutput(); err != nil {
		t.Fatalf("pocketbase superuser upsert: %v\n%s", err, out)
	}
	logFile, err := os.Create(dir + ".log")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", "--http", addr, "--dir", dir)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); logFile.Close() })
	base := "http://" + addr
	poll.Until(t, 30*time.Second, "PocketBase to answer", func() bool {
		code, _, err := call("GET", base+"/api/health", "", nil)
		return err == nil && code == 200
	})
	var auth struct{ Token string }
	json.Unmarshal(mustCall(t, 200, "POST", base+"/api/collections/_superusers/auth-with-password", "",
		map[string]string{"identity": email, "password": password}), &auth)
	// listRule "" is public; null would be superusers only.
	mustCall(t, 200, "POST", base+"/api/collections", auth.Token, map[string]any{
		"name": "shifts", "type": "base", "listRule": "", "fields": pocketBaseShiftFields})
	var week struct{ Shifts []map[string]any }
	if err := json.Unmarshal(weekRaw, &week); err != nil {
		t.Fatal(err)
	}
	for _, sh := range week.Shifts {
		sh["shift_id"] = sh["id"]
		delete(sh, "id")
		mustCall(t, 200, "POST", base+"/api/collections/shifts/records", auth.Token, sh)
	}
	list := base + "/api/collections/shifts/records?perPage=200&skipTotal=1"
	raw := mustCall(t, 200, "GET", list, "", nil)
	var page struct{ Items []json.RawMessage }
	if json.Unmarshal(raw, &page); len(page.Items) != len(week.Shifts) {
		t.Fatalf("PocketBase lists %d records, want %d", len(page.Items), len(week.Shifts))
	}
	b0t := b.b0Run(conc, 200, "GET", nil, true)
	before := b.b0Run(conc, len(raw), "GET", nil, false)
	ours := closedLoop("week of 200 shifts, beside PocketBase", conc, b.dur, func(w, i int) error {
		code, raw, err := call("GET", weekURL, b.admin, nil)
		return want(code, raw, err, 200)
	}, nil)
	pb := closedLoop("PocketBase "+pocketBaseVersion+" list of the same 200 shifts", conc, b.dur, func(w, i int) error {
		code, raw, err := call("GET", list, "", nil)
		return want(code, raw, err, 200)
	}, nil)
	after := b.b0Run(conc, len(raw), "GET", nil, false)
	b0s := &stat{name: "B0", n: before.n + after.n, elapsed: before.elapsed + after.elapsed}
	b.rep.row(pb, len(raw), b0s, b0t, "-")
	b.rep.note("week of shifts / PocketBase list, run one after the other: %.0f / %.0f req/s = %.2fx (answers %d and %d bytes)",
		ours.rps(), pb.rps(), ours.rps()/pb.rps(), len(weekRaw), len(raw))
}
