package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"posbox/replica"
)

// posbox hq key makes HQ's key once (0600) and prints its public key and
// the line each box needs; again, the same key.
func TestHQKeyCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"hq", "key", "--data-dir", dir}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	fi, err := os.Stat(filepath.Join(dir, replica.HQKeyFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("hq.key: %v %v", fi, err)
	}
	id, err := replica.LoadKey(filepath.Join(dir, replica.HQKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	pub := id.Recipient().String()
	if s := out.String(); !strings.Contains(s, "made HQ's key") || !strings.Contains(s, "replica_recipients = "+pub) || strings.Contains(s, "AGE-SECRET-KEY") {
		t.Errorf("first run: %s", s)
	}
	out.Reset()
	run(context.Background(), []string{"hq", "key", "--data-dir", dir}, strings.NewReader(""), &out, &errb)
	if s := out.String(); strings.Contains(s, "made") || !strings.Contains(s, pub) {
		t.Errorf("second run: %s", s)
	}
}

// posbox hq without a box to follow, or with a URL no client takes, does
// not start.
func TestHQRefusesNothingToFollow(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "no box to follow"},
		{[]string{"--follow", "ftp://nas/posbox"}, "--follow"},
	} {
		var out, errb bytes.Buffer
		args := append([]string{"hq", "--data-dir", t.TempDir(), "--listen", "127.0.0.1:0"}, c.args...)
		if code := run(context.Background(), args, strings.NewReader(""), &out, &errb); code == 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, %s", c.args, code, errb.String())
		}
	}
}
