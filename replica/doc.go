// Package replica is posbox's side of continuous replication: the
// database streamed off the box as Litestream LTX files, every object
// encrypted with age before it leaves, the data dir's other files as
// immutable verified uploads beside it, and a restore from that replica.
// Only this package imports Litestream (pinned in go.mod; its library API
// is marked unstable, docs/REPLICATION.md says which version and why), so
// the rest of posbox speaks of Options, Status and Restore only.
//
//   - replica.go: Options, the Replicator (Start, Sync, Close) and its
//     Status: what was uploaded when, the last error and since when, the
//     local backlog.
//   - litestream.go: the adapter: Litestream's DB, replica and
//     compaction store around the encrypting client; Restore.
//   - clients.go: the client a URL names, with the SFTP key, password
//     file and host key and the S3 credential files Litestream's URL
//     parsing leaves out; AWS_CA_BUNDLE dropped for the S3 client.
//   - bound.go: every call to the target bounded (a hung SFTP server
//     blocks Litestream's client forever).
//   - crypt.go: the encrypting ReplicaClient around Litestream's own:
//     writes age files, reads them back at plaintext offsets and sizes.
//   - envelope.go: the object's layout (a clear LTX header stub, then
//     the age file) and the size arithmetic, free of Litestream's types.
//   - folder.go: a file:// replica's folder must exist (an unmounted
//     share must not fill the box's own card).
//   - backlog.go: the local LTX files not yet uploaded.
//   - bound_backlog.go: the backlog's bound (a cap, at most half the free
//     space; bound_disk_*.go measure it); past it the backlog is given
//     up and a complete copy follows once the replica answers.
//   - stall.go: StallWatcher, which tells of a stall once and of its end.
//   - keyfile.go: the recovery key (DATA_DIR/replica.key) and the extra
//     recipients (replica_recipients).
//   - redact.go: the URL as it may be logged and shown.
//   - objects.go, objects_file.go, objects_sftp.go, objects_s3.go: the
//     replica as an object store (Put, Get, List, Delete under files/)
//     for the data dir's other files, on the three targets, built from
//     the same URL, keys and credentials, every call bounded.
//   - files.go: their layout: content-addressed age blobs (4 MiB chunks,
//     then 64 KiB ones; a tree per folder; a file's sealed list of big
//     chunks) and timestamped manifests; upload with read-back
//     verification.
//   - files_upload.go, files_run.go: the uploader: a scan every 2 s by
//     size and mtime, an append-only journal read only where it grew,
//     its outcome in Status (files_at, files_error).
//   - files_gc.go: the newest five manifests, those younger than an
//     hour and what they name stay, the rest goes every 10 minutes.
//   - restore_files.go: RestoreDataDir: the database and every file of
//     the newest manifest, each checked, staged and renamed into an empty
//     folder (once more from the newest, should the box have collected
//     what it read); the config into restored-config/.
//   - follow.go, follow_watch.go: Follow, a read-only copy kept current
//     from a replica (HQ, docs/HQ.md): Litestream's follow mode, a lock
//     readers share with it, the copy's age, a fresh restore when the
//     replica no longer continues it; follow_key.go: HQ's key.
package replica
