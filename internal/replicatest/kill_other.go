//go:build !linux

package replicatest

import "os"

// killDescendants is Linux's only (it reads /proc): elsewhere a stopped
// sshd's open sessions live on until their clients hang up, and the
// tests that need sshd skip anyway (it is Debian's, at /usr/sbin/sshd).
func killDescendants(*os.Process) {}

// pauseTree is Linux's only, like killDescendants.
func pauseTree(*os.Process, bool) {}
