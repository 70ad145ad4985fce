package hq

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"filippo.io/age"

	"posbox/replica"
	"posbox/store"
)

// CopiesDir is the folder in HQ's data dir that holds the boxes' copies.
const CopiesDir = "hq"

// Options configure Start.
type Options struct {
	Follow     []string       // the boxes' replica URLs
	Identities []age.Identity // HQ's keys (one the boxes encrypt to)
	DataDir    string         // HQ's data dir; copies go to DATA_DIR/hq
	Interval   time.Duration  // how often a replica is polled; 1 s when zero
	Now        func() time.Time
}

// HQ follows the boxes and sums them up.
type HQ struct {
	boxes []*box
	now   func() time.Time
}

type box struct {
	source string // the URL without a password
	f      *replica.Follower
	err    error // Follow refused the box (a URL no client takes)
}

// Start follows every box in opts.Follow until ctx ends. A box whose
// replica is missing or away is retried and shows as an error; only a
// setup that cannot work at all (no key, the copies' folder) fails.
func Start(ctx context.Context, opts Options) (*HQ, error) {
	if len(opts.Identities) == 0 {
		return nil, errors.New("hq: no key to read the replicas with")
	}
	dir := filepath.Join(opts.DataDir, CopiesDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("hq: %w", err)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	h := &HQ{now: opts.Now}
	seen := map[string]bool{}
	for _, u := range opts.Follow {
		if seen[u] {
			continue
		}
		seen[u] = true
		sum := sha256.Sum256([]byte(u))
		dest := filepath.Join(dir, hex.EncodeToString(sum[:8])+".db")
		f, err := replica.Follow(ctx, u, opts.Identities, dest, opts.Interval)
		h.boxes = append(h.boxes, &box{source: replica.Redact(u), f: f, err: err})
	}
	return h, nil
}

// Restaurant is one restaurant of a box as HQ sees it.
type Restaurant struct {
	Source  string           // the box's replica, without a password
	Summary *store.HQSummary // nil while the box's copy cannot be read
	// ReplicatedAt: the copy holds the box's changes up to then;
	// CheckedAt: the replica last answered.
	ReplicatedAt time.Time
	CheckedAt    time.Time
	Error        string // what fails for this box now ("" when all is well)
	ErrorKind    string // Error in a word a console translates (ErrorKinds)
	ErrorSince   time.Time
}

// Totals sum the chain's restaurants that have figures.
type Totals struct {
	Restaurants int // listed
	Reporting   int // with figures
	WithErrors  int
	SalesCount  int
	GrossCents  int64
	ByVAT       []store.TSESaleVAT // gross per VAT rate, in the DSFinV-K order
	ClockedIn   int
	WeekHours   int64 // hundredths of an hour
	OpenOutages int
}

// Chain is every restaurant and the totals, as of At.
type Chain struct {
	At          time.Time
	Restaurants []Restaurant
	Totals      Totals
}

// Chain reads every box's copy now.
func (h *HQ) Chain(ctx context.Context) Chain {
	out := Chain{At: h.now(), Restaurants: []Restaurant{}}
	for _, b := range h.boxes {
		out.Restaurants = append(out.Restaurants, b.restaurants(ctx, h.now)...)
	}
	out.Totals = totals(out.Restaurants)
	return out
}

// restaurants reads a box's copy: one entry per restaurant in it, or one
// entry with the error and no figures.
func (b *box) restaurants(ctx context.Context, now func() time.Time) []Restaurant {
	if b.err != nil {
		return []Restaurant{{Source: b.source, Error: b.err.Error(), ErrorKind: "failed"}}
	}
	st := b.f.Status()
	base := Restaurant{Source: b.source, ReplicatedAt: st.ReplicatedAt, CheckedAt: st.CheckedAt, Error: st.LastError, ErrorSince: st.ErrorSince}
	var sums []store.HQSummary
	err := b.f.Read(func(path string) error {
		ro, err := store.OpenReadOnly(ctx, path, now)
		if err != nil {
			return err
		}
		defer ro.Close()
		sums, err = ro.HQSummaries(ctx)
		return err
	})
	if err != nil {
		if base.Error == "" || !errors.Is(err, replica.ErrNotReady) {
			base.Error = err.Error()
		}
		base.ErrorKind = errorKind(base.Error)
		return []Restaurant{base}
	}
	base.ErrorKind = errorKind(base.Error)
	out := make([]Restaurant, 0, len(sums))
	for i := range sums {
		r := base
		r.Summary = &sums[i]
		out = append(out, r)
	}
	return out
}

// totals sums the restaurants with figures.
func totals(rs []Restaurant) Totals {
	t := Totals{Restaurants: len(rs), ByVAT: []store.TSESaleVAT{}}
	byVAT := map[string]int64{}
	for _, r := range rs {
		if r.Error != "" {
			t.WithErrors++
		}
		s := r.Summary
		if s == nil {
			continue
		}
		t.Reporting++
		t.SalesCount += s.Sales.Count
		t.GrossCents += s.Sales.GrossCents
		for _, v := range s.Sales.ByVAT {
			if _, ok := byVAT[v.VATRate]; !ok {
				t.ByVAT = append(t.ByVAT, store.TSESaleVAT{VATRate: v.VATRate})
			}
			byVAT[v.VATRate] += v.Cents
		}
		t.ClockedIn += len(s.ClockedIn)
		t.WeekHours += s.WeekHours
		t.OpenOutages += len(s.OpenOutages)
	}
	for i := range t.ByVAT {
		t.ByVAT[i].Cents = byVAT[t.ByVAT[i].VATRate]
	}
	slices.SortStableFunc(t.ByVAT, func(a, b store.TSESaleVAT) int { return store.VATOrder(a.VATRate) - store.VATOrder(b.VATRate) })
	return t
}
