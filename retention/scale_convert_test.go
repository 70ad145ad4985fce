package retention

import (
	"context"
	"os"
	"testing"
	"time"
)

// How long the one VACUUM of an older file takes at ConvertMaxBytes (only
// with RETENTION_MEASURE=1): docs/RETENTION.md quotes it, and how to see
// under strace where SQLite puts its temporary copy. It asserts no time.
func TestConversionAtScale(t *testing.T) {
	if os.Getenv("RETENTION_MEASURE") == "" {
		t.Skip("set RETENTION_MEASURE=1 to run")
	}
	ctx := context.Background()
	f := oldFile(t, local(2030, time.June, 2, 3, 41))
	for fs, _ := f.st.FileSpace(ctx); fs.Bytes() < ConvertMaxBytes-(4<<20); fs, _ = f.st.FileSpace(ctx) {
		seedOldEvents(t, f, 5000)
	}
	fs, _ := f.st.FileSpace(ctx)
	start := time.Now()
	if err := f.st.ConvertToIncrementalVacuum(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("VACUUM of %.1f MiB: %s", float64(fs.Bytes())/(1<<20), time.Since(start).Round(time.Millisecond))
}
