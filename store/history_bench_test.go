package store

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkEntriesWarningsHistory reads a day's entries with their
// warnings (what GET /api/time-entries?date= answers) on day one and in
// year ten of benchHistory: with a bounded read the two stay level. Run
// with go test ./store -run '^$' -bench EntriesWarningsHistory -benchmem
func BenchmarkEntriesWarningsHistory(b *testing.B) {
	ctx := context.Background()
	for _, years := range []int{0, historyYears} {
		b.Run(fmt.Sprintf("years=%d", years), func(b *testing.B) {
			st, r, staff := benchHistory(b, years)
			// The day before the clock's start gets its entries in both runs.
			day := testStart.AddDate(0, 0, -1)
			err := st.Write(ctx, func(tx *Tx) error {
				for i, u := range staff[20:40] {
					if err := insertHistoryDay(ctx, tx, r, u, day, i); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			date := day.In(r.Location()).Format(DateFormat)
			b.ReportAllocs()
			for b.Loop() {
				es, err := st.TimeEntries(ctx, r, date)
				if err != nil || len(es) < 20 {
					b.Fatal(len(es), err)
				}
				if _, err := st.EntriesWarnings(ctx, r, es); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
