package replica

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/benbjohnson/litestream/file"
	"github.com/benbjohnson/litestream/s3"
	"github.com/benbjohnson/litestream/sftp"
)

// filesPrefix is the folder (or key prefix) of the replica that holds
// the data dir's files, beside Litestream's ltx/.
const filesPrefix = "files/"

// errExists: Put never replaces an object.
var errExists = errors.New("object exists")

// errNoObject: Get found no object under the key.
var errNoObject = errors.New("no such object")

// objectStore keeps the files that are not the database on the replica:
// whole objects by key (slash-separated, under filesPrefix). Put never
// overwrites: on a file or SFTP target it fails with errExists, on S3
// the uploader asks first (every key is named by its content or its
// time, so a second Put of a key would write the same bytes).
type objectStore interface {
	Put(ctx context.Context, key string, r io.Reader) error
	Get(ctx context.Context, key string) (io.ReadCloser, error)
	// List returns the keys directly under prefix (a folder: "files/blobs/").
	List(ctx context.Context, prefix string) ([]string, error)
	Delete(ctx context.Context, key string) error
	Close() error
}

// openObjects is the object store of the replica at rawURL, built from
// the same URL, key, password, host-key and credential handling as
// Litestream's client (clients.go), every call bounded by timeout.
func openObjects(rawURL string, timeout time.Duration) (objectStore, error) {
	c, err := newClient(rawURL)
	if err != nil {
		return nil, err
	}
	var s objectStore
	switch c := c.(type) {
	case *file.ReplicaClient:
		s = &fileObjects{root: c.Path()}
	case *sftp.ReplicaClient:
		s = &sftpObjects{c: c}
	case *s3.ReplicaClient:
		s = &s3Objects{c: c}
	default:
		return nil, fmt.Errorf("%s: no object store for %s", Redact(rawURL), c.Type())
	}
	return &boundedObjects{inner: s, b: newBoundedClient(nil, timeout)}, nil
}

// boundedObjects bounds every call like boundedClient does Litestream's
// (bound.go): a hung server fails the call after timeout without
// progress, never hangs the uploader or a restore.
type boundedObjects struct {
	inner objectStore
	b     *boundedClient
}

func (o *boundedObjects) Put(ctx context.Context, key string, r io.Reader) error {
	_, err := bounded(o.b, ctx, "upload "+key, func(touch func()) (struct{}, error) {
		return struct{}{}, o.inner.Put(ctx, key, touchReader{r, touch})
	})
	return err
}

func (o *boundedObjects) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	rc, err := bounded(o.b, ctx, "open "+key, func(func()) (io.ReadCloser, error) {
		return o.inner.Get(ctx, key)
	})
	if err != nil {
		return nil, err
	}
	return &boundedReader{b: o.b, rc: rc}, nil
}

func (o *boundedObjects) List(ctx context.Context, prefix string) ([]string, error) {
	return bounded(o.b, ctx, "list "+prefix, func(func()) ([]string, error) {
		return o.inner.List(ctx, prefix)
	})
}

func (o *boundedObjects) Delete(ctx context.Context, key string) error {
	_, err := bounded(o.b, ctx, "delete "+key, func(func()) (struct{}, error) {
		return struct{}{}, o.inner.Delete(ctx, key)
	})
	return err
}

func (o *boundedObjects) Close() error {
	_, err := bounded(o.b, context.Background(), "close", func(func()) (struct{}, error) {
		return struct{}{}, o.inner.Close()
	})
	return err
}

// tmpMark names an upload in progress (file and SFTP targets write a
// temporary object, then link or rename it into place); List skips them.
const tmpMark = ".tmp-"

// baseNames keeps the names under prefix that are whole objects.
func baseNames(prefix string, names []string) []string {
	var out []string
	for _, n := range names {
		if !strings.Contains(n, tmpMark) && !strings.HasPrefix(n, ".") {
			out = append(out, path.Join(prefix, n))
		}
	}
	return out
}
