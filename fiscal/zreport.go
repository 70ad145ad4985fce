package fiscal

import (
	"context"
	"slices"
	"time"

	"posbox/store"
	"posbox/tse"
)

// ZReport is what the Z-report (Z-Bon) of one daily closing shows
// (docs/FISCAL.md, "The Z-report"): everything the closing covers, with
// nothing filtered out. Every storno and every aborted receipt is listed
// with its count and sum (BFH X R 23-24/21, GoBD Rz. 173). Its figures
// come from the closing's stored totals and its covered sales, the
// business cases from ClosingBusinessCases, as the DSFinV-K export's.
type ZReport struct {
	Closing *store.TSEClosing
	// TSESerials are the serials of the TSSs that signed the closing's
	// sales, in order of first use; when none is signed, the TSS's the
	// box knows now.
	TSESerials []string
	// The first and last signature counter and TSE transaction number of
	// the closing's signed sales; Signed says whether there is any.
	Signed                      bool
	FirstCounter, LastCounter   int64
	FirstTxNumber, LastTxNumber int64
	Unsigned                    int // sales without TSE data (outage, queue)

	// VAT is the revenue per VAT rate: the closing's totals less the
	// cash movements (Cash), which the closing counts at rate NULL.
	VAT      []ZVAT
	VATTotal ZVAT
	Payments []ZPayment // per type and currency
	PaidEUR  int64
	PaidOK   bool    // false when a foreign payment's euro value is unknown
	Cases    []ZCase // every GV_TYP, cash movements included

	Stornos   []ZStorno
	StornoSum int64
	Aborted   []ZReceipt // AVBelegabbruch and transactions the TSE cancelled
	AbortSum  int64
	Training  []ZReceipt
	TrainSum  int64
	// Kinds counts every covered transaction by its DSFinV-K BON_TYP:
	// together they are the closing's transaction count.
	Kinds []ZKind

	CashExpected int64 // the cash's euro value the closing counted
	CashOK       bool
	Cash         ZCash
}

// ZVAT is one VAT rate's totals; the net is computed from the rate's
// gross, rounded half away from zero to the cent (Z_UMS_NETTO's rule).
type ZVAT struct {
	VATRate         string
	BP              int64
	Net, VAT, Gross int64
}

// ZPayment is the payments of one type in one currency and their euro
// value (EUROK false when a foreign payment's is unknown).
type ZPayment struct {
	PaymentType, CurrencyCode string
	Cents, EUR                int64
	EUROK                     bool
}

// ZCase is a business case at a VAT rate, net and VAT split as ZVAT's.
type ZCase struct {
	BusinessCase
	Net, VAT int64
}

// ZReceipt is one listed receipt: number (BON_NR), when, amount, type.
type ZReceipt struct {
	ReceiptNo   int64
	At          time.Time // recorded (business time)
	TotalCents  int64
	ReceiptType string
}

// ZStorno is a storno and the receipt it reverses: that receipt's
// number and time, and the closing that covers it (ReversedZ 0 while
// none does).
type ZStorno struct {
	ZReceipt
	ReversedNo       int64
	ReversedAt       time.Time
	ReversedZ        int64
	ReversedRegister string
}

// ZKind is the count of one BON_TYP.
type ZKind struct {
	BonTyp string
	Count  int
}

