package discount

import (
	"cmp"
	"slices"
	"time"

	"posbox/store"
)

// Stacking is how a discount combines with others: whether it may apply
// together with other combinable ones, and its rank among them. A
// discount keeps them (store.Discount's Combinable and Priority); the
// caller hands them over (Request.Stacking), so the core can be asked
// with others.
type Stacking struct {
	Combinable bool
	Priority   int // higher applies first
}

// Request is what Evaluate prices: a basket at an instant, against the
// restaurant's discounts.
type Request struct {
	Basket    Basket
	At        time.Time
	Discounts []*store.Discount
	// Stacking gives each discount's stacking; nil makes every discount
	// exclusive with priority 0, so only the largest applies.
	Stacking func(d *store.Discount) Stacking
	// Open says whether d's own schedule lets it apply at the instant (a
	// weekly schedule, say); it is asked only after is_active and the
	// valid_from/valid_until window passed. nil: no schedule restricts.
	Open func(d *store.Discount, at time.Time) bool
}

// Why a discount does not apply. The first five are the codes a
// redemption would be refused with.
const (
	ReasonInactive    = store.EDiscountInactive
	ReasonNotStarted  = store.EDiscountNotStarted
	ReasonExpired     = store.EDiscountExpired
	ReasonMinOrder    = store.EMinOrderNotMet
	ReasonUsedUp      = store.EUsageLimitReached
	ReasonClosed      = "outside_schedule"  // Open said no
	ReasonNoLines     = "no_eligible_lines" // no line of its scope, or only lines worth 0
	ReasonNothingLeft = "nothing_left"      // earlier discounts took its lines' whole total
	ReasonNotCombined = "not_combined"      // the stacking rule chose others
	reasonNone        = ""
)

// Applied is one discount that applies, with what it takes off.
type Applied struct {
	Discount *store.Discount
	Stacking Stacking
	// Eligible is what it applied to: its lines' totals, less what
	// discounts applied before it took off them.
	Eligible int64
	Amount   int64
	Lines    []int64 // its part of Amount on each basket line, in basket order
	Rates    []RateAmount
}

// Skipped is a discount that does not apply, and why (a Reason).
type Skipped struct {
	Discount *store.Discount
	Reason   string
}

// Result is the basket priced: the discounts that apply, in the order
// they apply, those that do not, and the sums over all that apply.
type Result struct {
	LineTotals []int64 // each line before discounts
	OrderTotal int64
	Applied    []Applied
	Skipped    []Skipped
	Amount     int64        // all applied discounts together
	Lines      []int64      // per basket line, all applied discounts together
	Rates      []RateAmount // per VAT rate, all applied discounts together
}

// Evaluate prices the basket: which discounts apply at r.At, how much
// each takes off which lines and VAT rates, and the total (docs/API.md,
// "Pricing a basket"). Nothing is redeemed or counted. The error is a
// validation error on the basket.
func Evaluate(r Request) (*Result, error) {
	if err := r.Basket.Validate(); err != nil {
		return nil, err
	}
	totals, order := r.Basket.Totals()
	res := &Result{LineTotals: totals, OrderTotal: order}
	var cands []candidate
	for _, d := range r.Discounts {
		if why := r.refusal(d, order); why != reasonNone {
			res.Skipped = append(res.Skipped, Skipped{d, why})
			continue
		}
		c := candidate{stacking: r.stackingOf(d), scope: inScope(d, r.Basket.Lines)}
		c.alone = price(d, c.scope, totals, r.Basket.Lines)
		if c.alone.Eligible == 0 {
			res.Skipped = append(res.Skipped, Skipped{d, ReasonNoLines})
			continue
		}
		c.alone.Stacking = c.stacking
		cands = append(cands, c)
	}
	applied, skipped := stack(cands, totals, r.Basket.Lines)
	res.Applied, res.Skipped = applied, append(res.Skipped, skipped...)
	res.Lines = make([]int64, len(totals))
	for _, a := range res.Applied {
		res.Amount += a.Amount
		for i, p := range a.Lines {
			res.Lines[i] += p
		}
	}
	res.Rates = ByRate(r.Basket.Lines, res.Lines)
	return res, nil
}

