// Package osservice is what posbox's OS service needs beyond
// kardianos/service: on Windows the delayed automatic start, the recovery
// actions (also on non-crash failures), the Event Log source and a data
// folder for SYSTEM and Administrators only, set after install and again
// at every service start (an MSI install does none of it); and, on every
// system, what an install's or a control action's error means for the
// technician (InstallVerdict, Advice). main's service.go wires it.
package osservice

import (
	"errors"
	"io/fs"
	"runtime"
	"strings"
)

// A StepError is a step of "posbox service install" that failed
// after the service manager had registered the service (on Windows: the
// delayed start, the recovery actions, the data folder's permissions).
type StepError struct {
	Step  string // what could not be set
	Later string // what happens about it without the technician, if anything
	Err   error
}

func (e *StepError) Error() string { return e.Step + ": " + e.Err.Error() }
func (e *StepError) Unwrap() error { return e.Err }

// InstallVerdict decides what an error of "posbox service install"
// means: the message, and whether the install failed.
//
// A StepError (a step after the registration) is a warning: the
// service is installed and starts, and stays; the message says what is
// missing and what happens about it. Before, a failed delayed start made
// Windows delete the service it had just created.
//
// Any other error is the registration's (or the folders' before it), and
// the install failed. Nothing is rolled back then either: registration
// made no service, or kardianos removed the one it had begun, or one was
// there already, from an earlier install, which must stay.
//
// Either way the message says what failed; it tells the technician to
// elevate only when access was denied (see Advice).
func InstallVerdict(err error, elevated bool) (msg string, failed bool) {
	var step *StepError
	if errors.As(err, &step) {
		msg = "the service is installed, but " + err.Error()
		if step.Later != "" {
			msg += "; " + step.Later
		}
		return msg + Advice(err, elevated), false
	}
	msg = "install: " + err.Error()
	if strings.Contains(err.Error(), "already exists") {
		return msg + ` (it is installed already: "posbox service uninstall" first to install it anew)`, true
	}
	return msg + Advice(err, elevated), true
}

// Advice is what to add to a failed service action's message: to
// elevate when access was denied (on Windows ERROR_ACCESS_DENIED, on
// Linux EACCES or EPERM; errors.Is matches both with fs.ErrPermission).
// Another error from a process that is not elevated gets the fact
// mentioned, as a hint: kardianos drops systemctl's own message ("Access
// denied", "Interactive authentication required") and returns only its
// exit status. Otherwise nothing: the error says what failed.
func Advice(err error, elevated bool) string {
	switch {
	case errors.Is(err, fs.ErrPermission) && runtime.GOOS == "windows":
		return ` (access denied: run it from a Command Prompt opened with "Run as administrator")`
	case errors.Is(err, fs.ErrPermission):
		return " (access denied: run it as root, with sudo)"
	case !elevated && runtime.GOOS != "windows":
		return " (this is not running as root: with sudo it may work)"
	}
	return ""
}
