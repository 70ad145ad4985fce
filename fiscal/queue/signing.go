package queue

import (
	"context"
	"slices"

	"posbox/store"
)

// The worker does not wait for the commit of a signed revision: it hands
// the completion to the store's writer (CompleteTSEJobAsync) and sends the
// next revision at once, so consecutive completions share one commit. The
// reaper takes the outcomes in order: it drops the job from the signing
// set (the head query skips those, as they are no longer the head), wakes
// the sale waiting for that transaction and nobody else, and logs. At most
// maxSigning completions are outstanding; the worker waits beyond that.
const maxSigning = 64

// reapItem is a completion handed to the writer.
type reapItem struct {
	job  *store.TSEJob
	done <-chan store.TSECompleted
}

// signingSeqs are the jobs whose completion is not yet committed.
func (q *Queue) signingSeqs() []int64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.signing) == 0 {
		return nil
	}
	out := make([]int64, 0, len(q.signing))
	for seq := range q.signing {
		out = append(out, seq)
	}
	slices.Sort(out) // one query text per set size for the statement cache
	return out
}

// reap runs until reaping is closed (Run returns) and every completion
// handed over has its outcome.
func (q *Queue) reap(ctx context.Context, reaping <-chan reapItem) {
	for it := range reaping {
		q.settle(ctx, it)
	}
}

// settle waits for one completion's commit and acts on its outcome.
func (q *Queue) settle(ctx context.Context, it reapItem) {
	res := <-it.done
	q.mu.Lock()
	delete(q.signing, it.job.Seq)
	q.mu.Unlock()
	if res.Err != nil {
		// Still pending or in flight: the worker finds it again and
		// resends it (the provider answers the same revision alike, or
		// it is reconciled).
		q.log.Error("complete job", "tx_id", it.job.TxID, "revision", it.job.Revision, "err", res.Err)
		q.Wake()
		return
	}
	if it.job.TargetState != "ACTIVE" {
		q.notify(it.job.TxID) // its final revision: the sale is signed
	}
	if res.Closed != nil {
		q.log.Info("TSE outage closed", "outage_id", res.Closed.ID, "affected_transactions", res.Closed.AffectedTransactions)
		q.recheck(ctx)
	}
}

// txWaiters are the sales (attempts of one sale) waiting for one
// transaction.
type txWaiters struct {
	ch chan struct{} // closed by notify
	n  int
}

// subscribe returns the channel notify closes for txID; call unsubscribe
// with it when done waiting.
func (q *Queue) subscribe(txID string) chan struct{} {
	q.mu.Lock()
	defer q.mu.Unlock()
	w := q.waiters[txID]
	if w == nil {
		w = &txWaiters{ch: make(chan struct{})}
		q.waiters[txID] = w
	}
	w.n++
	return w.ch
}

func (q *Queue) unsubscribe(txID string, ch chan struct{}) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if w := q.waiters[txID]; w != nil && w.ch == ch {
		if w.n--; w.n == 0 {
			delete(q.waiters, txID)
		}
	}
}

// notify wakes the sales waiting for txID (its row changed).
func (q *Queue) notify(txID string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if w := q.waiters[txID]; w != nil {
		close(w.ch)
		delete(q.waiters, txID)
	}
}
