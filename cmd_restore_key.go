package main

import (
	"fmt"
	"os"
	"path/filepath"

	"posbox/internal/secretfile"
	"posbox/replica"
)

// copyRecoveryKey puts the key file into the restored data dir as
// replica.key only when it is the box's own recovery key, as the
// replica's manifest names it (publicKey is the key file's). Any key the
// replica is encrypted to restores it, HQ's too; copied, HQ's key would
// show on the new box's recovery sheet, to the box's admin, and it opens
// every box of the chain. The text returned says what was done and why.
func copyRecoveryKey(keyFile, publicKey string, r *replica.RestoredDataDir) string {
	dest := filepath.Join(r.DataDir, replica.KeyFile)
	var why string
	switch r.RecoveryKey {
	case publicKey:
		kb, err := os.ReadFile(keyFile)
		if err == nil {
			err = secretfile.Create(dest, kb)
		}
		if err == nil {
			return ""
		}
		return fmt.Sprintf("  the recovery key was not copied (%v): copy %s to %s yourself\n", err, keyFile, dest)
	case "":
		why = fmt.Sprintf("the replica was written by a posbox that does not record the box's recovery key, so it cannot be told whether %s is the box's own or another key the replica is encrypted to (such as HQ's)", keyFile)
	default:
		why = fmt.Sprintf("%s (public key %s) is not the box's recovery key (%s) but another key the replica is encrypted to, such as HQ's: as replica.key it would show on the box's recovery sheet, and it opens every box encrypted to it", keyFile, publicKey, r.RecoveryKey)
	}
	return fmt.Sprintf(`  the key file was NOT copied to %s: %s.
  Before posbox starts with replica_url set, put the box's own recovery key (the
  old box's replica.key, from its recovery sheet) into %s. Without it posbox makes
  a new recovery key at start: it cannot read what the old box uploaded (the files'
  upload stops: "the key does not open it"), and the old recovery sheet does not
  open what it encrypts. To start afresh with a new key instead, point replica_url
  at a new, empty replica and print the new recovery sheet (posbox replica key).
`, dest, why, dest)
}
