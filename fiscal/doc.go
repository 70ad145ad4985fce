// Package fiscal is the fiscal domain's sale: what a till sold, in cents
// and thousandths with typed line items (Sale, Line), and the rules a
// sale must keep before it is signed (Request.Validate). It sits above
// store (its errors are store field errors, so the API shows them as
// every other 422) and below server, which only decodes the body into a
// Request, hands the Sale to the queue and renders the answer.
//
// A sale here is a receipt (fiskaly's standard_v1.receipt: amounts per
// VAT rate and per payment type) or an order for table service
// (standard_v1.order, Bestellung-V1), optionally with what the DSFinV-K
// needs besides: line items, business case (GV_TYP), table
// (ABRECHNUNGSKREIS) and, for a storno, the sale it reverses.
//
// Where a sale goes, one package each:
//   - validated: here (validate.go a receipt, order.go an order,
//     lines.go the line items and the members both share; request.go is
//     the body as the till sends it, amounts as exact decimal literals).
//   - queued: fiscal/queue records it with its detail and makes
//     fiskaly's wire form (tse.Sale) from it, the only place its amounts
//     become decimal strings.
//   - signed: tse, the provider boundary and the fiskaly client (the
//     simulator in tse/tsesim), driven by fiscal/queue's worker.
//   - archived: fiscal/archive pulls and verifies the TSS's TAR exports.
//   - exported: fiscal/dsfinvk builds the DSFinV-K export.
//   - closed: fiscal/closing takes the daily closings the POS does not
//     (the closing itself is recorded by store); zreport.go gathers a
//     closing's Z-report, with business_cases.go's business cases, which
//     the DSFinV-K export counts with the same function.
//
// The rules (docs/API.md documents them for the till): amounts have at
// most two decimals and quantities three; a receipt's payments add up to
// its VAT amounts unless a foreign currency is paid; line items add up,
// per VAT rate, to that rate's amount exactly (each quantity × unit price
// rounded half away from zero to the cent, LineTotal); a discount line
// never adds to the total; a storno (cancels) is a receipt of a counted
// type with the sale's amounts negated (store checks the sale it names);
// an order has lines, no payments, and its amounts are its lines' sums.
package fiscal
