//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store

import "syscall"

// setUmask sets the process umask and returns the old one.
func setUmask(mask int) (old int, ok bool) { return syscall.Umask(mask), true }
