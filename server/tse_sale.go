package server

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"posbox/store"
	"posbox/tse"
)

// tseSaleRequest is POST /api/tse/transactions: fiskaly's standard_v1
// receipt with amounts as JSON numbers.
type tseSaleRequest struct {
	ClientSerial          *string         `json:"client_serial"`
	ReceiptType           *string         `json:"receipt_type"`
	AmountsPerVATRate     []tseVATLine    `json:"amounts_per_vat_rate"`
	AmountsPerPaymentType []tsePaymentRow `json:"amounts_per_payment_type"`
}

type tseVATLine struct {
	VATRate *string   `json:"vat_rate"`
	Amount  *decimal2 `json:"amount"`
}

type tsePaymentRow struct {
	PaymentType  *string   `json:"payment_type"`
	Amount       *decimal2 `json:"amount"`
	CurrencyCode *string   `json:"currency_code"`
}

// fiskaly's client serial rule minus "/" and "_" (DSFinV-K): 1-70 chars.
var clientSerialRE = regexp.MustCompile(`^[A-Za-z0-9 '()+,\-.:=?]{1,70}$`)
var currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)

var (
	receiptTypes = []string{"RECEIPT", "TRAINING", "TRANSFER", "ORDER", "CANCELLATION", "ABORT", "BENEFIT_IN_KIND", "INVOICE", "OTHER"}
	vatRates     = []string{"NORMAL", "REDUCED_1", "SPECIAL_RATE_1", "SPECIAL_RATE_2", "NULL"}
	paymentTypes = []string{"CASH", "NON_CASH"}
)

func oneOf(v string, set []string) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}

// validSale is a checked sale: the receipt in fiskaly's terms and the
// gross total in cents.
type validSale struct {
	clientSerial string
	receipt      tse.Receipt
	totalCents   int64
}

