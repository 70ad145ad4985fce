package replica

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/superfly/ltx"
)

// defaultCallTimeout is how long a call to the replica may go without
// progress before it counts as hung.
const defaultCallTimeout = 30 * time.Second

// boundedClient bounds every call to the client beneath. Litestream's
// SFTP client sets no timeouts and ignores contexts: a NAS that hangs
// (a frozen server, a network that drops packets) blocks a call forever,
// and with it Litestream's sync loop and its Close at shutdown. A call
// that makes no progress for timeout (or whose ctx ends) is abandoned:
// its goroutine waits on the stuck connection, the caller gets an error.
// Until the abandoned call returns (the server answers again, or TCP
// gives the connection up, which the client then resets), further calls
// fail at once, so a hung server costs one goroutine, not one per retry.
type boundedClient struct {
	litestream.ReplicaClient
	timeout time.Duration

	mu    sync.Mutex
	stuck int    // abandoned calls not yet returned
	what  string // the first of them
}

func newBoundedClient(inner litestream.ReplicaClient, timeout time.Duration) *boundedClient {
	if timeout <= 0 {
		timeout = defaultCallTimeout
	}
	return &boundedClient{ReplicaClient: inner, timeout: timeout}
}

// bounded runs f, which calls touch whenever it makes progress, and
// returns its result, or an error once it went timeout without progress
// or ctx ended.
func bounded[T any](b *boundedClient, ctx context.Context, what string, f func(touch func()) (T, error)) (T, error) {
	var zero T
	b.mu.Lock()
	if b.stuck > 0 {
		err := fmt.Errorf("replica not answering: %s hangs (no answer for over %s)", b.what, b.timeout)
		b.mu.Unlock()
		return zero, err
	}
	b.mu.Unlock()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	progress := make(chan struct{}, 1)
	touch := func() {
		select {
		case progress <- struct{}{}:
		default:
		}
	}
	go func() {
		v, err := f(touch)
		done <- result{v, err}
	}()
	timer := time.NewTimer(b.timeout)
	defer timer.Stop()
	for {
		select {
		case r := <-done:
			return r.v, r.err
		case <-progress:
			timer.Reset(b.timeout)
			continue
		case <-timer.C:
		case <-ctx.Done():
		}
		break
	}
	b.abandon(what, func() { <-done })
	if err := ctx.Err(); err != nil {
		return zero, fmt.Errorf("replica: %s: %w", what, err)
	}
	return zero, fmt.Errorf("replica not answering: %s made no progress for %s", what, b.timeout)
}

// abandon counts a call as stuck until wait, which waits for its result,
// returns.
func (b *boundedClient) abandon(what string, wait func()) {
	b.mu.Lock()
	if b.stuck == 0 {
		b.what = what
	}
	b.stuck++
	b.mu.Unlock()
	go func() {
		wait()
		b.mu.Lock()
		b.stuck--
		b.mu.Unlock()
	}()
}

func (b *boundedClient) Init(ctx context.Context) error {
	_, err := bounded(b, ctx, "connect", func(func()) (struct{}, error) {
		return struct{}{}, b.ReplicaClient.Init(ctx)
	})
	return err
}

func (b *boundedClient) LTXFiles(ctx context.Context, level int, seek ltx.TXID, useMetadata bool) (ltx.FileIterator, error) {
	return bounded(b, ctx, "list", func(func()) (ltx.FileIterator, error) {
		return b.ReplicaClient.LTXFiles(ctx, level, seek, useMetadata)
	})
}

// WriteLTXFile counts every read of r as progress: a large snapshot
// uploads for as long as it keeps moving.
func (b *boundedClient) WriteLTXFile(ctx context.Context, level int, minTXID, maxTXID ltx.TXID, r io.Reader) (*ltx.FileInfo, error) {
	return bounded(b, ctx, "upload", func(touch func()) (*ltx.FileInfo, error) {
		return b.ReplicaClient.WriteLTXFile(ctx, level, minTXID, maxTXID, touchReader{r, touch})
	})
}

func (b *boundedClient) OpenLTXFile(ctx context.Context, level int, minTXID, maxTXID ltx.TXID, offset, size int64) (io.ReadCloser, error) {
	rc, err := bounded(b, ctx, "open", func(func()) (io.ReadCloser, error) {
		return b.ReplicaClient.OpenLTXFile(ctx, level, minTXID, maxTXID, offset, size)
	})
	if err != nil {
		return nil, err
	}
	return &boundedReader{b: b, rc: rc}, nil
}

func (b *boundedClient) DeleteLTXFiles(ctx context.Context, a []*ltx.FileInfo) error {
	_, err := bounded(b, ctx, "delete", func(func()) (struct{}, error) {
		return struct{}{}, b.ReplicaClient.DeleteLTXFiles(ctx, a)
	})
	return err
}

func (b *boundedClient) DeleteAll(ctx context.Context) error {
	_, err := bounded(b, ctx, "delete all", func(func()) (struct{}, error) {
		return struct{}{}, b.ReplicaClient.DeleteAll(ctx)
	})
	return err
}

type touchReader struct {
	r     io.Reader
	touch func()
}

func (t touchReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.touch()
	return n, err
}

// boundedReader bounds each read of a download. A read abandoned keeps
// its own buffer: the caller may reuse p at once.
type boundedReader struct {
	b  *boundedClient
	rc io.ReadCloser
}

func (r *boundedReader) Read(p []byte) (int, error) {
	buf := make([]byte, len(p))
	n, err := bounded(r.b, context.Background(), "download", func(func()) (int, error) {
		return r.rc.Read(buf)
	})
	copy(p, buf[:n])
	return n, err
}

func (r *boundedReader) Close() error {
	_, err := bounded(r.b, context.Background(), "close", func(func()) (struct{}, error) {
		return struct{}{}, r.rc.Close()
	})
	return err
}
