package archive

import (
	"context"

	"posbox/store"
	"posbox/tse"
)

// SetStart declares first as the first signature counter to archive the
// TSS from, for reason, by the admin userID (docs/FISCAL.md, "A TSS that
// signed before posbox archived it"). It waits for a running export so
// that no range it sets aside is being filed, and reads the TSS's
// counter: a start beyond what the TSS signed would give up counters not
// yet signed.
func (a *Archive) SetStart(ctx context.Context, restaurantID, userID string, first int64, reason string) (*store.TSEArchiveStart, error) {
	if err := a.serves(restaurantID); err != nil {
		return nil, err
	}
	a.run.Lock()
	defer a.run.Unlock()
	info, err := a.p.TSS(ctx)
	if err != nil {
		_, why := tse.Describe(err)
		return nil, store.Errorf(store.ETSEUnavailable, "the TSE cannot be reached to read its signature counter: %s", why)
	}
	s, err := a.st.SetTSEArchiveStart(ctx, a.o.RestaurantID, a.p.TSSID(), info.SerialNumber, first, int64(info.SignatureCounter), reason, userID)
	if err != nil {
		return nil, err
	}
	a.log.Warn("archive: first counter to archive from declared", "tss_id", a.p.TSSID(), "first_counter", first, "reason", s.Reason, "user_id", userID)
	return s, nil
}
