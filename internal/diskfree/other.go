//go:build !linux && !windows

package diskfree

import "errors"

// Available is not measured here: callers treat the error as "unknown"
// (the replica keeps its configured bound, the vacuum conversion waits).
func Available(string) (int64, error) {
	return 0, errors.New("free space not measured on this system")
}
