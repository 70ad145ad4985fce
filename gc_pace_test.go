package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// The appliance's pace applies unless the operator set GOGC or
// GOMEMLIMIT, which win.
func TestPaceGCLeavesTheEnvironmentsSettings(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	paceGC()
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Fatalf("GOGC %d, want %d", got, gcPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != gcSoftLimit {
		t.Fatalf("memory limit %d, want %d", got, gcSoftLimit)
	}

	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "1GiB")
	paceGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GOGC set by the environment was changed to %d", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("GOMEMLIMIT set by the environment was changed to %d", got)
	}
}
