package retention

import (
	"os"
	"runtime"
)

// sqliteTempDir is where SQLite puts the temporary copy a VACUUM builds
// (a file: posbox leaves temp_store at its default). On Unix, SQLite's
// unix VFS (modernc's too: it is SQLite's own C code) takes the first
// existing directory of SQLITE_TMPDIR and TMPDIR as the process found
// them at its start, then /var/tmp, /usr/tmp, /tmp; PRAGMA
// temp_store_directory would come first, and posbox never sets it. On
// Windows it is the user's temp directory.
func sqliteTempDir(getenv func(string) string) string {
	if runtime.GOOS == "windows" {
		return os.TempDir()
	}
	for _, dir := range []string{getenv("SQLITE_TMPDIR"), getenv("TMPDIR"), "/var/tmp", "/usr/tmp", "/tmp"} {
		if dir == "" {
			continue
		}
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
	}
	return "."
}