// GatherZReport reads one closing of a restaurant and its sales; tss is
// what the box knows of its TSS now, named when no sale is signed.
func GatherZReport(ctx context.Context, st *store.Store, restaurantID, closingID string, tss store.TSEInfo) (*ZReport, error) {
	c, err := st.TSEClosing(ctx, restaurantID, closingID)
	if err != nil {
		return nil, err
	}
	sales, err := st.ClosingSales(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	z := &ZReport{Closing: c}
	for _, p := range c.Payments {
		eur, ok := p.EUR()
		z.Payments = append(z.Payments, ZPayment{PaymentType: p.PaymentType, CurrencyCode: p.CurrencyCode, Cents: p.Cents, EUR: eur, EUROK: ok})
	}
	z.PaidEUR, z.PaidOK = c.PaidEUR()
	z.CashExpected, z.CashOK = c.CashEUR()
	for _, bc := range ClosingBusinessCases(sales) {
		net, vat := SplitGross(bc.GrossCents, VATRateBP(bc.VATRate))
		z.Cases = append(z.Cases, ZCase{BusinessCase: bc, Net: net, VAT: vat})
	}
	if err := z.cashDesk(ctx, st, restaurantID, sales); err != nil {
		return nil, err
	}
	z.tse(sales, tss)
	if err := z.receipts(ctx, st, restaurantID, sales); err != nil {
		return nil, err
	}
	return z, nil
}

// tse fills the TSE's serials and the closing's counter range.
func (z *ZReport) tse(sales []*store.ClosedSale, tss store.TSEInfo) {
	for _, s := range sales {
		if s.Number == nil || s.SignatureCounter == nil || s.SignatureValue == "" {
			z.Unsigned++
			continue
		}
		if s.TSSSerialNumber != "" && !slices.Contains(z.TSESerials, s.TSSSerialNumber) {
			z.TSESerials = append(z.TSESerials, s.TSSSerialNumber)
		}
		n, sc := *s.Number, *s.SignatureCounter
		if !z.Signed {
			z.Signed, z.FirstTxNumber, z.LastTxNumber, z.FirstCounter, z.LastCounter = true, n, n, sc, sc
			continue
		}
		z.FirstTxNumber, z.LastTxNumber = min(z.FirstTxNumber, n), max(z.LastTxNumber, n)
		z.FirstCounter, z.LastCounter = min(z.FirstCounter, sc), max(z.LastCounter, sc)
	}
	if len(z.TSESerials) == 0 && tss.SerialNumber != "" {
		z.TSESerials = []string{tss.SerialNumber}
	}
}

// receipts lists the stornos, aborted and training receipts and counts
// every transaction by its kind.
func (z *ZReport) receipts(ctx context.Context, st *store.Store, restaurantID string, sales []*store.ClosedSale) error {
	kinds := map[string]int{}
	var order []string
	for _, s := range sales {
		kind := tse.BonTyp(s.ReceiptType)
		if Aborted(s) {
			kind = "AVBelegabbruch"
		}
		if _, ok := kinds[kind]; !ok {
			order = append(order, kind)
		}
		kinds[kind]++
		r := ZReceipt{ReceiptNo: s.ReceiptNo, At: s.BusinessTime, TotalCents: s.TotalCents, ReceiptType: s.ReceiptType}
		switch {
		case Aborted(s):
			z.Aborted, z.AbortSum = append(z.Aborted, r), z.AbortSum+s.TotalCents
		case s.ReceiptType == "TRAINING":
			z.Training, z.TrainSum = append(z.Training, r), z.TrainSum+s.TotalCents
		case IsStorno(s):
			zs, err := storno(ctx, st, restaurantID, r, SaleDetail(s).CancelsTxID)
			if err != nil {
				return err
			}
			z.Stornos, z.StornoSum = append(z.Stornos, zs), z.StornoSum+s.TotalCents
		}
	}
	for _, k := range order {
		z.Kinds = append(z.Kinds, ZKind{BonTyp: k, Count: kinds[k]})
	}
	return nil
}

// storno names the receipt a storno reverses and the closing covering it.
func storno(ctx context.Context, st *store.Store, restaurantID string, r ZReceipt, reversed string) (ZStorno, error) {
	zs := ZStorno{ZReceipt: r}
	no, at, err := st.SaleReceipt(ctx, restaurantID, reversed)
	if err != nil {
		return zs, err
	}
	zs.ReversedNo, zs.ReversedAt = no, at
	ref, err := st.ClosingRef(ctx, restaurantID, reversed)
	switch {
	case err == nil:
		zs.ReversedZ, zs.ReversedRegister = ref.ZNr, ref.ClientSerial
	case !store.IsNotFound(err):
		return zs, err
	}
	return zs, nil
}
