package replica

import (
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"posbox/internal/poll"
)

// BenchmarkReplicationLag measures, per commit, the time from the commit
// to the status showing it on the replica (Status.ReplicatedThrough
// covering it), at Litestream's production intervals (a 1 s upload
// tick), one commit every 20 ms. Run with -benchtime=200x for 200
// commits; it reports p50, p99 and max in milliseconds.
func BenchmarkReplicationLag(b *testing.B) {
	b.Run("file", func(b *testing.B) {
		lag(b, "file://"+mounted(b, filepath.Join(b.TempDir(), "replica")))
	})
	b.Run("sftp", func(b *testing.B) {
		tg, _ := sftpTarget(b)
		lag(b, tg.url)
	})
}

func lag(b *testing.B, url string) {
	dbPath := filepath.Join(b.TempDir(), "posbox.db")
	db := openDB(b, dbPath)
	defer db.Close()
	r := start(b, dbPath, url, Options{Identity: newKey(b), Logger: slog.New(slog.DiscardHandler)})
	insert(b, db, -1, 0) // Litestream's first snapshot is not what is measured
	poll.Until(b, time.Minute, "the first upload", func() bool { return !r.Status().ReplicatedThrough.IsZero() })

	var mu sync.Mutex
	var pending []time.Time // commits not yet covered, oldest first
	var lags []float64      // ms
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() { // the owner's view: the status, polled every 2 ms
		defer close(watched)
		for {
			through := r.Status().ReplicatedThrough
			now := time.Now()
			mu.Lock()
			for len(pending) > 0 && !pending[0].Truncate(time.Millisecond).After(through) {
				lags = append(lags, float64(now.Sub(pending[0]).Microseconds())/1000)
				pending = pending[1:]
			}
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	b.ResetTimer()
	for i := range b.N {
		insert(b, db, i, i+1)
		mu.Lock()
		pending = append(pending, time.Now())
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	poll.Until(b, time.Minute, "every commit on the replica", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(pending) == 0
	})
	b.StopTimer()
	close(stop)
	<-watched
	slices.Sort(lags)
	q := func(p float64) float64 { return lags[min(len(lags)-1, int(p*float64(len(lags))))] }
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(lags[len(lags)-1], "max-ms")
	b.ReportMetric(0, "ns/op")
}
