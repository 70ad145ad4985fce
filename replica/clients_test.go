package replica

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benbjohnson/litestream/s3"
	"github.com/benbjohnson/litestream/sftp"
)

func TestURLsBecomeClients(t *testing.T) {
	pw := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pw, []byte("s3cr3t\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := newClient("sftp://posbox@nas.local:2222/backup/box1?key=/etc/posbox/id_ed25519&password-file=" + pw + "&host-key=ssh-ed25519%20AAAA")
	if err != nil {
		t.Fatal(err)
	}
	sc := c.(*sftp.ReplicaClient)
	if sc.Host != "nas.local:2222" || sc.User != "posbox" || sc.Path != "backup/box1" || sc.KeyPath != "/etc/posbox/id_ed25519" ||
		sc.Password != "s3cr3t" || sc.HostKey != "ssh-ed25519 AAAA" {
		t.Errorf("sftp client %+v", sc)
	}
	c, err = newClient("s3://bucket/boxes/1?endpoint=http://127.0.0.1:9000&region=eu-central-1")
	if err != nil {
		t.Fatal(err)
	}
	if s := c.(*s3.ReplicaClient); s.Bucket != "bucket" || s.Path != "boxes/1" || s.Endpoint != "http://127.0.0.1:9000" {
		t.Errorf("s3 client %+v", s)
	}
	dir := t.TempDir()
	ak, sk := filepath.Join(dir, "ak"), filepath.Join(dir, "sk")
	os.WriteFile(ak, []byte("AKID\n"), 0o600)
	os.WriteFile(sk, []byte("s3cr3t/key\r\n"), 0o600)
	u := "s3://bucket/p?endpoint=http://127.0.0.1:9000&access-key-file=" + ak + "&secret-key-file=" + sk
	c, err = newClient(u)
	if err != nil {
		t.Fatal(err)
	}
	if s := c.(*s3.ReplicaClient); s.AccessKeyID != "AKID" || s.SecretAccessKey != "s3cr3t/key" {
		t.Errorf("s3 credentials from files: %q %q", s.AccessKeyID, s.SecretAccessKey)
	}
	if r := Redact(u); strings.Contains(r, dir) {
		t.Errorf("Redact shows the credential files: %s", r)
	}
	if _, err := newClient("s3://bucket/p?secret-key-file=" + filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing secret-key-file accepted")
	}
	if err := CheckURL("ftp://nas/box"); err == nil {
		t.Error("ftp:// accepted")
	}
}

func TestRedactHidesSecrets(t *testing.T) {
	got := Redact("sftp://posbox:hunter2@nas:22/p?password-file=/x&host-key=abc")
	if strings.Contains(got, "hunter2") || !strings.Contains(got, "posbox") || !strings.Contains(got, "host-key=xxxxx") {
		t.Errorf("Redact: %s", got)
	}
}
