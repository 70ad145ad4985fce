package replica

import (
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/benbjohnson/litestream"
	_ "github.com/benbjohnson/litestream/s3" // registers s3:// URLs
	"github.com/benbjohnson/litestream/sftp"
)

// newClient is Litestream's replica client for rawURL, with what its URL
// factory leaves out for SFTP: ?key=FILE (a private key file),
// ?password-file=FILE (its first line; a password in the URL works too
// but ends up in the config) and ?host-key=LINE (the server's public key
// as in known_hosts without the host name; without it any host key is
// accepted, Litestream warns).
func newClient(rawURL string) (litestream.ReplicaClient, error) {
	c, err := litestream.NewReplicaClientFromURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Redact(rawURL), err)
	}
	sc, ok := c.(*sftp.ReplicaClient)
	if !ok {
		return c, nil
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	q := u.Query()
	sc.KeyPath, sc.HostKey = q.Get("key"), q.Get("host-key")
	if f := q.Get("password-file"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("%s: password-file: %w", Redact(rawURL), err)
		}
		sc.Password, _, _ = strings.Cut(strings.TrimRight(string(b), "\r\n"), "\n")
	}
	return c, nil
}

// CheckURL reports whether url names a replica a client is compiled in
// for (file, sftp, s3), without connecting.
func CheckURL(url string) error {
	_, err := newClient(url)
	return err
}
