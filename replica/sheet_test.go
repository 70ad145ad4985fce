package replica

import (
	"strings"
	"testing"
)

// The sheet names the replica without secrets, both keys and the restore
// command with its placeholders; it names no command that is not built.
func TestRecoverySheet(t *testing.T) {
	id := newKey(t)
	url := Redact("sftp://backup:hunter2@nas.local:22/posbox?key=/etc/posbox/id")
	sh := NewSheet(url, id)
	want := "posbox restore --from '" + url + "' --key-file " + SheetKeyFile + " --data-dir " + SheetDataDir
	if sh.RestoreCommand != want || sh.RecoveryKey != id.String() || sh.PublicKey != id.Recipient().String() {
		t.Fatalf("sheet: %+v", sh)
	}
	text := RecoverySheet(url, id)
	for _, w := range []string{url, id.String(), id.Recipient().String(), want, "docs/OPERATIONS.md", "0600"} {
		if !strings.Contains(text, w) {
			t.Errorf("the sheet lacks %q:\n%s", w, text)
		}
	}
	for _, bad := range []string{"hunter2", "/etc/posbox/id", "not built"} {
		if strings.Contains(text, bad) {
			t.Errorf("the sheet shows %q:\n%s", bad, text)
		}
	}
}
