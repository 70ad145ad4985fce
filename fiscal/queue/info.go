package queue

import (
	"context"
	"encoding/base64"
	"sync"
	"time"

	"posbox/store"
	"posbox/tse"
)

// infoStoreEvery is how old the stored TSS info's fetch time may grow
// while nothing else in it changes. Storing it on every status page and
// DSFinV-K export was a write each time, and a commit makes every reader
// connection drop its page cache: at year ten the export then read its
// 2,800 pages again (docs/PERFORMANCE.md, "Year ten, fourth pass"). The
// box answers with the exact fetch time from memory; a replica and HQ
// see it at most this old.
const infoStoreEvery = 5 * time.Minute

// tssInfo is the last TSS info this process fetched and when it last
// stored it.
type tssInfo struct {
	mu       sync.Mutex
	last     store.TSEInfo
	known    bool
	storedAt time.Time
}

// cacheInfo remembers what the provider said about the TSS and returns it
// as cached: in memory always, in the store when it changed or the
// stored fetch time is infoStoreEvery old.
func (q *Queue) cacheInfo(ctx context.Context, info tse.TSSInfo) store.TSEInfo {
	c := store.TSEInfo{ID: info.ID, Description: info.Description, State: info.State, SerialNumber: info.SerialNumber,
		PublicKey: info.PublicKey, CertNotAfter: info.CertNotAfter.UTC(), ActiveTransactions: info.ActiveTransactions,
		MaxActiveTx: info.MaxActiveTx, FetchedAt: q.now().UTC(),
		Certificate: base64.StdEncoding.EncodeToString(info.CertificateDER), BSICertificationID: info.BSICertificationID}
	m := &q.info
	m.mu.Lock()
	write := !m.known || !sameTSS(m.last, c) || c.FetchedAt.Sub(m.storedAt) >= infoStoreEvery
	m.last, m.known = c, true
	m.mu.Unlock()
	if !write {
		return c
	}
	if err := q.st.CacheTSEInfo(context.WithoutCancel(ctx), q.tssID, c); err != nil {
		q.log.Error("cache TSS info", "err", err)
		return c
	}
	m.mu.Lock()
	m.storedAt = c.FetchedAt
	m.mu.Unlock()
	return c
}

// sameTSS says whether two infos differ in their fetch time only.
func sameTSS(a, b store.TSEInfo) bool {
	a.FetchedAt, b.FetchedAt = time.Time{}, time.Time{}
	return a == b
}

// cachedInfo is the last known TSS info: this process's last fetch, else
// the stored one; ok is false when none is known.
func (q *Queue) cachedInfo(ctx context.Context) (store.TSEInfo, bool, error) {
	m := &q.info
	m.mu.Lock()
	last, known := m.last, m.known
	m.mu.Unlock()
	if known {
		return last, true, nil
	}
	return q.st.CachedTSEInfo(ctx, q.tssID)
}

// TSS is what is known of the restaurant's TSS: the provider is asked
// (briefly; not while it is known to be down and something is cached),
// else the cache answers. fresh says whether the provider answered;
// without either it is tse_unavailable.
func (q *Queue) TSS(ctx context.Context, restaurantID string) (info store.TSEInfo, fresh bool, err error) {
	if err := q.serves(restaurantID); err != nil {
		return info, false, err
	}
	info, fresh, ok, err := q.freshInfo(ctx)
	if err == nil && !ok {
		err = store.Errorf(store.ETSEUnavailable, "the TSE provider is unreachable and nothing is known about the TSS yet")
	}
	return info, fresh, err
}

// freshInfo is TSS without the checks; ok says whether anything is known.
func (q *Queue) freshInfo(ctx context.Context) (info store.TSEInfo, fresh, ok bool, err error) {
	cached, ok, err := q.cachedInfo(ctx)
	if err != nil {
		return cached, false, ok, err
	}
	if cs := q.state(); cs.Open && !cs.Paused && ok {
		return cached, false, true, nil
	}
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	ti, perr := q.p.TSS(cctx)
	cancel()
	if perr != nil {
		return cached, false, ok, nil
	}
	return q.cacheInfo(ctx, ti), true, true, nil
}
