package fiscal

import (
	"context"
	"slices"
	"strings"

	"posbox/store"
)

// ZCash is the cash desk as of a closing (docs/FISCAL.md, "The
// Z-report"): the cash book's movements among the closing's receipts,
// the tips, the cash counts of the closing's period and the expected cash
// when it was taken.
type ZCash struct {
	// Movements are the closing's counted movement receipts, oldest
	// first; Kinds their sums per kind (the API's kind names, labelled
	// by the server), MovementsSum all of them.
	Movements    []ZMovement
	Kinds        map[string]ZMovementKind
	MovementsSum int64
	// SalesCash is the euro value of the cash the closing's other
	// receipts took; SalesCashOK false when a foreign payment's is
	// unknown.
	SalesCash   int64
	SalesCashOK bool
	// TipsReceived are the TrinkgeldAN lines of the receipts that are
	// not movements (a storno's negative line nets its sale's);
	// TipsEmployer the TrinkgeldAG lines; TipsPaidOut the tip payouts
	// (negative: out of the drawer; a counter-entry nets its payout).
	TipsReceived, TipsEmployer, TipsPaidOut int64
	// TipsByPerson are the staff's tips per waiter: received on their
	// receipts (the operator), paid out to them (the payout's person),
	// by name.
	TipsByPerson []ZTips
	// Counts are the register's counts of the closing's period.
	Counts []*store.CashCount
	// Expected is the cash book's balance as of the closing's
	// covered_until (Started false when the book had not begun).
	Expected store.CashBalance
}

// ZMovement is one movement with its receipt number (BON_NR).
type ZMovement struct {
	*store.CashMovement
	ReceiptNo int64
}

// ZTips is one waiter's tips in a closing.
type ZTips struct {
	Name              string
	Received, PaidOut int64
}

// tipsOf is the waiter's entry of TipsByPerson, added when new.
func (zc *ZCash) tipsOf(name string) *ZTips {
	for i := range zc.TipsByPerson {
		if zc.TipsByPerson[i].Name == name {
			return &zc.TipsByPerson[i]
		}
	}
	zc.TipsByPerson = append(zc.TipsByPerson, ZTips{Name: name})
	return &zc.TipsByPerson[len(zc.TipsByPerson)-1]
}

// ZMovementKind is the movements of one kind: how many, their sum.
type ZMovementKind struct {
	Count int
	Cents int64
}

// cashDesk gathers the cash desk from the closing's counted sales and
// the cash book, and takes the movements out of the revenue per VAT rate
// (they are in the closing's totals at VAT rate NULL).
func (z *ZReport) cashDesk(ctx context.Context, st *store.Store, restaurantID string, sales []*store.ClosedSale) error {
	ms, err := st.CashMovementsOfClosing(ctx, restaurantID, z.Closing.ID)
	if err != nil {
		return err
	}
	counted := map[string]*store.ClosedSale{}
	for _, s := range sales {
		if Counted(s) {
			counted[s.TxID] = s
		}
	}
	zc := &z.Cash
	zc.Kinds = map[string]ZMovementKind{}
	movement := map[string]bool{}
	for _, m := range ms {
		s, ok := counted[m.TxID]
		if !ok {
			continue // a receipt the TSE cancelled moves nothing
		}
		movement[m.TxID] = true
		zc.Movements = append(zc.Movements, ZMovement{CashMovement: m, ReceiptNo: s.ReceiptNo})
		k := zc.Kinds[m.Kind]
		zc.Kinds[m.Kind] = ZMovementKind{Count: k.Count + 1, Cents: k.Cents + m.Cents}
		zc.MovementsSum += m.Cents
		if m.Kind == "tip_payout" {
			zc.TipsPaidOut += m.Cents
			name := m.ForUserName
			if m.ForUser == "" {
				name = m.BookedByName
			}
			zc.tipsOf(name).PaidOut += m.Cents
		}
	}
	z.revenue(counted, movement)
	slices.SortStableFunc(zc.TipsByPerson, func(a, b ZTips) int { return strings.Compare(a.Name, b.Name) })
	if zc.Counts, err = st.CashCountsOfClosing(ctx, z.Closing); err != nil {
		return err
	}
	zc.Expected, err = st.CashBalanceAt(ctx, restaurantID, z.Closing.ClientSerial, z.Closing.CoveredUntil)
	return err
}

// revenue fills the revenue per VAT rate (the closing's totals less the
// movements and the staff's tips), the cash the other receipts took and their tips.
func (z *ZReport) revenue(counted map[string]*store.ClosedSale, movement map[string]bool) {
	zc := &z.Cash
	zc.SalesCashOK = true
	less := map[string]int64{}
	rates := map[string]bool{}
	for id, s := range counted {
		d := SaleDetail(s)
		if movement[id] {
			for _, v := range d.VAT {
				less[v.VATRate] += v.Cents
			}
			continue
		}
		for _, p := range d.Payments {
			if eur, ok := p.EUR(); ok && p.PaymentType == "CASH" {
				zc.SalesCash += eur
			} else if p.PaymentType == "CASH" {
				zc.SalesCashOK = false
			}
		}
		for _, l := range SaleLines(d) {
			if l.BusinessCase != "TrinkgeldAN" {
				rates[l.VATRate] = true
			}
			switch l.BusinessCase {
			case "TrinkgeldAN":
				// The staff's tips pass through (durchlaufende Posten):
				// not the restaurant's revenue, shown on their own line.
				zc.TipsReceived += l.TotalCents
				less[l.VATRate] += l.TotalCents
				zc.tipsOf(d.OperatorName).Received += l.TotalCents
			case "TrinkgeldAG":
				zc.TipsEmployer += l.TotalCents
			}
		}
	}
	for _, v := range z.Closing.VAT {
		gross := v.Cents - less[v.VATRate]
		if !rates[v.VATRate] && gross == 0 {
			continue // a rate of movements or tips only
		}
		bp := VATRateBP(v.VATRate)
		net, vat := SplitGross(gross, bp)
		z.VAT = append(z.VAT, ZVAT{VATRate: v.VATRate, BP: bp, Net: net, VAT: vat, Gross: gross})
		z.VATTotal.Net, z.VATTotal.VAT, z.VATTotal.Gross = z.VATTotal.Net+net, z.VATTotal.VAT+vat, z.VATTotal.Gross+gross
	}
}
