package replica

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/superfly/ltx"

	"posbox/internal/poll"
)

// hangingClient is a target that stops answering while hang is open, as
// Litestream's SFTP client does with a frozen server: it ignores ctx.
type hangingClient struct {
	litestream.ReplicaClient
	hang chan struct{}
}

func (h *hangingClient) LTXFiles(ctx context.Context, level int, seek ltx.TXID, useMetadata bool) (ltx.FileIterator, error) {
	<-h.hang
	return ltx.NewFileInfoSliceIterator(nil), nil
}

// WriteLTXFile reads slowly: 4 reads, each taking a while.
func (h *hangingClient) WriteLTXFile(ctx context.Context, level int, minTXID, maxTXID ltx.TXID, r io.Reader) (*ltx.FileInfo, error) {
	buf := make([]byte, 4)
	n := 0
	for {
		time.Sleep(30 * time.Millisecond)
		m, err := r.Read(buf)
		n += m
		if err == io.EOF {
			return &ltx.FileInfo{Level: level, MinTXID: minTXID, MaxTXID: maxTXID, Size: int64(n)}, nil
		} else if err != nil {
			return nil, err
		}
	}
}

func TestHungCallIsAbandonedAndLaterCallsFailFast(t *testing.T) {
	h := &hangingClient{hang: make(chan struct{})}
	b := newBoundedClient(h, 50*time.Millisecond)
	ctx := context.Background()
	if _, err := b.LTXFiles(ctx, 0, 0, false); err == nil || !strings.Contains(err.Error(), "not answering") {
		t.Fatalf("hung call: %v", err)
	}
	if _, err := b.LTXFiles(ctx, 0, 0, false); err == nil || !strings.Contains(err.Error(), "list hangs") {
		t.Fatalf("call while the first hangs: %v", err)
	}
	close(h.hang) // the server answers again
	poll.Until(t, 10*time.Second, "calls to work again", func() bool {
		_, err := b.LTXFiles(ctx, 0, 0, false)
		return err == nil
	})
}

// An upload that keeps reading is not cut, however long it takes in all.
func TestSlowUploadThatProgressesIsNotCut(t *testing.T) {
	b := newBoundedClient(&hangingClient{}, 100*time.Millisecond)
	fi, err := b.WriteLTXFile(context.Background(), 0, 1, 1, bytes.NewReader(make([]byte, 40)))
	if err != nil || fi.Size != 40 {
		t.Fatalf("slow upload: %v %+v", err, fi)
	}
}

func TestCallEndsWithItsContext(t *testing.T) {
	h := &hangingClient{hang: make(chan struct{})}
	defer close(h.hang)
	b := newBoundedClient(h, time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.LTXFiles(ctx, 0, 0, false); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Fatalf("cancelled call: %v", err)
	}
}
