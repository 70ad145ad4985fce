package osservice

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestInstallVerdict: a step after the registration that fails
// (the delayed start, say) is a warning and the service stays; a failed
// registration fails the install. Only "access denied" (EACCES, EPERM,
// Windows' ERROR_ACCESS_DENIED: fs.ErrPermission) advises elevating.
func TestInstallVerdict(t *testing.T) {
	denied := &fs.PathError{Op: "open", Path: "/etc/systemd/system/posbox.service", Err: syscall.EACCES}
	for _, tc := range []struct {
		name     string
		err      error
		elevated bool
		failed   bool
		want     []string
		not      []string
	}{
		{"delayed start fails", &StepError{Step: "its delayed automatic start could not be set",
			Later: "it starts at boot together with the other automatic services", Err: errors.New("The parameter is incorrect.")},
			true, false,
			[]string{"the service is installed, but its delayed automatic start could not be set: The parameter is incorrect.; it starts at boot"},
			[]string{"access denied", "Administrator", "root", "uninstall"}},
		{"recovery denied", &StepError{Step: "its recovery actions could not be set", Later: "the service sets them itself at every start",
			Err: syscall.EPERM}, false, false,
			[]string{"the service is installed", "recovery actions", "at every start", "access denied"}, nil},
		{"registration denied", denied, false, true,
			[]string{"install: open /etc/systemd/system/posbox.service: permission denied", "access denied"},
			[]string{"installed, but"}},
		{"wrapped denial", fmt.Errorf("writing the example config: %w", denied), true, true,
			[]string{"install: writing the example config: open", "access denied"}, nil},
		{"installed already", errors.New("service posbox already exists"), true, true,
			[]string{"install: service posbox already exists", `"posbox service uninstall" first`},
			[]string{"access denied", "Administrator", "root"}},
		{"event log source", errors.New("SetupEventLogSource() failed: The system cannot find the file specified."), true, true,
			[]string{"install: SetupEventLogSource() failed: The system cannot find the file specified."},
			[]string{"access denied", "Administrator", "root", "elevated"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg, failed := InstallVerdict(tc.err, tc.elevated)
			if failed != tc.failed {
				t.Errorf("failed = %v, want %v (%s)", failed, tc.failed, msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(msg, w) {
					t.Errorf("message %q has %q", msg, w)
				}
			}
		})
	}
}

// TestAdvice: the advice to elevate comes with access denied
// only; another error says nothing more, except the fact that a Linux
// command is not running as root (kardianos drops systemctl's message).
func TestAdvice(t *testing.T) {
	if got := Advice(fmt.Errorf("start: %w", syscall.EACCES), true); !strings.Contains(got, "access denied") {
		t.Errorf("EACCES: %q", got)
	}
	if got := Advice(errors.New("exit status 5"), true); got != "" {
		t.Errorf("another error, elevated: %q", got)
	}
	got := Advice(errors.New("exit status 1"), false)
	if runtime.GOOS != "windows" && !strings.Contains(got, "not running as root") || strings.Contains(got, "access denied") {
		t.Errorf("another error, not root: %q", got)
	}
}
