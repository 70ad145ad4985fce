package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"posbox/replica"
	"posbox/server"
	"posbox/store"
)

// checkReplica refuses a replica URL no client takes and recipients that
// are not age public keys, at start rather than at the first upload.
func (c *Config) checkReplica() error {
	if c.ReplicaURL == "" {
		if c.ReplicaRecipients != "" {
			return fmt.Errorf("replica_recipients is set but replica_url is not")
		}
		return nil
	}
	if err := replica.CheckURL(c.ReplicaURL); err != nil {
		return fmt.Errorf("replica_url: %w", err)
	}
	if _, err := replica.ParseRecipients(c.ReplicaRecipients); err != nil {
		return err
	}
	return c.checkReplicaStall()
}

// startReplica replicates the database to cfg.ReplicaURL, encrypted to
// the recovery key (DATA_DIR/replica.key, made on the first start with
// replication on) and cfg.ReplicaRecipients. Off (nil) without a URL. A
// replica unreachable at start does not stop the box: it sells, and the
// uploads wait until the replica answers (replica.Start). Should Start
// fail for another reason, the box works on unreplicated until the next
// start, logged as an error.
func startReplica(ctx context.Context, st *store.Store, cfg Config, log *slog.Logger) (*replica.Replicator, error) {
	if cfg.ReplicaURL == "" {
		return nil, nil
	}
	id, created, err := replica.LoadOrCreateKey(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	recips, err := replica.ParseRecipients(cfg.ReplicaRecipients)
	if err != nil {
		return nil, err
	}
	url := replica.Redact(cfg.ReplicaURL)
	if created {
		log.Warn("replica recovery key created: copy it off the box now, the replica cannot be read without it",
			"key_file", replica.KeyFile, "public_key", id.Recipient().String())
	}
	rep, err := replica.Start(ctx, st.Path(), replica.Options{URL: cfg.ReplicaURL, Identity: id, Recipients: recips,
		Logger: log.With("area", "replica"), DataDir: cfg.DataDir, Include: goesAlong, AppendOnly: appendOnly,
		ExtraFiles: configFiles(cfg), BacklogMax: int64(cfg.ReplicaBacklogMaxMB) << 20})
	if err != nil {
		log.Error("replication did not start; the box works on without it until the next start", "url", url, "err", err)
		return nil, nil
	}
	log.Info("replicating the database, encrypted", "url", url, "public_key", id.Recipient().String(), "extra_recipients", len(recips))
	return rep, nil
}

// closeReplica makes the last upload; serve calls it after the workers
// stopped and before the database closes.
func closeReplica(rep *replica.Replicator, log *slog.Logger) {
	if rep == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := rep.Close(ctx); err != nil {
		log.Error("replica: last upload", "err", err)
	}
}

// replicaView is the replication as the server shows it (server.Replica):
// nil when replication is off, so GET /api/replica says "off". A start
// that failed (rep nil with a URL set) shows as an error, not as off:
// the owner set it up and the data is not leaving the box.
func replicaView(cfg Config, rep *replica.Replicator) server.Replica {
	if cfg.ReplicaURL == "" {
		return nil
	}
	v := &replicaState{rep: rep, url: replica.Redact(cfg.ReplicaURL), dataDir: cfg.DataDir, since: time.Now()}
	if id, err := replica.LoadKey(filepath.Join(cfg.DataDir, replica.KeyFile)); err == nil {
		v.publicKey = id.Recipient().String()
	}
	return v
}

type replicaState struct {
	rep            *replica.Replicator
	url, publicKey string
	dataDir        string    // where replica.key is (the recovery sheet)
	since          time.Time // of the failed start
}

func (v *replicaState) ReplicaStatus() server.ReplicaStatus {
	out := server.ReplicaStatus{URL: v.url, PublicKey: v.publicKey}
	if v.rep == nil {
		out.LastError, out.ErrorSince = "replication did not start (see the log); it is tried again at the next start", v.since
		return out
	}
	st := v.rep.Status()
	out.ReplicatedAt, out.LagSeconds, out.BacklogFiles, out.BacklogBytes = st.ReplicatedAt, st.LagSeconds, st.BacklogFiles, st.BacklogBytes
	out.LastError, out.ErrorSince = st.LastError, st.ErrorSince
	if out.LastError == "" && st.FilesError != "" { // the database goes up, the archive and keys do not
		out.LastError = "files: " + st.FilesError
	}
	out.BacklogLimit, out.BacklogGivenUpAt, out.BacklogGivenUpReason = st.BacklogLimit, st.BacklogGivenUpAt, st.BacklogGivenUpReason
	return out
}
