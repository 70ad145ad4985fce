package main

import (
	"errors"
	"strings"
	"time"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/svc/eventlog"
	"golang.org/x/sys/windows/svc/mgr"
)

// afterInstall makes "service install" complete: recovery actions and,
// for the default data folder, permissions for SYSTEM and Administrators
// only.
func afterInstall(name string, dirs ...string) error {
	return errors.Join(ensureRecovery(name), restrictDirs(dirs))
}

// restrictDirs replaces the folders' permissions, inherited from
// ProgramData (where every local user may read), with full control for
// SYSTEM and Administrators only, passed on to every file inside: the
// folder holds the token signing key, the TSE credentials and the
// config's SMTP and SMS secrets.
func restrictDirs(dirs []string) error {
	sd, err := windows.SecurityDescriptorFromString("D:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)")
	if err != nil {
		return err
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return err
	}
	var errs []error
	for _, d := range dirs {
		errs = append(errs, windows.SetNamedSecurityInfo(d, windows.SE_FILE_OBJECT,
			windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil))
	}
	return errors.Join(errs...)
}

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
// service installed by the MSI, which does none of this, also restarts
// on failure, has its Event Log source and a private data folder.
func prepareService(name string, dirs ...string) error {
	err := eventlog.InstallAsEventCreate(name, eventlog.Error|eventlog.Warning|eventlog.Info)
	if err != nil && !strings.Contains(err.Error(), "exists") {
		return err
	}
	return errors.Join(ensureRecovery(name), restrictDirs(dirs))
}
