package replicatest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/benbjohnson/litestream/sftp"
)

// sftpClient is Litestream's SFTP client made from the server's URL, with
// the key and host key set as the replication engine must set them (the
// URL carries neither).
func sftpClient(t *testing.T, s *SFTPServer) *sftp.ReplicaClient {
	t.Helper()
	c, err := litestream.NewReplicaClientFromURL(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	sc := c.(*sftp.ReplicaClient)
	sc.KeyPath, sc.HostKey = s.KeyPath, s.HostKey
	sc.DialTimeout = 5 * time.Second
	return sc
}

func TestSFTPServesLitestreamsClient(t *testing.T) {
	s := SFTP(t)
	roundTrip(t, sftpClient(t, s))
	if _, err := os.Stat(filepath.Join(s.Dir, "ltx", "0", "0000000000000002-0000000000000005.ltx")); err != nil {
		t.Fatalf("the written file is not in the server's folder: %v", err)
	}
}

func TestSFTPRefusesAnotherHostKey(t *testing.T) {
	s, other := SFTP(t), SFTP(t)
	c := sftpClient(t, s)
	c.HostKey = other.HostKey
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.Init(ctx); err == nil {
		t.Fatal("the client connected to a server whose host key it was not given")
	}
}

func TestSFTPStoppedThenBack(t *testing.T) {
	s := SFTP(t)
	c := sftpClient(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.WriteLTXFile(ctx, 0, 1, 1, bytesReader(ltxFile(t, 1, 1, 'a'))); err != nil {
		t.Fatal(err)
	}

	s.Stop()
	// The open connection is cut: the next call fails rather than hangs
	// (the test's context is the bound), and so does a new dial.
	for range 2 {
		if _, err := c.WriteLTXFile(ctx, 0, 2, 2, bytesReader(ltxFile(t, 2, 2, 'b'))); err == nil {
			t.Fatal("wrote to a stopped server")
		}
	}

	s.Start()
	if _, err := c.WriteLTXFile(ctx, 0, 2, 2, bytesReader(ltxFile(t, 2, 2, 'b'))); err != nil {
		t.Fatalf("after the restart: %v", err)
	}
	if got := list(ctx, t, c, 0); len(got) != 2 {
		t.Fatalf("after the restart level 0 lists %v, want 1-1 and 2-2", got)
	}
}
