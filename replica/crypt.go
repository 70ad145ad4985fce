package replica

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"filippo.io/age"
	"github.com/benbjohnson/litestream"
	"github.com/superfly/ltx"
)

// cryptClient is a litestream.ReplicaClient that encrypts every LTX file
// it hands to the client beneath (Litestream's file, sftp or s3 client)
// and decrypts every one it reads. Litestream sees plaintext only:
// offsets and sizes are the LTX file's, never the object's (see
// docs/REPLICATION.md, "Encryption").
type cryptClient struct {
	inner  litestream.ReplicaClient
	recips []age.Recipient // nil when only restoring
	ids    []age.Identity
	health *health // told of every upload; nil when only restoring

	mu    sync.Mutex
	sizes map[fileKey]objSize // objects whose plaintext size is known
}

type fileKey struct {
	level    int
	min, max ltx.TXID
}

type objSize struct{ cipher, plain int64 }

func newCryptClient(inner litestream.ReplicaClient, recips []age.Recipient, ids []age.Identity, h *health) *cryptClient {
	return &cryptClient{inner: inner, recips: recips, ids: ids, health: h, sizes: map[fileKey]objSize{}}
}

func (c *cryptClient) Type() string             { return c.inner.Type() }
func (c *cryptClient) SetLogger(l *slog.Logger) { c.inner.SetLogger(l) }

// Init connects. While replicating, a replica unreachable now is not an
// error: the box starts and sells, the status shows the failure, and the
// clients connect again at the next upload (they all init lazily).
func (c *cryptClient) Init(ctx context.Context) error {
	err := c.inner.Init(ctx)
	if err != nil && c.health != nil {
		c.health.failed(fmt.Errorf("connect: %w", err))
		return nil
	}
	return err
}

func (c *cryptClient) DeleteAll(ctx context.Context) error {
	c.mu.Lock()
	clear(c.sizes)
	c.mu.Unlock()
	return c.inner.DeleteAll(ctx)
}

func (c *cryptClient) DeleteLTXFiles(ctx context.Context, a []*ltx.FileInfo) error {
	c.mu.Lock()
	for _, fi := range a {
		delete(c.sizes, fileKey{fi.Level, fi.MinTXID, fi.MaxTXID})
	}
	c.mu.Unlock()
	return c.inner.DeleteLTXFiles(ctx, a)
}

// WriteLTXFile uploads the stub and the age file of r, streaming: a
// compacted snapshot of a large database never sits in memory.
func (c *cryptClient) WriteLTXFile(ctx context.Context, level int, minTXID, maxTXID ltx.TXID, r io.Reader) (*ltx.FileInfo, error) {
	if len(c.recips) == 0 {
		return nil, errors.New("replica: no recipients to encrypt to")
	}
	hdr := make([]byte, stubSize)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, fmt.Errorf("replica: read ltx header: %w", err)
	}
	pr, pw := io.Pipe()
	var plain int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		n, err := c.encrypt(pw, hdr, r)
		plain = n
		pw.CloseWithError(err)
	}()
	info, err := c.inner.WriteLTXFile(ctx, level, minTXID, maxTXID, pr)
	pr.CloseWithError(io.ErrClosedPipe) // the encrypter stops if inner gave up early
	<-done
	if c.health != nil {
		c.health.uploaded(err)
	}
	if err != nil {
		return nil, err
	}
	var h ltx.Header
	if c.health != nil && level == 0 && h.UnmarshalBinary(hdr) == nil {
		c.health.through(time.UnixMilli(h.Timestamp))
	}
	out := *info
	out.Size = plain
	c.mu.Lock()
	c.sizes[fileKey{level, minTXID, maxTXID}] = objSize{cipher: info.Size, plain: plain}
	c.mu.Unlock()
	return &out, nil
}

// encrypt writes the stub, then the LTX file (hdr and the rest of r)
// encrypted to the recipients, and returns the plaintext length.
func (c *cryptClient) encrypt(w io.Writer, hdr []byte, r io.Reader) (int64, error) {
	if _, err := w.Write(stubFrom(hdr)); err != nil {
		return 0, err
	}
	aw, err := age.Encrypt(w, c.recips...)
	if err != nil {
		return 0, fmt.Errorf("replica: encrypt: %w", err)
	}
	n, err := io.Copy(aw, io.MultiReader(bytes.NewReader(hdr), r))
	if err != nil {
		return n, err
	}
	return n, aw.Close()
}

