package queue

import (
	"context"
	"encoding/base64"
	"time"

	"posbox/store"
	"posbox/tse"
)

// cacheInfo remembers what the provider said about the TSS and returns it
// as cached.
func (q *Queue) cacheInfo(ctx context.Context, info tse.TSSInfo) store.TSEInfo {
	c := store.TSEInfo{ID: info.ID, Description: info.Description, State: info.State, SerialNumber: info.SerialNumber,
		PublicKey: info.PublicKey, CertNotAfter: info.CertNotAfter.UTC(), ActiveTransactions: info.ActiveTransactions,
		MaxActiveTx: info.MaxActiveTx, FetchedAt: q.now().UTC(),
		Certificate: base64.StdEncoding.EncodeToString(info.CertificateDER), BSICertificationID: info.BSICertificationID}
	if err := q.st.CacheTSEInfo(context.WithoutCancel(ctx), q.tssID, c); err != nil {
		q.log.Error("cache TSS info", "err", err)
	}
	return c
}

// cachedInfo is the last known TSS info; ok is false when none is known.
func (q *Queue) cachedInfo(ctx context.Context) (store.TSEInfo, bool, error) {
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
