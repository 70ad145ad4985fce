// Package poll is the one way tests wait for background work: a worker
// that signs a sale, a dispatcher that delivers, a browser that renders.
//
// A test that waits polls a condition against a real-time bound instead
// of sleeping a fixed time: a sleep is either too short on a slow machine
// or wasted on a fast one. The bound is a safety net, not a timing
// assertion, so it is generous (seconds); the first checks come quickly
// (from 1 ms) and the interval grows to 50 ms, so a condition that holds
// at once costs nothing and a long wait does not spin.
//
// Until fails the test when the bound passes; Wait only says whether the
// condition held, for a caller whose own failure message shows what it
// saw (a page's text, a count) or that asserts on the state afterwards.
package poll

import (
	"testing"
	"time"
)

// The interval between checks starts at firstInterval and doubles up to
// maxInterval.
const (
	firstInterval = time.Millisecond
	maxInterval   = 50 * time.Millisecond
)

// Until polls cond until it returns true. If it has not within timeout, it
// fails tb with a message naming what was awaited. cond runs on the
// caller's goroutine, so it may itself call tb.Fatal.
func Until(tb testing.TB, timeout time.Duration, what string, cond func() bool) {
	tb.Helper()
	if !Wait(timeout, cond) {
		tb.Fatalf("timed out after %s waiting for %s", timeout, what)
	}
}

// Wait polls cond until it returns true or timeout has passed, and
// reports whether cond held. cond is checked once more after the timeout,
// so a condition that became true during the last interval counts.
func Wait(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	interval := firstInterval
	for !cond() {
		if !time.Now().Before(deadline) {
			return false
		}
		time.Sleep(min(interval, time.Until(deadline)+time.Millisecond))
		interval = min(2*interval, maxInterval)
	}
	return true
}
