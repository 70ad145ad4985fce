package retention

import (
	"math"
	"strings"
	"testing"
	"time"
)

// A keep-days setting large enough to overflow a time.Duration once
// turned the cutoff into a date in the future, and the run deleted every
// event: such settings are refused, and the cutoffs of any period lie in
// the past.
func TestHugeKeepDaysAreRefusedAndNeverCutInTheFuture(t *testing.T) {
	for _, days := range []int{MaxDays + 1, 106752, math.MaxInt} {
		err := CheckDays("event_keep_days", days)
		if err == nil || !strings.Contains(err.Error(), "at most") {
			t.Errorf("%d days: %v, want a refusal", days, err)
		}
	}
	if err := CheckDays("event_keep_days", MaxDays); err != nil {
		t.Errorf("%d days refused: %v", MaxDays, err)
	}
	now := local(2026, time.November, 22, 10, 0)
	j := &Job{opt: Options{NotificationDays: 200000, EventDays: 106752}}
	c := j.Cutoffs("r", now, berlin)
	if !c.Events.Before(now) || !c.Notifications.Before(now) {
		t.Errorf("cutoffs at %s: events %s, notifications %s", now, c.Events, c.Notifications)
	}
}
