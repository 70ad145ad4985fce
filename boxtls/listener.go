package boxtls

import (
	"bufio"
	"crypto/tls"
	"errors"
	"net"
	"sync"
	"time"
)

// splitListener takes HTTPS and plain HTTP on one port: it reads the
// first byte of each connection (a TLS handshake starts with 0x16) and
// hands the HTTP server a *tls.Conn or the plain connection. So
// http://localhost:8080/ keeps working on the box itself while the
// server refuses plain requests from the network (server.Config.RequireTLS).
type splitListener struct {
	net.Listener
	tlsConfig *tls.Config
	conns     chan net.Conn
	errs      chan error
	done      chan struct{}
	closeOnce sync.Once
}

// sniffTimeout bounds how long a connection may stay silent before its
// first byte; the HTTP server's own timeouts start after that.
const sniffTimeout = 10 * time.Second

// NewSplitListener serves TLS with cfg and plain HTTP on ln.
func NewSplitListener(ln net.Listener, cfg *tls.Config) net.Listener {
	l := &splitListener{Listener: ln, tlsConfig: cfg, conns: make(chan net.Conn), errs: make(chan error), done: make(chan struct{})}
	go l.acceptLoop()
	return l
}

func (l *splitListener) acceptLoop() {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			select {
			case l.errs <- err:
			case <-l.done:
				return
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			return
		}
		go l.sniff(c)
	}
}

// sniff decides what a new connection speaks without blocking Accept.
func (l *splitListener) sniff(c net.Conn) {
	_ = c.SetReadDeadline(time.Now().Add(sniffTimeout))
	br := bufio.NewReader(c)
	first, err := br.Peek(1)
	_ = c.SetReadDeadline(time.Time{})
	if err != nil {
		c.Close()
		return
	}
	var out net.Conn = &peekedConn{Conn: c, r: br}
	if first[0] == 0x16 {
		out = tls.Server(out, l.tlsConfig)
	}
	select {
	case l.conns <- out:
	case <-l.done:
		c.Close()
	}
}

func (l *splitListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case err := <-l.errs:
		return nil, err
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *splitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	err := l.Listener.Close()
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// peekedConn reads first what sniff peeked.
type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *peekedConn) Read(p []byte) (int, error) { return c.r.Read(p) }
