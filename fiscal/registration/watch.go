package registration

import (
	"context"

	"posbox/store"
	"posbox/tse"
)

// TSS is what TSEWatch reads of the queue: the TSS it signs with, the
// provider's kind and the restaurant it serves.
type TSS interface {
	TSS(ctx context.Context, restaurantID string) (store.TSEInfo, bool, error)
	Kind() string
	RestaurantID() string
}

// TSEWatch tells the store which certified TSS the box signs with.
type TSEWatch struct {
	Store *store.Store
	TSS   TSS
}

// Check notes the TSS's serial (store.NoteTSE): a serial new to the box
// raises registration_due, a known one nothing. The simulator is no TSE
// and is never noted; a TSS not known yet (the provider unreachable at
// first start) is noted on a later run.
func (w TSEWatch) Check(ctx context.Context) error {
	if w.TSS == nil || w.TSS.Kind() == tse.KindSimulator {
		return nil
	}
	info, _, err := w.TSS.TSS(ctx, w.TSS.RestaurantID())
	if store.ErrorCode(err) == store.ETSEUnavailable || (err == nil && info.SerialNumber == "") {
		return nil
	}
	if err != nil {
		return err
	}
	return w.Store.NoteTSE(ctx, w.TSS.RestaurantID(), info.SerialNumber)
}
