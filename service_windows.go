package main

import "golang.org/x/sys/windows/svc/mgr"

// afterInstall makes the SCM apply the recovery actions (restart) also
// when the service stops itself with an error, not only when the process
// crashes: kardianos sets the actions but not this flag.
func afterInstall(name string) error {
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
	return s.SetRecoveryActionsOnNonCrashFailures(true)
}