// OpenLTXFile returns the plaintext of an LTX file from offset, size bytes
// of it (all when size is 0). age streams cannot seek without a ReaderAt
// over the object, so it decrypts from the start and skips: Litestream
// reads whole files except when resuming a broken download.
func (c *cryptClient) OpenLTXFile(ctx context.Context, level int, minTXID, maxTXID ltx.TXID, offset, size int64) (io.ReadCloser, error) {
	rc, err := c.inner.OpenLTXFile(ctx, level, minTXID, maxTXID, 0, 0)
	if err != nil {
		return nil, err
	}
	pr, err := c.decrypt(rc, level, minTXID, maxTXID)
	if err != nil {
		rc.Close()
		return nil, err
	}
	if offset > 0 {
		if _, err := io.CopyN(io.Discard, pr, offset); err != nil && !errors.Is(err, io.EOF) {
			rc.Close()
			return nil, err
		}
	}
	if size > 0 {
		pr = io.LimitReader(pr, size)
	}
	return readCloser{pr, rc}, nil
}

func (c *cryptClient) decrypt(rc io.Reader, level int, minTXID, maxTXID ltx.TXID) (io.Reader, error) {
	stub := make([]byte, stubSize)
	if _, err := io.ReadFull(rc, stub); err != nil || string(stub[:4]) != ltxMagic {
		return nil, fmt.Errorf("%w: %s", errNotOurs, ltx.FormatFilename(minTXID, maxTXID))
	}
	pr, err := age.Decrypt(rc, c.ids...)
	var noMatch *age.NoIdentityMatchError
	if errors.As(err, &noMatch) {
		return nil, fmt.Errorf("replica: the key does not open level %d file %s (a replica of another box, or the wrong key file): %w",
			level, ltx.FormatFilename(minTXID, maxTXID), err)
	} else if err != nil {
		return nil, fmt.Errorf("replica: decrypt level %d file %s: %w", level, ltx.FormatFilename(minTXID, maxTXID), err)
	}
	return pr, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// LTXFiles lists the client's files with their plaintext sizes:
// Litestream takes a short read for a broken download when a file ends
// before its listed size, so the object's size would fail every restore.
func (c *cryptClient) LTXFiles(ctx context.Context, level int, seek ltx.TXID, useMetadata bool) (ltx.FileIterator, error) {
	itr, err := c.inner.LTXFiles(ctx, level, seek, useMetadata)
	if err != nil {
		if c.health != nil {
			c.health.failed(fmt.Errorf("list: %w", err))
		}
		return nil, err
	}
	return &plainIter{ctx: ctx, c: c, inner: itr}, nil
}

// plainSize is the plaintext size of the object fi lists: known if this
// client wrote or measured it, else read from the object's age header.
func (c *cryptClient) plainSize(ctx context.Context, fi *ltx.FileInfo) (int64, error) {
	k := fileKey{fi.Level, fi.MinTXID, fi.MaxTXID}
	c.mu.Lock()
	s, ok := c.sizes[k]
	c.mu.Unlock()
	if ok && s.cipher == fi.Size {
		return s.plain, nil
	}
	rc, err := c.inner.OpenLTXFile(ctx, fi.Level, fi.MinTXID, fi.MaxTXID, 0, min(fi.Size, stubSize+maxAgeHdr))
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	stub := make([]byte, stubSize)
	if _, err := io.ReadFull(rc, stub); err != nil || string(stub[:4]) != ltxMagic {
		return 0, fmt.Errorf("%w: level %d file %s", errNotOurs, fi.Level, ltx.FormatFilename(fi.MinTXID, fi.MaxTXID))
	}
	hl, err := ageHeaderLen(rc)
	if err != nil {
		return 0, err
	}
	p, err := plainSize(fi.Size - stubSize - hl)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	c.sizes[k] = objSize{cipher: fi.Size, plain: p}
	c.mu.Unlock()
	return p, nil
}

type plainIter struct {
	ctx   context.Context
	c     *cryptClient
	inner ltx.FileIterator
	item  *ltx.FileInfo
	err   error
}

func (it *plainIter) Next() bool {
	if it.err != nil || !it.inner.Next() {
		return false
	}
	fi := *it.inner.Item()
	p, err := it.c.plainSize(it.ctx, &fi)
	if err != nil {
		it.err = err
		return false
	}
	fi.Size = p
	it.item = &fi
	return true
}

func (it *plainIter) Item() *ltx.FileInfo { return it.item }
func (it *plainIter) Close() error        { return it.inner.Close() }

func (it *plainIter) Err() error {
	if it.err != nil {
		return it.err
	}
	return it.inner.Err()
}
