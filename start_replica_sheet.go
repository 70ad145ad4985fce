package main

import (
	"path/filepath"

	"posbox/replica"
	"posbox/server"
)

// RecoverySheet makes replicaState a server.RecoverySheeter: the sheet
// of DATA_DIR/replica.key, read at each request (the key stays on disk,
// not in the server's memory between requests).
func (v *replicaState) RecoverySheet() (server.RecoverySheet, error) {
	id, err := replica.LoadKey(filepath.Join(v.dataDir, replica.KeyFile))
	if err != nil {
		return server.RecoverySheet{}, err
	}
	sh := replica.NewSheet(v.url, id)
	return server.RecoverySheet{URL: sh.URL, PublicKey: sh.PublicKey, RecoveryKey: sh.RecoveryKey,
		RestoreCommand: sh.RestoreCommand, Text: sh.Text()}, nil
}
