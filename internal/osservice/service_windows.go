package osservice

import (
	"errors"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/svc/eventlog"
	"golang.org/x/sys/windows/svc/mgr"
)

// AfterInstall makes "service install" complete: the delayed automatic
// start, the recovery actions and, for the default data folder,
// permissions for SYSTEM and Administrators only. Each failure is an
// *StepError, a warning: the service is installed and starts all
// the same, and stays installed (InstallVerdict).
func AfterInstall(name string, dirs ...string) []error {
	var errs []error
	if err := setDelayedStart(name); err != nil {
		errs = append(errs, &StepError{Step: "its delayed automatic start could not be set",
			Later: "it starts at boot together with the other automatic services", Err: err})
	}
	if err := ensureRecovery(name); err != nil {
		errs = append(errs, &StepError{Step: "its recovery actions (restart after a failure) could not be set",
			Later: "the service sets them itself at every start", Err: err})
	}
	for _, d := range dirs {
		if err := restrictDirs([]string{d}); err != nil {
			errs = append(errs, &StepError{Step: "the permissions of " + d + " could not be limited to SYSTEM and Administrators",
				Later: "the service tries again at every start; check them with: icacls \"" + d + "\"", Err: err})
		}
	}
	return errs
}

// setDelayedStart starts the service after the other automatic services
// (and the boot rush). Set here rather than through kardianos'
// DelayedAutoStart option: when that fails, x/sys/windows/svc/mgr's
// CreateService deletes the service it has just created.
func setDelayedStart(name string) error {
	return withService(name, func(s *mgr.Service) error {
		info := windows.SERVICE_DELAYED_AUTO_START_INFO{IsDelayedAutoStartUp: 1}
		return windows.ChangeServiceConfig2(s.Handle, windows.SERVICE_CONFIG_DELAYED_AUTO_START_INFO, (*byte)(unsafe.Pointer(&info)))
	})
}

// withService runs fn on the installed service name through the Service
// Control Manager.
func withService(name string, fn func(*mgr.Service) error) error {
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
	return fn(s)
}

// Elevated reports whether posbox runs with an administrator's full
// token (an elevated prompt, or as a service).
func Elevated() bool {
	return windows.GetCurrentProcessToken().IsElevated()
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
	return withService(name, func(s *mgr.Service) error {
		restart := mgr.RecoveryAction{Type: mgr.ServiceRestart, Delay: 5 * time.Second}
		if err := s.SetRecoveryActions([]mgr.RecoveryAction{restart, restart, restart}, 86400); err != nil {
			return err
		}
		return s.SetRecoveryActionsOnNonCrashFailures(true)
	})
}

// Prepare runs at every service start (as LocalSystem) so that a
// service installed by the MSI, which does none of this, also restarts
// on failure, has its Event Log source and a private data folder.
func Prepare(name string, dirs ...string) error {
	err := eventlog.InstallAsEventCreate(name, eventlog.Error|eventlog.Warning|eventlog.Info)
	if err != nil && !strings.Contains(err.Error(), "exists") {
		return err
	}
	return errors.Join(ensureRecovery(name), restrictDirs(dirs))
}
