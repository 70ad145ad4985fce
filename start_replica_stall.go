package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"posbox/replica"
	"posbox/store"
)

// stallCheckEvery is how often the stall watcher looks at the status.
const stallCheckEvery = time.Minute

func (c *Config) checkReplicaStall() error {
	if c.ReplicaStallAfter < time.Minute {
		return fmt.Errorf("replica_stall_after must be at least 1m")
	}
	if c.ReplicaBacklogMaxMB < 1 {
		return fmt.Errorf("replica_backlog_max_mb must be at least 1")
	}
	return nil
}

// startReplicaStall raises replication_stalled once per stall (nothing
// reached the replica for cfg.ReplicaStallAfter, the database or the
// data dir's files, or the backlog was given up) and replication_recovered when it caught up, for every
// restaurant on the box. Off without a running replicator.
func startReplicaStall(ctx context.Context, workers *sync.WaitGroup, st *store.Store, rep *replica.Replicator, cfg Config, log *slog.Logger) {
	if rep == nil {
		return
	}
	w := newStallWatcher(st, rep.Status, cfg, log)
	workers.Add(1)
	go func() {
		defer workers.Done()
		w.Run(ctx, stallCheckEvery)
	}()
}

func newStallWatcher(st *store.Store, status func() replica.Status, cfg Config, log *slog.Logger) *replica.StallWatcher {
	return &replica.StallWatcher{After: cfg.ReplicaStallAfter, Status: status, Log: log.With("area", "replica"),
		Raise: func(ctx context.Context, c replica.StallChange) error { return raiseStall(ctx, st, c) }}
}

// raiseStall records the change as an event of every restaurant: the
// replica holds the whole box.
func raiseStall(ctx context.Context, st *store.Store, c replica.StallChange) error {
	rs, err := st.Restaurants(ctx)
	if err != nil {
		return err
	}
	typ := store.EventReplicationRecovered
	data := map[string]any{"url": c.URL, "since": c.Since, "recovered_at": c.At}
	if c.Stalled {
		typ = store.EventReplicationStalled
		data = map[string]any{"url": c.URL, "since": c.Since, "last_error": c.LastError,
			"backlog_bytes": c.BacklogBytes, "backlog_given_up": c.BacklogGivenUp, "disk_nearly_full": c.DiskNearlyFull}
		if !c.ReplicatedAt.IsZero() {
			data["replicated_at"] = c.ReplicatedAt
		}
		if c.GivenUpReason != "" {
			data["backlog_given_up_reason"] = c.GivenUpReason
		}
		if c.FilesFailing {
			data["files_failing"] = true
		}
	}
	for _, r := range rs {
		if _, err := st.PublishEvent(ctx, r.ID, typ, data); err != nil {
			return err
		}
	}
	return nil
}
