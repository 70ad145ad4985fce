//go:build linux

package diskfree

import "syscall"

// Available is what an unprivileged writer may still write on the file
// system holding dir.
func Available(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}
