package replica

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/benbjohnson/litestream"
	"github.com/superfly/ltx"
)

// folderGuard keeps a file:// replica from filling the box's own card: a
// NAS or USB disk that is not mounted leaves an empty mount point, where
// Litestream's file client would create the folder and "replicate" to the
// card. The replica's folder must exist (made once on the mounted share);
// while it is missing every upload fails, and the status says so.
type folderGuard struct {
	litestream.ReplicaClient
	root string
}

func (g folderGuard) WriteLTXFile(ctx context.Context, level int, minTXID, maxTXID ltx.TXID, r io.Reader) (*ltx.FileInfo, error) {
	if err := g.check(); err != nil {
		return nil, err
	}
	return g.ReplicaClient.WriteLTXFile(ctx, level, minTXID, maxTXID, r)
}

// check fails while the folder is missing. Litestream's file client
// lists a missing folder as empty; a replica taken for empty after a
// backlog was given up would get a history that does not follow its own
// (bound_backlog.go).
func (g folderGuard) check() error {
	if fi, err := os.Stat(g.root); err != nil || !fi.IsDir() {
		return fmt.Errorf("replica folder %s is missing (share or disk not mounted?); create it once on the mounted share", g.root)
	}
	return nil
}
