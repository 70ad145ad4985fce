//go:build windows

package diskfree

import "golang.org/x/sys/windows"

// Available is what this user may still write on the volume holding dir.
func Available(dir string) (int64, error) {
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return 0, err
	}
	var avail uint64
	if err := windows.GetDiskFreeSpaceEx(p, &avail, nil, nil); err != nil {
		return 0, err
	}
	return int64(avail), nil
}
