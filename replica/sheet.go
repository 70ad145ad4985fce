package replica

import (
	"fmt"

	"filippo.io/age"
)

// Placeholders the owner fills in on the restore command: where the
// recovery key was put (alone, mode 0600) and the new, empty data dir.
const (
	SheetKeyFile = "/path/to/recovery.key"
	SheetDataDir = "/path/to/empty-folder"
)

// Sheet is the recovery sheet the owner keeps away from the box: the
// replica's URL (without secrets), the recovery key with its public key,
// and the command that rebuilds a box from the replica.
type Sheet struct {
	URL            string // Redact'ed: a password shows as xxxxx
	PublicKey      string
	RecoveryKey    string // AGE-SECRET-KEY-1...
	RestoreCommand string // with SheetKeyFile and SheetDataDir to fill in
}

// NewSheet is the sheet of the replica at url (already redacted) and the
// recovery key id.
func NewSheet(url string, id *age.X25519Identity) Sheet {
	return Sheet{URL: url, PublicKey: id.Recipient().String(), RecoveryKey: id.String(),
		RestoreCommand: fmt.Sprintf("posbox restore --from '%s' --key-file %s --data-dir %s", url, SheetKeyFile, SheetDataDir)}
}

// Text is the sheet as `posbox replica key` prints it.
func (s Sheet) Text() string {
	return fmt.Sprintf(`posbox replica recovery sheet

Keep this sheet away from the box (printed, in a safe; a second copy
with the tax adviser). Without the recovery key the replica cannot be
read; with it, anyone can read it.

replica      %s
public key   %s
recovery key %s

To restore on a new box (docs/OPERATIONS.md, "Off the box"):
1. Put the recovery key alone in a file, mode 0600 (%s).
2. Where the URL shows xxxxx, put back what the box had there (a
   password, or a file: ?key=, ?password-file=, ?secret-key-file=);
   secrets are never printed on this sheet.
3. Into an empty folder (%s):

   %s
`, s.URL, s.PublicKey, s.RecoveryKey, SheetKeyFile, SheetDataDir, s.RestoreCommand)
}

// RecoverySheet is the sheet's text for the replica at url (already
// redacted) and the recovery key id.
func RecoverySheet(url string, id *age.X25519Identity) string {
	return NewSheet(url, id).Text()
}
