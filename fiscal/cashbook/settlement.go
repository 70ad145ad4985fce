package cashbook

import (
	"context"
	"time"

	"posbox/store"
)

// Settlement is one person's waiter settlement (Bedienerabrechnung) for
// a time range, in euro cents; docs/CASHDESK.md, "Waiter settlement",
// writes down every figure and the formula, and Settle follows it.
type Settlement struct {
	From, To time.Time // [From, To)

	Receipts     int   // sales (stornos not counted)
	CashCents    int64 // cash taken: the CASH payments of their sales and stornos, net
	CardCents    int64 // the NON_CASH payments, net
	SalesCents   int64 // CashCents + CardCents: everything their receipts took
	Stornos      int
	StornoCents  int64 // the stornos' totals (≤ 0), already in the figures above
	CashTipCents int64 // TrinkgeldAN in sales paid in cash only
	CardTipCents int64 // TrinkgeldAN in sales with a NON_CASH payment
	FloatCents   int64 // their opening floats (net of counter-entries)
	PaidOutCents int64 // tips paid out to them from the drawer (≥ 0 when paid out; net of counter-entries)

	// HandOverCents = FloatCents + CashCents − PaidOutCents: the cash
	// they hand over.
	HandOverCents int64
	// TipsOpenCents = CashTipCents + CardTipCents − PaidOutCents: the
	// recorded tips not yet paid out to them (negative: paid out more).
	TipsOpenCents int64
}

// Settle gathers a person's settlement for [from, to).
func Settle(ctx context.Context, st *store.Store, restaurantID, userID string, from, to time.Time) (*Settlement, error) {
	d, err := st.SettlementOf(ctx, restaurantID, userID, from, to)
	if err != nil {
		return nil, err
	}
	s := Compute(d)
	s.From, s.To = from, to
	return s, nil
}

// Compute is the settlement of what SettlementOf read.
func Compute(d *store.SettlementData) *Settlement {
	s := &Settlement{}
	for _, v := range d.Sales {
		if v.Storno {
			s.Stornos++
			s.StornoCents += v.TotalCents
		} else {
			s.Receipts++
		}
		s.CashCents += v.CashCents
		s.CardCents += v.CardCents
		if v.HasCard {
			s.CardTipCents += v.TipCents
		} else {
			s.CashTipCents += v.TipCents
		}
	}
	for _, m := range d.Movements {
		switch m.Kind {
		case "opening_float":
			s.FloatCents += m.Cents
		case "tip_payout":
			s.PaidOutCents -= m.Cents // booked negative: out of the drawer
		}
	}
	s.SalesCents = s.CashCents + s.CardCents
	s.HandOverCents = s.FloatCents + s.CashCents - s.PaidOutCents
	s.TipsOpenCents = s.CashTipCents + s.CardTipCents - s.PaidOutCents
	return s
}