// refusal is why d cannot apply to an order of orderTotal cents at r.At
// whatever else applies, in the order a redemption checks, or "".
func (r Request) refusal(d *store.Discount, orderTotal int64) string {
	switch {
	case !d.IsActive:
		return ReasonInactive
	case r.At.Before(d.ValidFrom):
		return ReasonNotStarted
	case d.ValidUntil != nil && !r.At.Before(*d.ValidUntil):
		return ReasonExpired
	case r.Open != nil && !r.Open(d, r.At):
		return ReasonClosed
	case d.MinOrderCents != nil && orderTotal < *d.MinOrderCents:
		return ReasonMinOrder
	case d.UsageLimit != nil && d.UsageCount >= *d.UsageLimit:
		return ReasonUsedUp
	}
	return reasonNone
}

func (r Request) stackingOf(d *store.Discount) Stacking {
	if r.Stacking == nil {
		return Stacking{}
	}
	return r.Stacking(d)
}

// inScope marks the lines d targets: every line for an order discount,
// the lines of its category or its item otherwise.
func inScope(d *store.Discount, lines []Line) []bool {
	in := make([]bool, len(lines))
	for i, l := range lines {
		switch d.ApplicableTo {
		case store.ScopeOrder:
			in[i] = true
		case store.ScopeCategory:
			in[i] = d.CategoryID != nil && l.CategoryID == *d.CategoryID
		case store.ScopeItem:
			in[i] = d.ItemID != nil && l.ItemID == *d.ItemID
		}
	}
	return in
}

// price applies d to the lines in scope whose remaining totals are left:
// the amount on their sum (store.Discount.Amount: a percentage rounded
// half up, capped by max_discount_amount and by the sum), split over
// them (Split).
func price(d *store.Discount, scope []bool, left []int64, lines []Line) Applied {
	eligible := make([]int64, len(left))
	a := Applied{Discount: d}
	for i, in := range scope {
		if in {
			eligible[i] = left[i]
			a.Eligible += left[i]
		}
	}
	a.Amount = d.Amount(a.Eligible)
	a.Lines = Split(a.Amount, eligible)
	a.Rates = ByRate(lines, a.Lines)
	return a
}

// candidate is a discount that may apply, priced alone on the basket.
type candidate struct {
	stacking Stacking
	scope    []bool
	alone    Applied
}

// stack is the stacking rule (docs/API.md, "Stacking"): the best
// exclusive discount (largest amount alone; then higher priority, then
// smaller id) applies alone when there is no combinable one or its amount
// is larger than the combinable ones' together; otherwise the combinable
// ones apply, in priority order (higher first, then larger amount alone,
// then smaller id), each on what the ones before left of its lines.
func stack(cands []candidate, totals []int64, lines []Line) (applied []Applied, skipped []Skipped) {
	var excl, comb []candidate
	for _, c := range cands {
		if c.stacking.Combinable {
			comb = append(comb, c)
		} else {
			excl = append(excl, c)
		}
	}
	slices.SortFunc(excl, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(b.alone.Amount, a.alone.Amount),
			cmp.Compare(b.stacking.Priority, a.stacking.Priority), cmp.Compare(a.alone.Discount.ID, b.alone.Discount.ID))
	})
	slices.SortFunc(comb, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(b.stacking.Priority, a.stacking.Priority),
			cmp.Compare(b.alone.Amount, a.alone.Amount), cmp.Compare(a.alone.Discount.ID, b.alone.Discount.ID))
	})
	together, left := chain(comb, totals, lines)
	var sum int64
	for _, a := range together {
		sum += a.Amount
	}
	losers := excl
	if len(excl) > 0 && (len(comb) == 0 || excl[0].alone.Amount > sum) {
		applied, losers = []Applied{excl[0].alone}, append(excl[1:], comb...)
	} else {
		applied = together
		for _, c := range left {
			skipped = append(skipped, Skipped{c.alone.Discount, ReasonNothingLeft})
		}
	}
	for _, c := range losers {
		skipped = append(skipped, Skipped{c.alone.Discount, ReasonNotCombined})
	}
	return applied, skipped
}

// chain applies the combinable discounts one after the other, each on
// what the ones before left of each line; one that finds its lines used
// up (and so would take nothing) is returned apart, as it would be a
// counted use for nothing.
func chain(comb []candidate, totals []int64, lines []Line) (applied []Applied, nothingLeft []candidate) {
	left := slices.Clone(totals)
	for _, c := range comb {
		a := price(c.alone.Discount, c.scope, left, lines)
		if a.Eligible == 0 {
			nothingLeft = append(nothingLeft, c)
			continue
		}
		a.Stacking = c.stacking
		for i, p := range a.Lines {
			left[i] -= p
		}
		applied = append(applied, a)
	}
	return applied, nothingLeft
}
