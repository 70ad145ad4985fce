package server

import (
	"encoding/json"

	"posbox/discount"
)

// evaluationAnswer is the answer of POST /api/discounts/evaluate: the
// basket priced with the discounts that need no code, then the code's
// check and the basket priced with what it unlocks.
type evaluationAnswer struct {
	evaluationJSON
	Code     *codeCheck      `json:"code"`
	WithCode *evaluationJSON `json:"with_code"`
}

// evaluationJSON is one pricing of the basket (docs/API.md, "Pricing a
// basket"): the totals, the discounts that apply in the order they apply,
// those that do not with their reason, and the sums per line and rate.
type evaluationJSON struct {
	OrderTotal    json.Number   `json:"order_total"`
	DiscountTotal json.Number   `json:"discount_total"`
	Total         json.Number   `json:"total"`
	Applied       []appliedJSON `json:"applied"`
	Skipped       []skippedJSON `json:"skipped"`
	Lines         []lineSumJSON `json:"lines"`
	VATRates      []rateSumJSON `json:"vat_rates"`
}

type appliedJSON struct {
	DiscountID string           `json:"discount_id"`
	Name       string           `json:"name"`
	Amount     json.Number      `json:"amount"`
	Combinable bool             `json:"combinable"`
	Priority   int64            `json:"priority"`
	Lines      []lineAmountJSON `json:"lines"`
	VATRates   []rateAmountJSON `json:"vat_rates"`
	// Approval tells the till to ask for an admin's approval (or an
	// admin) before it redeems (docs/API.md, "Manager-only discounts").
	Approval string `json:"approval"`
}

type lineAmountJSON struct {
	Line   int         `json:"line"`
	Amount json.Number `json:"amount"`
}

type rateAmountJSON struct {
	VATRate string      `json:"vat_rate"`
	Amount  json.Number `json:"amount"`
}

type skippedJSON struct {
	DiscountID string `json:"discount_id"`
	Name       string `json:"name"`
	Reason     string `json:"reason"`
}

// lineSumJSON is one basket line: its total, all discounts on it, and
// what is left.
type lineSumJSON struct {
	Line          int         `json:"line"`
	Total         json.Number `json:"total"`
	Discount      json.Number `json:"discount"`
	AfterDiscount json.Number `json:"after_discount"`
}

// rateSumJSON is one VAT rate of the basket, the same three sums.
type rateSumJSON struct {
	VATRate       string      `json:"vat_rate"`
	Total         json.Number `json:"total"`
	Discount      json.Number `json:"discount"`
	AfterDiscount json.Number `json:"after_discount"`
}

func toEvaluationJSON(b discount.Basket, res *discount.Result) evaluationJSON {
	out := evaluationJSON{OrderTotal: money(res.OrderTotal), DiscountTotal: money(res.Amount), Total: money(res.OrderTotal - res.Amount),
		Applied: make([]appliedJSON, 0, len(res.Applied)), Skipped: make([]skippedJSON, 0, len(res.Skipped)),
		Lines: make([]lineSumJSON, 0, len(res.LineTotals))}
	for _, a := range res.Applied {
		aj := appliedJSON{DiscountID: a.Discount.ID, Name: a.Discount.Name, Amount: money(a.Amount),
			Combinable: a.Stacking.Combinable, Priority: int64(a.Stacking.Priority), Approval: a.Discount.Approval}
		aj.Lines, aj.VATRates = partsJSON(a.Lines, a.Rates)
		out.Applied = append(out.Applied, aj)
	}
	for _, sk := range res.Skipped {
		out.Skipped = append(out.Skipped, skippedJSON{sk.Discount.ID, sk.Discount.Name, sk.Reason})
	}
	for i, t := range res.LineTotals {
		out.Lines = append(out.Lines, lineSumJSON{i, money(t), money(res.Lines[i]), money(t - res.Lines[i])})
	}
	// Every rate of the basket, in discount.VATRates' order, even one no
	// discount reached.
	totals := discount.ByRate(b.Lines, res.LineTotals)
	cut := map[string]int64{}
	for _, r := range res.Rates {
		cut[r.VATRate] = r.Cents
	}
	out.VATRates = make([]rateSumJSON, 0, len(totals))
	for _, r := range totals {
		out.VATRates = append(out.VATRates, rateSumJSON{r.VATRate, money(r.Cents), money(cut[r.VATRate]), money(r.Cents - cut[r.VATRate])})
	}
	return out
}

// partsJSON is a discount's part of each basket line (lines without one
// left out) and per VAT rate.
func partsJSON(lines []int64, rates []discount.RateAmount) ([]lineAmountJSON, []rateAmountJSON) {
	ls, rs := []lineAmountJSON{}, make([]rateAmountJSON, 0, len(rates))
	for i, p := range lines {
		if p != 0 {
			ls = append(ls, lineAmountJSON{i, money(p)})
		}
	}
	for _, r := range rates {
		rs = append(rs, rateAmountJSON{r.VATRate, money(r.Cents)})
	}
	return ls, rs
}
