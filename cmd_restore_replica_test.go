package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"posbox/replica"
)

// posbox restore --from wants its key file and never touches a folder
// that holds anything; a replica without files restores nothing.
func TestRestoreFromReplicaRefuses(t *testing.T) {
	ctx := context.Background()
	keyDir := t.TempDir()
	if _, _, err := replica.LoadOrCreateKey(keyDir); err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(keyDir, replica.KeyFile)
	nas := t.TempDir()
	var out, errOut bytes.Buffer
	if err := cmdRestore(ctx, []string{"--from", "file://" + nas, "--data-dir", t.TempDir()}, &out, &errOut); !errors.Is(err, errUsage) {
		t.Fatalf("--from without --key-file: %v", err)
	}
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "notes.txt"), []byte("mine"), 0o600)
	err := cmdRestore(ctx, []string{"--from", "file://" + nas, "--key-file", keyFile, "--data-dir", full}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("restore into a folder with a file: %v", err)
	}
	if ents, _ := os.ReadDir(full); len(ents) != 1 {
		t.Fatalf("the folder holds %v after the refusal", ents)
	}
	fresh := filepath.Join(t.TempDir(), "fresh")
	err = cmdRestore(ctx, []string{"--from", "file://" + nas, "--key-file", keyFile, "--data-dir", fresh}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "holds no files") {
		t.Fatalf("restore from an empty replica: %v", err)
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Fatal("a refused restore left the folder it would have made")
	}
}
