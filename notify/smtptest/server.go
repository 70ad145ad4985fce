// Package smtptest is a real SMTP server (emersion/go-smtp) on loopback
// for other packages' tests: it keeps the mails it receives, can ask for
// SASL PLAIN, offer STARTTLS or speak TLS from the first byte, and refuse
// every recipient with a scripted error. The tests of notify, server and
// console share it. Only tests import it; it is no part of the binary.
package smtptest

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Options shape a Server. The zero value is plain SMTP without AUTH.
type Options struct {
	// User and Password are the one login AUTH PLAIN accepts; with no
	// User, every AUTH is refused.
	User, Password string
	// TLS, when set, is offered as STARTTLS, and AUTH then needs it.
	TLS *tls.Config
	// ImplicitTLS speaks TLS (with the TLS config) from the first byte.
	ImplicitTLS bool
	// RcptErr, when set, is the answer to every RCPT TO.
	RcptErr error
}

// Message is one mail the server accepted: its envelope and raw data.
type Message struct {
	From string
	To   []string
	Data []byte
}

// Server is one running SMTP server on 127.0.0.1.
type Server struct {
	opts Options
	srv  *smtp.Server
	addr *net.TCPAddr

	mu       sync.Mutex
	msgs     []Message
	sessions int
	authed   []string
}

// Start serves a new server on a free loopback port; it stops with the
// test.
func Start(tb testing.TB, o Options) *Server {
	tb.Helper()
	if o.ImplicitTLS && o.TLS == nil {
		tb.Fatal("smtptest: ImplicitTLS needs a TLS config")
	}
	s := &Server{opts: o}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		s.mu.Lock()
		s.sessions++
		s.mu.Unlock()
		return &session{s: s}, nil
	}))
	s.srv.Domain = "localhost"
	s.srv.AllowInsecureAuth = o.TLS == nil
	s.srv.ReadTimeout, s.srv.WriteTimeout = 10*time.Second, 10*time.Second
	var ln net.Listener
	var err error
	if o.ImplicitTLS {
		ln, err = tls.Listen("tcp", "127.0.0.1:0", o.TLS)
	} else {
		s.srv.TLSConfig = o.TLS
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		tb.Fatal(err)
	}
	s.addr = ln.Addr().(*net.TCPAddr)
	go s.srv.Serve(ln)
	tb.Cleanup(func() { s.srv.Close() })
	return s
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return s.addr.String() }

// Port is the server's TCP port.
func (s *Server) Port() int { return s.addr.Port }

// Received is a copy of the mails accepted so far, in order.
func (s *Server) Received() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// Sessions counts the SMTP sessions opened so far.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions
}

// Authenticated lists the users of the successful AUTHs so far.
func (s *Server) Authenticated() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.authed...)
}

type session struct {
	s    *Server
	from string
	to   []string
}

func (x *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (x *session) Auth(string) (sasl.Server, error) {
	o := x.s.opts
	if o.User == "" {
		return nil, errors.New("no auth here")
	}
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != o.User || pass != o.Password {
			return errors.New("bad credentials")
		}
		x.s.mu.Lock()
		x.s.authed = append(x.s.authed, user)
		x.s.mu.Unlock()
		return nil
	}), nil
}

func (x *session) Mail(from string, _ *smtp.MailOptions) error { x.from = from; return nil }

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if err := x.s.opts.RcptErr; err != nil {
		return err
	}
	x.to = append(x.to, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	x.s.mu.Lock()
	x.s.msgs = append(x.s.msgs, Message{From: x.from, To: append([]string(nil), x.to...), Data: b})
	x.s.mu.Unlock()
	return nil
}

func (x *session) Reset()        { x.from, x.to = "", nil }
func (x *session) Logout() error { return nil }
