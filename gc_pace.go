package main

import (
	"os"
	"runtime/debug"
)

// The garbage collector's pace while the appliance serves
// (docs/PERFORMANCE.md, "Garbage collection"). Its live heap is small (a
// few MiB) while a request allocates a lot (a week of shifts is 1.4 MB):
// at Go's default GOGC=100 it collected every few requests, and its
// stop-and-scan was a fifth of the week's CPU. 400 lets the heap grow to
// five times the live data; the soft limit keeps that well inside a
// 1 GB Raspberry Pi when the live heap itself is large (an export, a
// restore). The backup and restore commands take the same limit: a
// complete backup derives its key with scrypt (256 MiB) and then again to
// check the file; without a limit the first was still held when the
// second began (max RSS 558 MiB at ten years, 399 MiB with the limit).
// GOGC and GOMEMLIMIT in the environment still win.
const (
	gcPercent   = 400
	gcSoftLimit = 384 << 20
)

// paceGC sets both unless the environment sets them. serve, backup and
// restore call it.
func paceGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(gcSoftLimit)
	}
}
