//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package store

// setUmask: this system has no umask (Windows) or syscall lacks it.
func setUmask(int) (old int, ok bool) { return 0, false }