// validate checks every field and names each bad one.
func (r *tseSaleRequest) validate() (*validSale, error) {
	var f store.Fields
	v := &validSale{}
	if r.ClientSerial == nil {
		f.Add("client_serial", "is required")
	} else if s := *r.ClientSerial; !clientSerialRE.MatchString(s) || strings.TrimSpace(s) != s {
		f.Add("client_serial", "must be 1-70 characters of A-Z a-z 0-9 space ' ( ) + , - . : = ? (no / or _), without leading or trailing spaces")
	} else {
		v.clientSerial = s
	}
	if r.ReceiptType == nil {
		f.Add("receipt_type", "is required")
	} else if !oneOf(*r.ReceiptType, receiptTypes) {
		f.Add("receipt_type", "must be one of "+strings.Join(receiptTypes, ", "))
	} else {
		v.receipt.ReceiptType = *r.ReceiptType
	}
	if len(r.AmountsPerVATRate) == 0 {
		f.Add("amounts_per_vat_rate", "must have at least one line")
	}
	seen := map[string]bool{}
	for i, l := range r.AmountsPerVATRate {
		field := fmt.Sprintf("amounts_per_vat_rate[%d]", i)
		switch {
		case l.VATRate == nil:
			f.Add(field+".vat_rate", "is required")
		case !oneOf(*l.VATRate, vatRates):
			f.Add(field+".vat_rate", "must be one of "+strings.Join(vatRates, ", "))
		case seen[*l.VATRate]:
			f.Add(field+".vat_rate", "appears twice; give one line per rate")
		default:
			seen[*l.VATRate] = true
		}
		if l.Amount == nil {
			f.Add(field+".amount", "is required")
			continue
		}
		c := l.Amount.cents(&f, field+".amount")
		v.totalCents += c
		if l.VATRate != nil {
			v.receipt.AmountsPerVATRate = append(v.receipt.AmountsPerVATRate, tse.AmountPerVATRate{VATRate: *l.VATRate, Amount: amountString(c)})
		}
	}
	if len(r.AmountsPerPaymentType) == 0 {
		f.Add("amounts_per_payment_type", "must have at least one line")
	}
	var paid int64
	allEUR := true
	for i, l := range r.AmountsPerPaymentType {
		field := fmt.Sprintf("amounts_per_payment_type[%d]", i)
		if l.PaymentType == nil {
			f.Add(field+".payment_type", "is required")
		} else if !oneOf(*l.PaymentType, paymentTypes) {
			f.Add(field+".payment_type", "must be one of "+strings.Join(paymentTypes, ", "))
		}
		cur := ""
		if l.CurrencyCode != nil {
			if !currencyRE.MatchString(*l.CurrencyCode) {
				f.Add(field+".currency_code", "must be an ISO 4217 code such as EUR")
			}
			cur = *l.CurrencyCode
		}
		if cur != "" && cur != "EUR" {
			allEUR = false
		}
		if l.Amount == nil {
			f.Add(field+".amount", "is required")
			continue
		}
		c := l.Amount.cents(&f, field+".amount")
		paid += c
		if l.PaymentType != nil {
			v.receipt.AmountsPerPaymentType = append(v.receipt.AmountsPerPaymentType,
				tse.AmountPerPayment{PaymentType: *l.PaymentType, Amount: amountString(c), CurrencyCode: cur})
		}
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	// Payments in a foreign currency cannot be compared with the EUR
	// gross; then the rule is skipped (documented in docs/API.md).
	if allEUR && paid != v.totalCents {
		return nil, store.Invalid("amounts_per_payment_type", fmt.Sprintf("payments add up to %s but the VAT lines to %s",
			amountString(paid), amountString(v.totalCents)))
	}
	return v, nil
}

// amountString renders cents as fiskaly's decimal string: "21.42", "-0.50".
func amountString(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

// idemFlight lets a concurrent duplicate wait for the first answer.
type idemFlight struct {
	done chan struct{}
	once sync.Once
	refs int
}

func (q *tseQueue) idemAcquire(key string) *idemFlight {
	q.idemMu.Lock()
	defer q.idemMu.Unlock()
	f := q.idem[key]
	if f == nil {
		f = &idemFlight{done: make(chan struct{})}
		q.idem[key] = f
	}
	f.refs++
	return f
}

func (q *tseQueue) idemRelease(key string, f *idemFlight, answered bool) {
	if answered {
		f.once.Do(func() { close(f.done) })
	}
	q.idemMu.Lock()
	defer q.idemMu.Unlock()
	if f.refs--; f.refs == 0 {
		delete(q.idem, key)
	}
}

// saleAnswer is the status and body a POST answers (and replays).
type saleAnswer struct {
	status int
	body   []byte
}

// sell records a sale durably, then waits for its signature within the
// budget. Every path after the commit answers: signed (201) or queued (202).
func (q *tseQueue) sell(ctx context.Context, restaurantID string, v *validSale, idemKey, reqHash string) (saleAnswer, error) {
	var flight *idemFlight
	var idem *store.IdempotencyKey
	fkey := restaurantID + "\x00" + idemKey
	answered := false
	if idemKey != "" {
		idem = &store.IdempotencyKey{RestaurantID: restaurantID, Scope: store.IdemTSESale, Key: idemKey, RequestHash: reqHash}
		flight = q.idemAcquire(fkey)
		defer func() { q.idemRelease(fkey, flight, answered) }()
	}
	txID := uuid.NewString() // fiskaly wants v4 for its transaction ids
	t, replay, err := q.st.CreateTSESale(ctx, store.NewTSESale{
		RestaurantID: restaurantID, TSSID: q.tssID, TxID: txID, ClientSerial: v.clientSerial,
		ReceiptType: v.receipt.ReceiptType, TotalCents: v.totalCents,
		NewClientID: uuid.NewString,
		Idempotency: idem,
		Bodies: func(clientID string) ([]byte, []byte, error) {
			start, err := tse.UpsertBody(tse.TxActive, clientID, nil, nil)
			if err != nil {
				return nil, nil, err
			}
			finish, err := tse.UpsertBody(tse.TxFinished, clientID, &v.receipt, nil)
			return start, finish, err
		},
	})
	if err != nil {
		return saleAnswer{}, err
	}
	if replay != nil {
		return q.replay(ctx, *idem, flight, replay)
	}
	q.Wake()
	ans, err := q.await(ctx, t)
	if err != nil {
		return ans, err
	}
	if idem != nil {
		if err := q.st.SetIdempotentResponse(context.WithoutCancel(ctx), *idem, ans.status, ans.body); err != nil {
			return ans, err
		}
		answered = true
	}
	return ans, nil
}

// await waits until the sale is signed, the queue is known to be stuck,
// or the budget runs out. A sale never waits through a backoff or an open
// circuit: those answer 202 at once.
func (q *tseQueue) await(ctx context.Context, t *store.TSETransaction) (saleAnswer, error) {
	timer := time.NewTimer(q.budget)
	defer timer.Stop()
	code, reason := tse.CodeTimeout, tse.Reason(tse.CodeTimeout, 0)
	for {
		q.mu.Lock()
		changed := q.changed
		q.mu.Unlock()
		cur, err := q.st.TSETransaction(ctx, t.RestaurantID, t.TxID)
		if err != nil {
			return saleAnswer{}, err
		}
		if cur.Signed() {
			return answerOf(cur)
		}
		if down, c, r := q.unavailable(t.ClientID); down {
			code, reason = c, r
			break
		}
		select {
		case <-changed:
			continue
		case <-timer.C:
		case <-ctx.Done():
			// The till hung up: it never saw an answer, so no receipt
			// was printed; a retry with the same key gets the answer.
			return saleAnswer{}, ctx.Err()
		}
		break
	}
	// The receipt goes out marked "TSE failed": record it in the outage.
	cur, err := q.st.MarkTSEUnsigned(context.WithoutCancel(ctx), t.RestaurantID, t.TxID, code, reason)
	if err != nil {
		return saleAnswer{}, err
	}
	return answerOf(cur)
}

func answerOf(t *store.TSETransaction) (saleAnswer, error) {
	status := 202
	if t.Signed() {
		status = 201
	}
	body, err := renderJSON(envelope{"transaction": tseTxView(t)})
	return saleAnswer{status: status, body: body}, err
}

// replay answers a repeated Idempotency-Key with the first answer; a
// duplicate racing the first request waits for it.
func (q *tseQueue) replay(ctx context.Context, k store.IdempotencyKey, flight *idemFlight, r *store.IdempotentReplay) (saleAnswer, error) {
	if r.Status == 0 {
		timer := time.NewTimer(q.budget + 5*time.Second)
		defer timer.Stop()
		select {
		case <-flight.done:
		case <-timer.C:
		case <-ctx.Done():
		}
		again, err := q.st.Idempotent(ctx, k)
		if err != nil {
			return saleAnswer{}, err
		}
		r = again
	}
	if r.Status != 0 {
		return saleAnswer{status: r.Status, body: r.Response}, nil
	}
	// The first request never answered (it died): show the sale as it is.
	t, err := q.st.TSETransaction(ctx, k.RestaurantID, r.ResourceID)
	if err != nil {
		return saleAnswer{}, err
	}
	return answerOf(t)
}

// requestHash identifies a request body for Idempotency-Key reuse checks:
// the canonical JSON of the validated sale, so whitespace and key order
// do not matter but any value does.
func requestHash(v *validSale) string {
	return hashOf(struct {
		S string
		R tse.Receipt
	}{v.clientSerial, v.receipt})
}
