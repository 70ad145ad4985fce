package replicatest

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

// sshdPath is Debian's OpenSSH server (package openssh-server).
const sshdPath = "/usr/sbin/sshd"

// SFTPServer is an OpenSSH server on a loopback port that lets one user
// (the one running the test) in with one key, and serves SFTP only.
type SFTPServer struct {
	URL     string // Litestream's form: sftp://user@127.0.0.1:port/dir
	User    string // the login: the user running the test
	Addr    string // 127.0.0.1:port, the same after Stop and Start
	Dir     string // the replica's folder on disk (absolute; the URL's path)
	KeyPath string // the client's private key (OpenSSH PEM, mode 0600)
	HostKey string // the server's public key, authorized_keys form ("ssh-ed25519 AAAA…")

	tb   testing.TB
	conf string // sshd_config
	log  string // sshd's output (-e), shown when a test fails
	proc *process
}

// SFTP starts an OpenSSH server for the test; it stops at cleanup. Without
// sshd it skips the test, or fails it when CI=true. It runs as root (CI)
// or as a user whose account sshd, without PAM, deems unlocked (one with
// a password set worked here; `nobody` is refused as locked); its log,
// shown when the test fails, says so.
func SFTP(tb testing.TB) *SFTPServer {
	tb.Helper()
	if _, err := os.Stat(sshdPath); err != nil {
		missing(tb, "no OpenSSH server ("+sshdPath+"): apt-get install openssh-server")
	}
	u, err := user.Current()
	if err != nil {
		tb.Fatal(err)
	}
	if os.Geteuid() == 0 {
		// sshd running as root insists on its privilege separation folder.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	etc := tb.TempDir()
	s := &SFTPServer{tb: tb, User: u.Username, Dir: filepath.Join(tb.TempDir(), "replica"),
		KeyPath: filepath.Join(etc, "client_ed25519"), conf: filepath.Join(etc, "sshd_config"), log: filepath.Join(etc, "sshd.log")}
	hostKey := writeKey(tb, filepath.Join(etc, "host_ed25519"))
	s.HostKey = strings.TrimSpace(string(ssh.MarshalAuthorizedKey(hostKey)))
	clientKey := writeKey(tb, s.KeyPath)
	authorized := filepath.Join(etc, "authorized_keys")
	if err := os.WriteFile(authorized, ssh.MarshalAuthorizedKey(clientKey), 0o600); err != nil {
		tb.Fatal(err)
	}
	if err := os.Mkdir(s.Dir, 0o700); err != nil {
		tb.Fatal(err)
	}
	s.Addr = net.JoinHostPort("127.0.0.1", freePort(tb))
	s.URL = (&url.URL{Scheme: "sftp", User: url.User(s.User), Host: s.Addr, Path: s.Dir}).String()
	writeFile(tb, s.conf, sshdConfig(s.Addr, etc, authorized, s.User))
	s.Start()
	tb.Cleanup(s.Stop)
	showLogOnFailure(tb, "sshd", s.log)
	return s
}

// sshdConfig is a server for one user and one key, SFTP only, nothing
// from /etc/ssh. internal-sftp starts in / because Litestream strips the
// URL path's leading slash: the path is relative to the login folder, and
// on this server the login folder is /, so the URL's path is the folder
// on disk. StrictModes is off because the files live in a temp folder.
func sshdConfig(addr, etc, authorized, login string) string {
	host, port, _ := net.SplitHostPort(addr)
	return fmt.Sprintf(`ListenAddress %s
Port %s
HostKey %s
PidFile %s
AuthorizedKeysFile %s
AllowUsers %s
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
StrictModes no
AllowTcpForwarding no
X11Forwarding no
PermitTTY no
ForceCommand internal-sftp -d /
Subsystem sftp internal-sftp -d /
LogLevel VERBOSE
`, host, port, filepath.Join(etc, "host_ed25519"), filepath.Join(etc, "sshd.pid"), authorized, login)
}

// Start runs sshd (again, after a Stop) on the same port and folder, and
// returns once it accepts connections.
func (s *SFTPServer) Start() {
	s.tb.Helper()
	if s.proc != nil {
		s.tb.Fatal("replicatest: sftp server already running")
	}
	// -D: stay in the foreground as our child; -e: log to stderr, which
	// goes to the log file shown when the server does not come up.
	s.proc = startProcess(s.tb, "sshd", s.log, exec.Command(sshdPath, "-D", "-e", "-f", s.conf))
	s.proc.waitListening(s.tb, s.Addr)
}

// Stop kills sshd and every session it forked, as a server that loses
// power would: open connections break, the files stay.
func (s *SFTPServer) Stop() {
	if s.proc == nil {
		return
	}
	s.proc.kill(true)
	s.proc = nil
}

// Pause freezes sshd and its sessions (SIGSTOP): connections stay open
// and nothing answers, as with a NAS that hangs or a network that drops
// packets. Litestream's SFTP client has no timeouts of its own (0.5.18
// ignores DialTimeout and contexts), so a call made now waits until
// Resume. Linux only.
func (s *SFTPServer) Pause() {
	if s.proc != nil {
		pauseTree(s.proc.cmd.Process, true)
	}
}

// Resume lets a paused server answer again.
func (s *SFTPServer) Resume() {
	if s.proc != nil {
		pauseTree(s.proc.cmd.Process, false)
	}
}

// writeKey makes an ed25519 key, writes its private half to path (0600)
// in OpenSSH's format, and returns the public half.
func writeKey(tb testing.TB, path string) ssh.PublicKey {
	tb.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "posbox test")
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		tb.Fatal(err)
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		tb.Fatal(err)
	}
	return sshPub
}

func writeFile(tb testing.TB, path, content string) {
	tb.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		tb.Fatal(err)
	}
}

// freePort is a loopback port nothing listens on right now. The server
// binds it moments later; kept for Stop and Start.
func freePort(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// missing skips a test that needs a program this machine lacks; in CI
// (CI=true) it fails it, like the console's browser tests.
func missing(tb testing.TB, why string) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatal(why + "; CI must install it (.ci/run)")
	}
	tb.Skip(why)
}
