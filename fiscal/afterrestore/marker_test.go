package afterrestore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"posbox/store/storetest"
	"posbox/tse/tsesim"
)

// A marker that cannot be read stops nothing and is kept (the next start
// tries again, the log says how to go on); no marker, nothing to do.
func TestBeginWithADamagedMarker(t *testing.T) {
	ctx := context.Background()
	clk := storetest.NewClock(time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC))
	sim, err := tsesim.Open(tsesim.Config{Dir: t.TempDir(), Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	b := openBox(t, t.TempDir(), sim, clk)
	c := New(sim, b.st, b.rest.ID, quiet)
	if started, err := c.Begin(ctx, b.dir); started || err != nil {
		t.Fatalf("without a marker: %v %v", started, err)
	}
	marker := filepath.Join(b.dir, MarkerFile)
	if err := os.WriteFile(marker, []byte(`{"id":"x"`), 0o600); err != nil {
		t.Fatal(err)
	}
	if started, err := c.Begin(ctx, b.dir); started || err == nil || !strings.Contains(err.Error(), "remove it") {
		t.Fatalf("damaged marker: %v %v", started, err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the damaged marker is gone: %v", err)
	}
	if pending, err := c.Attempt(ctx); pending || err != nil {
		t.Fatalf("nothing recorded, nothing pending: %v %v", pending, err)
	}
}
