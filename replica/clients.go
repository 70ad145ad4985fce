package replica

import (
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"

	"github.com/benbjohnson/litestream"
	"github.com/benbjohnson/litestream/s3"
	"github.com/benbjohnson/litestream/sftp"
)

// newClient is Litestream's replica client for rawURL, with what its URL
// factory leaves out. SFTP: ?key=FILE (a private key file),
// ?password-file=FILE (its first line; a password in the URL works too
// but ends up in the config) and ?host-key=LINE (the server's public key
// as in known_hosts without the host name; without it any host key is
// accepted, Litestream warns). S3: ?access-key-file=FILE and
// ?secret-key-file=FILE (their first lines), else Litestream's
// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
func newClient(rawURL string) (litestream.ReplicaClient, error) {
	c, err := litestream.NewReplicaClientFromURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Redact(rawURL), err)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	q := u.Query()
	switch c := c.(type) {
	case *sftp.ReplicaClient:
		c.KeyPath, c.HostKey = q.Get("key"), q.Get("host-key")
		if c.Password, err = firstLine(q, "password-file", c.Password); err != nil {
			return nil, fmt.Errorf("%s: %w", Redact(rawURL), err)
		}
	case *s3.ReplicaClient:
		if c.AccessKeyID, err = firstLine(q, "access-key-file", c.AccessKeyID); err != nil {
			return nil, fmt.Errorf("%s: %w", Redact(rawURL), err)
		}
		if c.SecretAccessKey, err = firstLine(q, "secret-key-file", c.SecretAccessKey); err != nil {
			return nil, fmt.Errorf("%s: %w", Redact(rawURL), err)
		}
	}
	return c, nil
}

// firstLine is the first line of the file the query parameter param
// names, or def without the parameter: secrets go in files (mode 0600),
// never in the URL, which ends up in the config and in logs.
func firstLine(q url.Values, param, def string) (string, error) {
	f := q.Get(param)
	if f == "" {
		return def, nil
	}
	b, err := os.ReadFile(f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", param, err)
	}
	line, _, _ := strings.Cut(strings.TrimRight(string(b), "\r\n"), "\n")
	return line, nil
}

// CheckURL reports whether url names a replica a client is compiled in
// for (file, sftp, s3), without connecting.
func CheckURL(url string) error {
	_, err := newClient(url)
	return err
}

// dropCABundle clears AWS_CA_BUNDLE before an S3 client starts:
// Litestream 0.5.18 hands the AWS SDK its own *http.Client, and the SDK
// then refuses to start at all when AWS_CA_BUNDLE is set ("unable to load
// custom CA bundle, HTTPClient's transport unsupported type"). Without
// it, Go's TLS trusts the system's CA store (or SSL_CERT_FILE), where a
// private CA belongs (docs/REPLICATION.md).
func dropCABundle(c litestream.ReplicaClient, log *slog.Logger) {
	if _, ok := c.(*s3.ReplicaClient); !ok {
		return
	}
	if f := os.Getenv("AWS_CA_BUNDLE"); f != "" {
		os.Unsetenv("AWS_CA_BUNDLE")
		log.Warn("replica: AWS_CA_BUNDLE ignored (the S3 client cannot use it); put the CA in the system's store or SSL_CERT_FILE", "AWS_CA_BUNDLE", f)
	}
}
