//go:build !windows

package main

import "os"

// afterInstall has nothing to add outside Windows: the unit carries
// Restart=on-failure.
// (The data dir is created 0700 and the config 0600.)
func afterInstall(string, ...string) []error { return nil }

// prepareService has nothing to prepare under systemd.
func prepareService(string, ...string) error { return nil }

// elevated reports whether posbox runs as root.
func elevated() bool { return os.Geteuid() == 0 }
