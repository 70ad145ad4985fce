package main

import (
	"maps"
	"slices"
	"testing"
)

// The files that go along: backup's set without the database (Litestream
// streams it), and from outside the data dir the config file and the
// secret files it names, by name, a clash kept apart.
func TestReplicaFilesGoAlong(t *testing.T) {
	for rel, want := range map[string]bool{
		"archive/tse/x_1-12.tar": true, "tse-sim/journal.jsonl": true, "tse.json": true, "jwt.key": true, "tls/cert.pem": true,
		"posbox.db": false, "posbox.db-wal": false, "replica.key": false, "backups/posbox-2026.db": false,
	} {
		if goesAlong(rel) != want {
			t.Errorf("goesAlong(%q) = %v", rel, !want)
		}
	}
	cfg := DefaultConfig()
	cfg.File, cfg.TLSCertFile, cfg.TLSKeyFile = "/etc/posbox/posbox.conf", "/etc/posbox/tls/cert.pem", "/etc/posbox/other/cert.pem"
	cfg.ReplicaURL = "sftp://u@nas:22/posbox?key=/etc/posbox/nas.key&host-key=ssh-ed25519+AAAA"
	got := configFiles(cfg)
	want := map[string]string{"posbox.conf": cfg.File, "cert.pem": cfg.TLSCertFile, "tls_key_file-cert.pem": cfg.TLSKeyFile, "nas.key": "/etc/posbox/nas.key"}
	if !maps.Equal(got, want) {
		t.Errorf("configFiles = %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
}
