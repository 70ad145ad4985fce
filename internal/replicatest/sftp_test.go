package replicatest

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"posbox/internal/poll"

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
	// Whether the calls above already saw the connection as lost depends
	// on when the client's reader noticed the cut: a call may still meet
	// the dead connection once, which the client then drops. Litestream
	// retries, and so does this test: the write goes through soon.
	var err error
	for try := 0; try < 5; try++ {
		if _, err = c.WriteLTXFile(ctx, 0, 2, 2, bytesReader(ltxFile(t, 2, 2, 'b'))); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("after the restart: %v", err)
	}
	if got := list(ctx, t, c, 0); len(got) != 2 {
		t.Fatalf("after the restart level 0 lists %v, want 1-1 and 2-2", got)
	}
}

// A server that hangs for a while, then answers again: the call made
// meanwhile waits (Litestream's SFTP client has no timeout of its own)
// and completes once it does, and nothing is lost or doubled.
func TestSFTPPausedThenResumed(t *testing.T) {
	s := SFTP(t)
	c := sftpClient(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.WriteLTXFile(ctx, 0, 1, 1, bytesReader(ltxFile(t, 1, 1, 'a'))); err != nil {
		t.Fatal(err)
	}

	s.Pause()
	done := make(chan error, 1)
	go func() {
		_, err := c.WriteLTXFile(ctx, 0, 2, 2, bytesReader(ltxFile(t, 2, 2, 'b')))
		done <- err
	}()
	// The write has reached the hung server once its bytes wait, unread,
	// in the server side's receive queue.
	poll.Until(t, 30*time.Second, "the write to reach the paused server", func() bool { return unread(t, s.Addr) > 0 })
	select {
	case err := <-done:
		t.Fatalf("a write to a hung server returned: %v", err)
	default:
	}
	s.Resume()
	if err := <-done; err != nil {
		t.Fatalf("the write made while the server hung: %v", err)
	}
	if got := list(ctx, t, c, 0); len(got) != 2 {
		t.Fatalf("level 0 lists %v, want 1-1 and 2-2", got)
	}
}

// unread is how many bytes sit unread in the receive queues of the
// connections the server at addr accepted (/proc/net/tcp, Linux).
func unread(t *testing.T, addr string) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		t.Skip("no /proc/net/tcp: ", err)
	}
	_, port, _ := net.SplitHostPort(addr)
	p, _ := strconv.Atoi(port)
	local := fmt.Sprintf("0100007F:%04X", p)
	var n int64
	for line := range strings.Lines(string(b)) {
		// sl local_address rem_address st tx_queue:rx_queue …; 01 is ESTABLISHED.
		f := strings.Fields(line)
		if len(f) < 5 || f[1] != local || f[3] != "01" {
			continue
		}
		_, rx, _ := strings.Cut(f[4], ":")
		q, _ := strconv.ParseInt(rx, 16, 64)
		n += q
	}
	return n
}
