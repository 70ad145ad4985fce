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
//     back).
//   - process.go: starting a server process, waiting until it listens
//     (internal/poll, no sleeps), killing it with every process it forked.
//
// Without the server program a test skips, saying what to install; with
// CI=true it fails instead, like the console's browser tests.
package replicatest
