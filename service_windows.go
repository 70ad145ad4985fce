package main

import (
	"strings"
	"time"

	"golang.org/x/sys/windows/svc/eventlog"
	"golang.org/x/sys/windows/svc/mgr"
)

// afterInstall makes "service install" complete; see ensureRecovery.
func afterInstall(name string) error { return ensureRecovery(name) }

// ensureRecovery sets the service's recovery actions: restart 5 s after
// every failure, the count reset after a day, also when the service
// stops itself with an error rather than crashing (kardianos sets the
// actions but not that flag).
func ensureRecovery(name string) error {
	m, err := mgr.Connect()
	if err != nil {
		return err
	}
	defer m.Disconnect()
	s, err := m.OpenService(name)
	if err != nil {
		return err
	}
	defer s.Close()
	restart := mgr.RecoveryAction{Type: mgr.ServiceRestart, Delay: 5 * time.Second}
	if err := s.SetRecoveryActions([]mgr.RecoveryAction{restart, restart, restart}, 86400); err != nil {
		return err
	}
	return s.SetRecoveryActionsOnNonCrashFailures(true)
}

// prepareService runs at every service start (as LocalSystem) so that a
// service installed by the MSI, which sets neither, also restarts on
// failure and has its Event Log source.
func prepareService(name string) error {
	err := eventlog.InstallAsEventCreate(name, eventlog.Error|eventlog.Warning|eventlog.Info)
	if err != nil && !strings.Contains(err.Error(), "exists") {
		return err
	}
	return ensureRecovery(name)
}
