package main

import (
	"net/url"
	"path/filepath"

	"posbox/backup"
	"posbox/store"
	"posbox/tse"
)

// goesAlong is which of the data dir's files the replica takes besides
// the database (which Litestream streams): those of a complete backup.
func goesAlong(rel string) bool { return rel != store.FileName && backup.Holds(rel) }

// appendOnly names the simulator's journal: only ever appended to, so
// the replica takes only what was added.
func appendOnly(rel string) bool { return rel == tse.SimDir+"/journal.jsonl" }

// configFiles are the files outside the data dir a new box needs, by the
// name they get in DATA_DIR/restored-config after a restore: the config
// file and the secret files it names (the owner's TLS certificate and
// key, the backup passphrase, the replica's own key and credential
// files). They are encrypted like everything on the replica; the restore
// puts them aside, not into place, as where they belong is the owner's.
func configFiles(cfg Config) map[string]string {
	out := map[string]string{}
	add := func(key, p string) {
		if p == "" {
			return
		}
		name := filepath.Base(p)
		if _, taken := out[name]; taken {
			name = key + "-" + name
		}
		out[name] = p
	}
	add("config", cfg.File)
	add("tls_cert_file", cfg.TLSCertFile)
	add("tls_key_file", cfg.TLSKeyFile)
	add("backup_passphrase_file", cfg.BackupPassphraseFile)
	if u, err := url.Parse(cfg.ReplicaURL); err == nil {
		q := u.Query()
		for _, k := range []string{"key", "password-file", "access-key-file", "secret-key-file"} {
			add(k, q.Get(k))
		}
	}
	return out
}
