package replicatest

import (
	"net"
	"os"
	"os/exec"
	"testing"
	"time"

	"posbox/internal/poll"
)

// startTimeout bounds how long a server may take to listen: a safety
// net for a loaded CI machine, not a timing assertion.
const startTimeout = 30 * time.Second

// process is a server the test started as a child process.
type process struct {
	name string
	log  string // where its stdout and stderr go
	cmd  *exec.Cmd
	done chan struct{} // closed once it has exited
}

// startProcess starts cmd with its output appended to log.
func startProcess(tb testing.TB, name, log string, cmd *exec.Cmd) *process {
	tb.Helper()
	f, err := os.OpenFile(log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		tb.Fatalf("replicatest: start %s: %v", name, err)
	}
	p := &process{name: name, log: log, cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(p.done) }()
	return p
}

// waitListening returns once addr accepts connections; it fails the test
// with the server's log if the server exits or does not listen in time.
func (p *process) waitListening(tb testing.TB, addr string) {
	tb.Helper()
	exited := false
	up := poll.Wait(startTimeout, func() bool {
		select {
		case <-p.done:
			exited = true
			return true
		default:
		}
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return false
		}
		c.Close()
		return true
	})
	if exited || !up {
		p.kill(true)
		b, _ := os.ReadFile(p.log)
		tb.Fatalf("replicatest: %s did not listen on %s (exited: %v); its log:\n%s", p.name, addr, exited, b)
	}
}

// kill ends the server with SIGKILL, and with tree also every process it
// forked (sshd's sessions run in their own sessions, out of its process
// group, and would keep serving open connections). It returns once the
// server has exited.
func (p *process) kill(tree bool) {
	if tree {
		killDescendants(p.cmd.Process)
	}
	p.cmd.Process.Kill()
	<-p.done
}

// showLogOnFailure registers a cleanup that prints the server's log
// when the test has failed: what the server said about a refused login
// or request is the first thing to read.
func showLogOnFailure(tb testing.TB, name, log string) {
	tb.Cleanup(func() {
		if tb.Failed() {
			b, _ := os.ReadFile(log)
			tb.Logf("%s's log (%s):\n%s", name, log, b)
		}
	})
}
