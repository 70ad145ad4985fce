package smtptest

import (
	"os/exec"
	"strings"
	"testing"
)

// Only tests import smtptest: the binary's dependencies do not hold it.
func TestNotInTheBinary(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goCmd, "list", "-deps", "posbox").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "posbox/notify/smtptest" {
			t.Fatal("posbox (the binary) imports posbox/notify/smtptest")
		}
	}
}
