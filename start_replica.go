package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"posbox/replica"
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
	return nil
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
		Logger: log.With("area", "replica")})
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
