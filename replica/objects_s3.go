package replica

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/s3/manager"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	ls3 "github.com/benbjohnson/litestream/s3"
)

// s3Objects is the object store of an s3:// replica: an S3 client of the
// AWS SDK (the one Litestream links in) built from the fields Litestream's
// client holds after newClient: bucket, prefix, endpoint, region,
// path-style, credentials (the key files, else the SDK's default chain).
type s3Objects struct {
	c *ls3.ReplicaClient

	mu  sync.Mutex
	api *s3.Client
}

func (s *s3Objects) client(ctx context.Context) (*s3.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.api != nil {
		return s.api, nil
	}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:          4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	if s.c.SkipVerify {
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true}
	}
	region := s.c.Region
	if region == "" && s.c.Endpoint != "" {
		region = ls3.DefaultRegion
	}
	opts := []func(*config.LoadOptions) error{config.WithHTTPClient(&http.Client{Transport: tr})}
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	if s.c.AccessKeyID != "" && s.c.SecretAccessKey != "" {
		opts = append(opts, config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(s.c.AccessKeyID, s.c.SecretAccessKey, "")))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, err
	}
	s3opts := func(o *s3.Options) {
		o.UsePathStyle = s.c.ForcePathStyle
		if s.c.Endpoint != "" {
			ep := s.c.Endpoint
			if !strings.HasPrefix(ep, "http://") && !strings.HasPrefix(ep, "https://") {
				ep = "https://" + ep
			}
			o.BaseEndpoint = aws.String(ep)
			// S3-compatible servers often refuse aws-chunked checksums
			// (Litestream does the same for any endpoint).
			o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
			o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
		}
	}
	api := s3.NewFromConfig(cfg, s3opts)
	if region == "" { // AWS itself: the bucket's region, as Litestream looks it up
		if region, err = manager.GetBucketRegion(ctx, api, s.c.Bucket); err != nil {
			return nil, err
		}
		cfg.Region = region
		api = s3.NewFromConfig(cfg, s3opts)
	}
	s.api = api
	return api, nil
}

func (s *s3Objects) key(key string) string { return path.Join(strings.Trim(s.c.Path, "/"), key) }

// Put uploads one object. S3 has no rename, and a PUT is atomic: a
// reader sees the old object or the whole new one. The uploader never
// puts a key it knows (keys are content hashes and times).
func (s *s3Objects) Put(ctx context.Context, key string, r io.Reader) error {
	api, err := s.client(ctx)
	if err != nil {
		return err
	}
	// A PUT needs its length: objects are blobs of at most a chunk (a
	// few MiB) and manifests, read into memory.
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, err = api.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(s.c.Bucket), Key: aws.String(s.key(key)),
		Body: bytes.NewReader(b), ContentLength: aws.Int64(int64(len(b)))})
	return err
}

func (s *s3Objects) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	api, err := s.client(ctx)
	if err != nil {
		return nil, err
	}
	out, err := api.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.c.Bucket), Key: aws.String(s.key(key))})
	if err != nil {
		var nk *types.NoSuchKey
		if errors.As(err, &nk) {
			return nil, errors.Join(err, errNoObject)
		}
		return nil, err
	}
	return out.Body, nil
}

func (s *s3Objects) List(ctx context.Context, prefix string) ([]string, error) {
	api, err := s.client(ctx)
	if err != nil {
		return nil, err
	}
	full := s.key(prefix) + "/"
	var names []string
	p := s3.NewListObjectsV2Paginator(api, &s3.ListObjectsV2Input{Bucket: aws.String(s.c.Bucket), Prefix: aws.String(full), Delimiter: aws.String("/")})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, o := range page.Contents {
			names = append(names, strings.TrimPrefix(aws.ToString(o.Key), full))
		}
	}
	return baseNames(prefix, names), nil
}

func (s *s3Objects) Delete(ctx context.Context, key string) error {
	api, err := s.client(ctx)
	if err != nil {
		return err
	}
	_, err = api.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.c.Bucket), Key: aws.String(s.key(key))})
	return err
}

func (s *s3Objects) Close() error { return nil }
