//go:build !windows

package main

// afterInstall has nothing to add outside Windows: the unit carries
// Restart=on-failure.
func afterInstall(string) error { return nil }

// prepareService has nothing to prepare under systemd.
func prepareService(string) error { return nil }
