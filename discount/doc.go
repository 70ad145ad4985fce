// Package discount is the pricing core of discounts: given a till's
// basket, the instant and the restaurant's discounts, which apply, how
// much each takes off which line, and what that makes per VAT rate. It
// redeems nothing and keeps nothing: store keeps the discounts and counts
// their uses, server decodes the till's body and renders the answer.
//
// Since 2026 a restaurant's check mixes 7 % food and 19 % drinks, so a
// discount on the whole order must be split over the lines and rates so
// that the receipt's discount lines per rate (DSFinV-K business case
// Rabatt) and the closing agree to the cent; docs/API.md states the rule
// with worked examples.
//
// File by file:
//   - basket.go: the basket (lines with item, category, quantity in
//     thousandths, unit price in cents and VAT rate), its validation and
//     its line totals, rounded exactly as fiscal rounds a sale's lines.
//   - split.go: an amount split over lines in proportion to their totals
//     by the largest-remainder method, and the per-rate sums.
//   - evaluate.go: which discounts apply (active, in their window, open,
//     minimum order, usage left), each one's amount on its eligible
//     lines, and the stacking rule when several apply.
//   - schedule.go: a discount's weekly schedule on the restaurant's wall
//     clock (windows past midnight, the two DST days): whether it is
//     open at an instant (Opener is Request.Open), its next opening, and
//     the check the till's redemption runs inside its transaction.
//   - codes.go: discount codes: the alphabet, generation and the
//     normalisation of what a guest types (the store keeps and counts
//     them).
//
// It imports store only (the discount record and its field errors). It
// does not import fiscal: the line total and the VAT rate names are
// repeated here, held equal to fiscal's by a test, so the pricing core
// stays below fiscal and fiscal may one day check a sale's Rabatt lines
// against it.
package discount
