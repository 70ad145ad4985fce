package replica

import (
	"fmt"

	"filippo.io/age"
)

// RecoverySheet is what the owner keeps away from the box ("posbox
// replica key"): the replica's URL (without secrets), the recovery key
// and its public key. It names no command that does not exist yet.
func RecoverySheet(url string, id *age.X25519Identity) string {
	return fmt.Sprintf(`posbox replica recovery sheet

Keep this sheet away from the box (printed, in a safe). Without the
recovery key the replica cannot be read; with it, anyone can read it.

replica      %s
public key   %s
recovery key %s

To restore, put the recovery key alone in a file (mode 0600) on the new box.
The restore command (posbox restore --from) is not built yet: see
docs/REPLICATION.md for the state of restoring from the replica.
`, url, id.Recipient(), id)
}
