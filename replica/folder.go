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
	if fi, err := os.Stat(g.root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("replica folder %s is missing (share or disk not mounted?); create it once on the mounted share", g.root)
	}
	return g.ReplicaClient.WriteLTXFile(ctx, level, minTXID, maxTXID, r)
}
