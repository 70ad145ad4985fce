package store

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"posbox/internal/poll"
)

// blockWriter runs an operation that holds the writer until release is
// closed, so the operations started meanwhile queue up and run in one
// batch (the held batch is older than maxBatchTime by then).
func blockWriter(t *testing.T, st *Store) (release func(), done <-chan error) {
	t.Helper()
	started, hold := make(chan struct{}), make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		errc <- st.Write(context.Background(), func(tx *Tx) error {
			close(started)
			<-hold
			return nil
		})
	}()
	<-started
	return func() { close(hold) }, errc
}

// waitQueued waits until n operations wait for the writer.
func waitQueued(t *testing.T, st *Store, n int) {
	t.Helper()
	if !poll.Wait(10*time.Second, func() bool { return len(st.w.ops) >= n }) {
		t.Fatalf("%d operations queued, want %d", len(st.w.ops), n)
	}
}

func counter(t *testing.T, st *Store) int {
	t.Helper()
	v, ok, err := st.KV(context.Background(), "counter")
	if err != nil || !ok {
		t.Fatalf("counter: %v %v", ok, err)
	}
	n, _ := strconv.Atoi(v)
	return n
}

// Concurrent writers share commits; an operation that fails changes
// nothing, the others are all kept, and each sees the operations before
// it in its batch.
func TestGroupCommitIsolatesFailedOperations(t *testing.T) {
	st, _ := newTestStore(t)
	ctx := context.Background()
	if err := st.SetKV(ctx, "counter", "0"); err != nil {
		t.Fatal(err)
	}
	const n = 60
	errBoom := errors.New("boom")
	release, held := blockWriter(t, st)
	before := st.Commits()
	var wg sync.WaitGroup
	seen := make([]int, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			errs[i] = st.Write(ctx, func(tx *Tx) error {
				// Every operation bumps the counter and reads it back;
				// every third then fails.
				if _, err := tx.ExecContext(ctx, `UPDATE kv SET value = CAST(value AS INTEGER) + 1 WHERE key = 'counter'`); err != nil {
					return err
				}
				if err := tx.QueryRowContext(ctx, `SELECT CAST(value AS INTEGER) FROM kv WHERE key = 'counter'`).Scan(&seen[i]); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO kv (key, value, updated_at) VALUES (?, 'x', ?)`,
					"op"+strconv.Itoa(i), FormatTime(tx.Now)); err != nil {
					return err
				}
				if i%3 == 0 {
					return errBoom
				}
				return nil
			})
		})
	}
	waitQueued(t, st, n)
	time.Sleep(maxBatchTime) // the held batch is now closed to newcomers
	release()
	wg.Wait()
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	ok := map[int]bool{}
	for i := range n {
		_, have, kerr := st.KV(ctx, "op"+strconv.Itoa(i))
		if kerr != nil {
			t.Fatal(kerr)
		}
		if i%3 == 0 {
			if !errors.Is(errs[i], errBoom) || have {
				t.Errorf("op %d: err %v, row kept %v; want boom and nothing kept", i, errs[i], have)
			}
			continue
		}
		if errs[i] != nil || !have {
			t.Errorf("op %d: err %v, row kept %v; want committed", i, errs[i], have)
		}
		if ok[seen[i]] {
			t.Errorf("op %d saw counter %d, as another kept operation did", i, seen[i])
		}
		ok[seen[i]] = true
	}
	kept := n - (n+2)/3
	if got := counter(t, st); got != kept {
		t.Errorf("counter = %d, want %d (the kept operations only)", got, kept)
	}
	// Each kept operation saw the kept ones before it: 1..kept, no gaps.
	for v := 1; v <= kept; v++ {
		if !ok[v] {
			t.Errorf("no kept operation saw counter %d", v)
		}
	}
	// The held batch and the queued operations in about one more; a
	// loaded machine (-race, the rest of make test) may cut the batch
	// at its time limit a few times, but never commits one by one.
	if c := st.Commits() - before; c > 10 {
		t.Errorf("%d commits for %d queued operations, want them grouped", c, n)
	}
}

// A caller that gives up while its operation waits takes it back: it
// never runs.
func TestGroupCommitCancelledBeforeRunning(t *testing.T) {
	st, _ := newTestStore(t)
	release, held := blockWriter(t, st)
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{}, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- st.Write(ctx, func(tx *Tx) error {
			ran <- struct{}{}
			return nil
		})
	}()
	waitQueued(t, st, 1)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want canceled", err)
	}
	release()
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	// One more write goes through the same writer: the cancelled one is gone.
	if err := st.SetKV(context.Background(), "after", "1"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ran:
		t.Fatal("the cancelled operation ran")
	default:
	}
}

// A COMMIT that fails fails every operation of its batch, keeps nothing,
// and the writer goes on with the next batch.
func TestGroupCommitFailedCommitFailsTheBatch(t *testing.T) {
	st, _ := newTestStore(t)
	ctx := context.Background()
	release, held := blockWriter(t, st)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range 3 {
		wg.Go(func() {
			errs[i] = st.Write(ctx, func(tx *Tx) error {
				if i == 1 {
					// A foreign key checked only at COMMIT, which it fails.
					if _, err := tx.ExecContext(ctx, `PRAGMA defer_foreign_keys = ON`); err != nil {
						return err
					}
					_, err := tx.ExecContext(ctx, `INSERT INTO users (id, restaurant_id, email, name, role, password_hash, is_active,
						created_at, updated_at) VALUES ('u1', 'no-such-restaurant', 'a@b.c', 'A', 'staff', 'x', 1, '', '')`)
					return err
				}
				_, err := tx.ExecContext(ctx, `INSERT INTO kv (key, value, updated_at) VALUES (?, 'x', '')`, "k"+strconv.Itoa(i))
				return err
			})
		})
	}
	waitQueued(t, st, 3)
	time.Sleep(maxBatchTime)
	release()
	wg.Wait()
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	for i, err := range errs {
		if err == nil {
			t.Errorf("op %d succeeded in a batch whose COMMIT failed", i)
		}
	}
	for _, k := range []string{"k0", "k2"} {
		if _, have, err := st.KV(ctx, k); err != nil || have {
			t.Errorf("%s kept (%v) after a failed COMMIT", k, err)
		}
	}
	if err := st.SetKV(ctx, "after", "1"); err != nil {
		t.Fatalf("the next batch: %v", err)
	}
	if _, have, _ := st.KV(ctx, "after"); !have {
		t.Fatal("the next batch was not kept")
	}
}

// An operation that panics is undone and the panic reaches its caller;
// the writer goes on.
func TestGroupCommitPanicReachesCaller(t *testing.T) {
	st, _ := newTestStore(t)
	ctx := context.Background()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("no panic in the caller")
			}
		}()
		_ = st.Write(ctx, func(tx *Tx) error {
			if _, err := tx.ExecContext(ctx, `INSERT INTO kv (key, value, updated_at) VALUES ('p', 'x', '')`); err != nil {
				return err
			}
			panic("boom")
		})
	}()
	if _, have, _ := st.KV(ctx, "p"); have {
		t.Error("the panicking operation's row was kept")
	}
	if err := st.SetKV(ctx, "after", "1"); err != nil {
		t.Fatal(err)
	}
}

// Writes racing Close are all answered: committed, or ErrClosed; none
// hangs, and a write after Close is ErrClosed.
func TestGroupCommitClose(t *testing.T) {
	st, _ := newTestStore(t)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			err := st.SetKV(context.Background(), "k"+strconv.Itoa(i), "v")
			if err != nil && !errors.Is(err, ErrClosed) {
				t.Errorf("write %d: %v", i, err)
			}
		})
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := st.SetKV(context.Background(), "late", "v"); !errors.Is(err, ErrClosed) {
		t.Fatalf("write after Close: %v", err)
	}
}
