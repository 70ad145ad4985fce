package replica

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path"
	"sync"
	"time"

	lsftp "github.com/benbjohnson/litestream/sftp"
	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
)

// sftpObjects is the object store of an sftp:// replica: its own SSH
// connection, made from the fields Litestream's client holds after
// newClient (host, user, password or password file, key file, host key),
// so both connect alike. A failed call drops the connection; the next
// call dials again.
type sftpObjects struct {
	c *lsftp.ReplicaClient

	mu   sync.Mutex
	ssh  *ssh.Client
	sftp *sftp.Client
}

func (s *sftpObjects) client() (*sftp.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sftp != nil {
		return s.sftp, nil
	}
	cfg := &ssh.ClientConfig{User: s.c.User, Timeout: s.c.DialTimeout}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if s.c.HostKey != "" {
		pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(s.c.HostKey))
		if err != nil {
			return nil, fmt.Errorf("cannot parse sftp host key: %w", err)
		}
		cfg.HostKeyCallback = ssh.FixedHostKey(pub)
	} else {
		slog.Warn("sftp host key not verified", "host", s.c.Host)
		cfg.HostKeyCallback = ssh.InsecureIgnoreHostKey()
	}
	if s.c.Password != "" {
		cfg.Auth = append(cfg.Auth, ssh.Password(s.c.Password))
	}
	if s.c.KeyPath != "" {
		buf, err := os.ReadFile(s.c.KeyPath)
		if err != nil {
			return nil, fmt.Errorf("sftp key: %w", err)
		}
		signer, err := ssh.ParsePrivateKey(buf)
		if err != nil {
			return nil, fmt.Errorf("sftp key %s: %w", s.c.KeyPath, err)
		}
		cfg.Auth = append(cfg.Auth, ssh.PublicKeys(signer))
	}
	host := s.c.Host
	if _, _, err := net.SplitHostPort(host); err != nil {
		host = net.JoinHostPort(host, "22")
	}
	conn, err := ssh.Dial("tcp", host, cfg)
	if err != nil {
		return nil, err
	}
	sc, err := sftp.NewClient(conn)
	if err != nil {
		conn.Close()
		return nil, err
	}
	s.ssh, s.sftp = conn, sc
	return sc, nil
}

// reset drops the connection after a failure that may have broken it.
func (s *sftpObjects) reset(err error) {
	if err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, errExists) {
		return
	}
	s.Close()
}

func (s *sftpObjects) path(key string) string { return path.Join(s.c.Path, key) }

// Put writes a temporary file and renames it into place: SFTP's rename
// (not posix-rename) fails when the target exists, so nothing is ever
// overwritten.
func (s *sftpObjects) Put(_ context.Context, key string, r io.Reader) (err error) {
	defer func() { s.reset(err) }()
	c, err := s.client()
	if err != nil {
		return err
	}
	p := s.path(key)
	if err := c.MkdirAll(path.Dir(p)); err != nil {
		return err
	}
	if _, err := c.Stat(p); err == nil {
		return fmt.Errorf("%s: %w", key, errExists)
	}
	tmp := fmt.Sprintf("%s%s%d", p, tmpMark, time.Now().UnixNano())
	f, err := c.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL)
	if err != nil {
		return err
	}
	defer c.Remove(tmp) // gone after the rename; left over after a failure
	_, err = f.ReadFrom(r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := c.Rename(tmp, p); err != nil {
		if _, serr := c.Stat(p); serr == nil {
			return fmt.Errorf("%s: %w", key, errExists)
		}
		return err
	}
	return nil
}

func (s *sftpObjects) Get(_ context.Context, key string) (_ io.ReadCloser, err error) {
	defer func() { s.reset(err) }()
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	f, err := c.Open(s.path(key))
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (s *sftpObjects) List(_ context.Context, prefix string) (_ []string, err error) {
	defer func() { s.reset(err) }()
	c, err := s.client()
	if err != nil {
		return nil, err
	}
	ents, err := c.ReadDir(s.path(prefix))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if e.Mode().IsRegular() {
			names = append(names, e.Name())
		}
	}
	return baseNames(prefix, names), nil
}

func (s *sftpObjects) Delete(_ context.Context, key string) (err error) {
	defer func() { s.reset(err) }()
	c, err := s.client()
	if err != nil {
		return err
	}
	if err := c.Remove(s.path(key)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func (s *sftpObjects) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sftp != nil {
		s.sftp.Close()
		s.ssh.Close()
		s.sftp, s.ssh = nil, nil
	}
	return nil
}
