package store

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"posbox/store/storetest"
)

// The certificate warning is raised once per certificate and threshold
// (90, 30, 7 days): twenty concurrent checks raise one event, a restart
// raises none again, each later threshold raises one, and a new
// certificate warns afresh.
func TestTSECertificateWarningOncePerThreshold(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	clock := storetest.NewClock(testStart)
	st := openTestStore(t, dir, clock)
	r := mustRestaurant(t, st, "Zur Post")
	mustRule(t, st, r, EventTSECertExpiring, true)
	notAfter := time.Date(2027, 2, 20, 23, 30, 0, 0, time.UTC) // 21.02.2027 in Berlin

	var wg sync.WaitGroup
	var mu sync.Mutex
	raised := 0
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := st.RecordTSECertificateExpiring(ctx, r.ID, "tss-1", notAfter, 89)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				raised++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if raised != 1 {
		t.Fatalf("%d concurrent checks raised %d warnings, want 1", 20, raised)
	}
	st.Close()
	st = openTestStore(t, dir, clock) // a restart
	steps := []struct {
		days  int
		raise bool
	}{{88, false}, {95, false}, {31, false}, {30, true}, {29, false}, {8, false}, {7, true}, {1, false}, {-2, false}}
	for _, s := range steps {
		ok, err := st.RecordTSECertificateExpiring(ctx, r.ID, "tss-1", notAfter, s.days)
		if err != nil || ok != s.raise {
			t.Fatalf("%d days left: raised %v (%v), want %v", s.days, ok, err, s.raise)
		}
	}
	evs, err := st.Events(ctx, r.ID, EventTSECertExpiring, 10)
	if err != nil || len(evs) != 3 {
		t.Fatalf("%d events (%v), want 3", len(evs), err)
	}
	var first map[string]any
	if err := json.Unmarshal(evs[2].Data, &first); err != nil {
		t.Fatal(err)
	}
	if first["days_left"] != 89.0 || first["threshold_days"] != 90.0 || first["expires_on"] != "2027-02-21" ||
		first["certificate_expiry"] != "2027-02-20T23:30:00.000Z" || first["tss_id"] != "tss-1" {
		t.Fatalf("payload %v", first)
	}
	// A new certificate of the same TSS (or a new TSS) warns again.
	if ok, err := st.RecordTSECertificateExpiring(ctx, r.ID, "tss-1", notAfter.AddDate(1, 0, 0), 80); err != nil || !ok {
		t.Fatalf("new certificate: raised %v (%v)", ok, err)
	}
	ws, err := st.TSECertificateWarnings(ctx, "tss-1")
	if err != nil || len(ws) != 4 {
		t.Fatalf("warnings %v (%v)", ws, err)
	}
}
