package replicatest

import (
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The S3 server is Versity's S3 gateway (github.com/versity/versitygw,
// Apache-2.0) on its posix backend: a real S3 server that is run in
// production in front of file systems, not an emulation written for
// tests, which gofakes3 (the fallback the issue names) is. It builds from
// the module proxy alone (versitygw.go: once per machine and version).
// Object metadata lives in a sidecar folder, so the test's file system
// needs no extended attributes.

// S3Server is an S3 gateway on a loopback port with one bucket and one
// account.
type S3Server struct {
	Endpoint  string // http://127.0.0.1:port
	Region    string
	AccessKey string
	SecretKey string
	Bucket    string
	Prefix    string // the folder in the bucket the replica uses
	// URL is Litestream's form: s3://bucket/prefix?endpoint=…&region=…&force-path-style=true.
	// The credentials are not in it: Litestream reads them from the
	// environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) or its
	// client's fields.
	URL string
	Dir string // the bucket's folder on disk: objects are files below it

	tb   testing.TB
	bin  string // the gateway's program
	addr string
	root string // the gateway's root: one folder per bucket
	meta string // the sidecar folder for object metadata
	log  string
	proc *process
}

// S3 starts an S3 server for the test; it stops at cleanup. When the
// server cannot be built it skips the test, or fails it when CI=true.
func S3(tb testing.TB) *S3Server {
	tb.Helper()
	dir := tb.TempDir()
	s := &S3Server{tb: tb, bin: versityGW(tb), Region: "eu-central-1", AccessKey: "posboxtest", SecretKey: "posboxtest-secret",
		Bucket: "posbox", Prefix: "box1", root: filepath.Join(dir, "root"), meta: filepath.Join(dir, "meta"),
		log: filepath.Join(dir, "versitygw.log")}
	s.Dir = filepath.Join(s.root, s.Bucket)
	for _, d := range []string{s.root, s.meta, s.Dir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			tb.Fatal(err)
		}
	}
	s.addr = net.JoinHostPort("127.0.0.1", freePort(tb))
	s.Endpoint = "http://" + s.addr
	q := url.Values{"endpoint": {s.Endpoint}, "region": {s.Region}, "force-path-style": {"true"}}
	s.URL = (&url.URL{Scheme: "s3", Host: s.Bucket, Path: "/" + s.Prefix, RawQuery: q.Encode()}).String()
	s.Start()
	tb.Cleanup(s.Stop)
	showLogOnFailure(tb, "versitygw", s.log)
	return s
}

// Start runs the gateway (again, after a Stop) on the same port and
// folders, and returns once it listens. The credentials go by
// environment, not on the command line where ps shows them.
func (s *S3Server) Start() {
	s.tb.Helper()
	if s.proc != nil {
		s.tb.Fatal("replicatest: S3 server already running")
	}
	cmd := exec.Command(s.bin, "--port", s.addr, "--region", s.Region, "--quiet",
		"posix", "--sidecar", s.meta, s.root)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY_ID="+s.AccessKey, "ROOT_SECRET_ACCESS_KEY="+s.SecretKey)
	s.proc = startProcess(s.tb, "versitygw", s.log, cmd)
	s.proc.waitListening(s.tb, s.addr)
}

// Stop kills the gateway, as a server that loses power would: open
// connections break, the objects stay on disk.
func (s *S3Server) Stop() {
	if s.proc == nil {
		return
	}
	s.proc.kill(false)
	s.proc = nil
}

// Pause freezes the gateway (SIGSTOP): connections stay open and nothing
// answers, as with a storage server that hangs. Linux only.
func (s *S3Server) Pause() {
	if s.proc != nil {
		pauseTree(s.proc.cmd.Process, true)
	}
}

// Resume lets a paused gateway answer again.
func (s *S3Server) Resume() {
	if s.proc != nil {
		pauseTree(s.proc.cmd.Process, false)
	}
}
