package server

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"posbox/tse"
)

// tseInfo is the TSS as last seen, cached in kv so GET /api/tse/info can
// answer while the provider is unreachable.
type tseInfo struct {
	ID                 string    `json:"id"`
	Description        string    `json:"description"`
	State              string    `json:"state"` // raw provider state
	SerialNumber       string    `json:"serial_number"`
	PublicKey          string    `json:"public_key"`
	CertNotAfter       time.Time `json:"cert_not_after"`
	ActiveTransactions int       `json:"active_transactions"`
	MaxActiveTx        int       `json:"max_active_transactions"`
	FetchedAt          time.Time `json:"fetched_at"`
}

func (q *tseQueue) infoKey() string { return "tse.info." + q.tssID }

// cacheInfo remembers what the provider said about the TSS and returns it
// as cached.
func (q *tseQueue) cacheInfo(ctx context.Context, info tse.TSSInfo) tseInfo {
	c := tseInfo{ID: info.ID, Description: info.Description, State: info.State, SerialNumber: info.SerialNumber,
		PublicKey: info.PublicKey, CertNotAfter: info.CertNotAfter.UTC(), ActiveTransactions: info.ActiveTransactions,
		MaxActiveTx: info.MaxActiveTx, FetchedAt: q.now().UTC()}
	raw, _ := json.Marshal(c)
	if err := q.st.SetKV(context.WithoutCancel(ctx), q.infoKey(), string(raw)); err != nil {
		q.log.Error("cache TSS info", "err", err)
	}
	return c
}

// cachedInfo is the last known TSS info; ok is false when none is known.
func (q *tseQueue) cachedInfo(ctx context.Context) (tseInfo, bool, error) {
	var c tseInfo
	v, ok, err := q.st.KV(ctx, q.infoKey())
	if err != nil || !ok {
		return c, false, err
	}
	return c, json.Unmarshal([]byte(v), &c) == nil, nil
}

// freshInfo asks the provider (briefly; not while it is known to be down
// and something is cached), falling back to the cache. fresh says whether
// the provider answered; ok whether anything is known.
func (q *tseQueue) freshInfo(ctx context.Context) (info tseInfo, fresh, ok bool, err error) {
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

// publicTSSState maps the provider's state to the API's three values
// (tse-provider.md 5.7). An expired certificate can never sign again
// (fiskaly answers E_CERTIFICATE_EXPIRED and a new TSS is needed), so it
// counts as DECOMMISSIONED even while the raw state is INITIALIZED.
func publicTSSState(raw string, certNotAfter, now time.Time) string {
	switch raw {
	case tse.TSSInitialized:
		if !certNotAfter.IsZero() && !certNotAfter.After(now) {
			return "DECOMMISSIONED"
		}
		return "INITIALIZED"
	case tse.TSSCreated, tse.TSSUninitialized:
		return "DISABLED"
	}
	return "DECOMMISSIONED"
}

func itoa(n int) string { return strconv.Itoa(n) }
