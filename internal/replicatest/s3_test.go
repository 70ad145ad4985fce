package replicatest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/benbjohnson/litestream/s3"
)

// s3Client is Litestream's S3 client made from the server's URL, with the
// credentials set on it as the engine would pass them without touching
// the process's environment.
func s3Client(t *testing.T, s *S3Server) *s3.ReplicaClient {
	t.Helper()
	// Litestream 0.5.18 hands the AWS SDK an *http.Client, and the SDK
	// refuses one when AWS_CA_BUNDLE is set (it is on some machines, with
	// an intercepting proxy's CA): the client would never start.
	t.Setenv("AWS_CA_BUNDLE", "")
	c, err := litestream.NewReplicaClientFromURL(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	sc := c.(*s3.ReplicaClient)
	sc.AccessKeyID, sc.SecretAccessKey = s.AccessKey, s.SecretKey
	return sc
}

func TestS3ServesLitestreamsClient(t *testing.T) {
	s := S3(t)
	c := s3Client(t, s)
	if c.Bucket != s.Bucket || c.Path != s.Prefix || c.Endpoint != s.Endpoint || c.Region != s.Region || !c.ForcePathStyle {
		t.Fatalf("Litestream reads %s as bucket %q, path %q, endpoint %q, region %q, path style %v",
			s.URL, c.Bucket, c.Path, c.Endpoint, c.Region, c.ForcePathStyle)
	}
	roundTrip(t, c)
	if _, err := os.Stat(filepath.Join(s.Dir, s.Prefix, "0000", "0000000000000002-0000000000000005.ltx")); err != nil {
		entries, _ := filepath.Glob(filepath.Join(s.Dir, "*", "*"))
		t.Fatalf("the written object is not in the bucket's folder: %v (there: %v)", err, entries)
	}
}

func TestS3StoppedThenBack(t *testing.T) {
	s := S3(t)
	c := s3Client(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.WriteLTXFile(ctx, 0, 1, 1, bytesReader(ltxFile(t, 1, 1, 'a'))); err != nil {
		t.Fatal(err)
	}

	s.Stop()
	if _, err := c.WriteLTXFile(ctx, 0, 2, 2, bytesReader(ltxFile(t, 2, 2, 'b'))); err == nil {
		t.Fatal("wrote to a stopped server")
	}

	s.Start()
	if _, err := c.WriteLTXFile(ctx, 0, 2, 2, bytesReader(ltxFile(t, 2, 2, 'b'))); err != nil {
		t.Fatalf("after the restart: %v", err)
	}
	if got := list(ctx, t, c, 0); len(got) != 2 {
		t.Fatalf("after the restart level 0 lists %v, want 1-1 and 2-2", got)
	}
}
