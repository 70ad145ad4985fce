package server

import (
	"testing"

	"posbox/store"
)

// commits is the store's commit count (store.Commits).
func commits(st *store.Store) uint64 { return st.Commits() }

// reportCommits reports the commits since before per operation.
func reportCommits(b *testing.B, st *store.Store, before uint64) {
	b.ReportMetric(float64(commits(st)-before)/float64(b.N), "commits/op")
}
