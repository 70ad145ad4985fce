//go:build !linux && !windows

package replica

import "errors"

// freeSpace is not measured here: the bound is the configured one alone.
func freeSpace(string) (int64, error) { return 0, errors.New("free space not measured on this system") }
