package replica

import (
	"os"
	"time"

	"github.com/superfly/ltx"
)

type backlog struct {
	files  int
	bytes  int64
	oldest time.Time
}

// localBacklog counts the LTX files in Litestream's local L0 directory
// that end after uploaded, the last transaction on the replica: what a
// dead card would take with it. They pile up while the replica is
// unreachable (Litestream cannot prune what it has not uploaded).
func localBacklog(dir string, uploaded ltx.TXID) backlog {
	var b backlog
	entries, err := os.ReadDir(dir)
	if err != nil {
		return b
	}
	for _, e := range entries {
		_, maxTXID, err := ltx.ParseFilename(e.Name())
		if err != nil || maxTXID <= uploaded {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		b.files++
		b.bytes += fi.Size()
		if b.oldest.IsZero() || fi.ModTime().Before(b.oldest) {
			b.oldest = fi.ModTime()
		}
	}
	return b
}
