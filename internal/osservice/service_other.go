//go:build !windows

package osservice

import "os"

// afterInstall has nothing to add outside Windows: the unit carries
// Restart=on-failure.
// (The data dir is created 0700 and the config 0600.)
func AfterInstall(string, ...string) []error { return nil }

// prepareService has nothing to prepare under systemd.
func Prepare(string, ...string) error { return nil }

// Elevated reports whether posbox runs as root.
func Elevated() bool { return os.Geteuid() == 0 }
