// Package backup is the appliance's complete backup: one encrypted file
// with the database and every file of the data dir the appliance cannot
// do without, its restore into a new data dir, and the nightly backups'
// retention. A database-only backup (store.BackupFile) cannot bring a box
// back: jwt.key, tse.json (fiskaly's API secret, PUK, admin PIN) and the
// simulator's keys are not in it, and without tse.json a restored box
// would sign with a fresh simulator TSS.
//
// format.go: format version 1, a file ending in .posbox-backup:
//
//	age (scrypt passphrase) ( gzip ( tar ) )
//
// The tar holds regular files only, named by slash paths relative to the
// data dir: posbox.db (a VACUUM INTO snapshot, checked), jwt.key,
// initial-admin-password, tse.json, tse-setup.json, tse-sim/…, archive/…
// and tls/… (each when present), then MANIFEST.json as the last entry
// (so the archive streams without a second pass): format, format
// version, posbox version and build, created_at (UTC) and each file's
// path, size and SHA-256. Being age's standard format, a backup also
// opens without posbox: age -d FILE | tar -xz.
//
// passphrase.go: encryption is filippo.io/age, a small, audited library
// with a specified format, authenticated streaming encryption (a cut-off
// or changed file fails, not just a wrong passphrase) and a passphrase
// recipient with scrypt (work factor 2^18, age's default). Doing this
// with x/crypto primitives by hand would be our own file format and our
// own mistakes. The passphrase (at least 12 characters) comes from a
// file or POSBOX_BACKUP_PASSPHRASE, never argv (ps).
//
// write.go: order matters for the simulator: the database snapshot
// first, then the journal, then its keys; the journal records a
// signature before the sale is committed, so every signature the
// database holds is in the journal, and a key is written before the
// journal line that uses it. A file that grows meanwhile (the journal)
// is copied up to its size at open; a torn last line is what the
// simulator cuts on open anyway. The file is written beside the target,
// read back and checked against the manifest, then linked into place
// like a database backup (store.Publish). The database snapshot is taken
// in the data dir, as private as the database, never beside a target on
// a USB stick.
//
// read.go and restore.go: a restore tells the two kinds apart by their
// first bytes (age's header, SQLite's), decrypts and extracts into a
// staging folder inside the target data dir, checks every path (only the
// data dir's known files and files under tse-sim/, archive/ and tls/;
// regular files only; nothing after the manifest; the manifest lists
// exactly the files, each with its SHA-256), reads the stream to its end
// so age and gzip verify it whole, runs integrity_check on the database,
// and only then renames the entries into the data dir, the database
// last, files 0600 and folders 0700. It refuses a data dir with posbox.db
// (or its -wal/-shm) and any file the backup brings: it never replaces
// anything, and a refused or failed restore leaves the folder as it
// found it.
//
// nightly.go: the nightly job (scheduled by main at 03:00 UTC) makes
// complete backups when backup_passphrase_file is set (the file must
// then live on the box, readable by posbox: the encryption protects the
// copies off the box, where the backups travel), else database-only
// ones; if the passphrase cannot be read it still writes a database-only
// backup and reports the error. Files are named by UTC date, a day
// already written is skipped, and only files named like its own are
// pruned; retention counts both kinds by date, so after a switch the old
// kind ages out.
package backup
