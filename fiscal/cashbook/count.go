package cashbook

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"posbox/fiscal"
	"posbox/store"
)

// Denominations are the euro notes and coins a count may list, in cents,
// largest first.
var Denominations = []int64{50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1}

// maxPieces bounds one denomination's count (a drawer holds no more).
const maxPieces = 100000

// Counting is a count of a register's euro cash: as one sum (Counted) or
// by denomination (Pieces, cents → how many), exactly one of the two.
type Counting struct {
	ClientSerial string
	Counted      *int64
	Pieces       map[int64]int64
	By           Who
}

// total is the counted sum, and what the count keeps of its pieces.
func (c Counting) total() (int64, map[int64]int64, error) {
	var f store.Fields
	checkSerial(&f, c.ClientSerial)
	switch {
	case c.Counted != nil && c.Pieces != nil:
		f.Add("denominations", store.FNotAllowed, "give the counted sum or the denominations, not both")
	case c.Counted == nil && c.Pieces == nil:
		f.Add("counted", store.FRequired, "is required (or the denominations)")
	case c.Counted != nil && *c.Counted < 0:
		f.Add("counted", store.FTooSmall, "must be 0 or more", "min", "0")
	}
	var sum int64
	keep := map[int64]int64{}
	for cents, n := range c.Pieces {
		at := "denominations." + fiscal.Amount(cents)
		switch {
		case !slices.Contains(Denominations, cents):
			f.Add(at, store.FOneOf, "is no euro note or coin", "values", DenominationNames())
		case n < 0 || n > maxPieces:
			f.Add(at, store.FOutOfRange, "must be from 0 to "+strconv.Itoa(maxPieces), "min", 0, "max", maxPieces)
		case n > 0:
			keep[cents] = n
			sum += cents * n
		}
	}
	if err := f.Err(); err != nil {
		return 0, nil, err
	}
	if c.Counted != nil {
		return *c.Counted, nil, nil
	}
	return sum, keep, nil
}

// DenominationNames are the denominations as the API writes them.
func DenominationNames() []string {
	out := make([]string, 0, len(Denominations))
	for _, d := range Denominations {
		out = append(out, fiscal.Amount(d))
	}
	return out
}

// Count books a count: compared with the expected cash now, a difference
// is booked as DifferenzSollIst in the count's transaction; a count whose
// balance moved meanwhile is refused (store.ECashChanged) and books
// nothing. A register whose cash book has not begun cannot be counted.
func (d *Desk) Count(ctx context.Context, restaurantID string, c Counting) (*store.CashCount, error) {
	counted, pieces, err := c.total()
	if err != nil {
		return nil, err
	}
	b, err := d.St.CashBalanceOf(ctx, restaurantID, c.ClientSerial)
	if err != nil {
		return nil, err
	}
	if !b.Started {
		return nil, store.Errorf(store.ECashBookNotStarted, "register %s has no cash book yet: book its opening float first", c.ClientSerial)
	}
	n := store.NewCashCount{ClientSerial: c.ClientSerial, LedgerSeq: b.LedgerSeq, ExpectedCents: b.Cents, CountedCents: counted,
		Denominations: pieces, CountedBy: c.By.ID, CountedByName: c.By.Name}
	diff := counted - b.Cents
	if diff == 0 {
		return d.St.CreateCashCount(ctx, restaurantID, n)
	}
	k, _ := KindOf("difference")
	reason := "Zählung Ist " + euro(counted) + ", Soll " + euro(b.Cents)
	sale := movementSale(c.ClientSerial, k, diff, lineText(k.Label, reason, ""), c.By)
	sale.CashMovement = &store.NewCashMovement{Kind: k.Name, Cents: diff, Reason: reason, BookedBy: c.By.ID, BookedByName: c.By.Name}
	sale.CashCount = &n
	t, err := d.Seller.Sell(ctx, restaurantID, sale, "")
	if err != nil {
		return nil, err
	}
	return d.St.CashCountOfDifference(ctx, restaurantID, t.TxID)
}

// euro writes cents as the receipt's German text does: "59,41 €".
func euro(c int64) string { return strings.Replace(fiscal.Amount(c), ".", ",", 1) + " €" }
