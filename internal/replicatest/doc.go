// Package replicatest runs real replica targets for tests: Debian's
// OpenSSH server for SFTP and an S3-compatible server, each a child
// process on a loopback port that the test starts and that stops with
// it. Replication (Litestream's replica clients) is tested against them
// over the network as it runs against a NAS or a storage bucket; only the
// far side is a stand-in, and it is a real server. Only tests import it.
//
// Files:
//   - sftp.go: SFTP, an sshd with a temp config (one user, one ed25519
//     key, host-key checking possible, SFTP only), stoppable and
//     restartable on the same port and folder (a target unreachable, then
//     back), and pausable (a target that hangs).
//   - s3.go: S3, Versity's S3 gateway (versitygw) on its posix backend:
//     one bucket, one account, path-style requests; why this server is in
//     the file's comment.
//   - versitygw.go: building the gateway at its pinned version from the
//     module proxy, once per machine, into the user's cache folder.
//   - process.go: starting a server process, waiting until it listens
//     (internal/poll, no sleeps), killing it, showing its log when the
//     test failed.
//   - kill_linux.go: killing or pausing every process a server forked
//     (sshd's sessions), found in /proc; kill_other.go elsewhere.
//
// Without the server program a test skips, saying what to install; with
// CI=true it fails instead, like the console's browser tests.
package replicatest
