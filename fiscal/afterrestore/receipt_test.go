package afterrestore

import (
	"fmt"
	"testing"

	"posbox/tse"
)

// What the list shows of a receipt is what tse.ProcessData signed: built
// by it here, read back, for the forms a till sends.
func TestReceiptReadsWhatProcessDataSigned(t *testing.T) {
	for _, c := range []struct {
		r    tse.Receipt
		want string
	}{
		{tse.Receipt{ReceiptType: "RECEIPT", AmountsPerVATRate: []tse.AmountPerVATRate{{VATRate: "NORMAL", Amount: "21.42"}},
			AmountsPerPaymentType: []tse.AmountPerPayment{{PaymentType: "CASH", Amount: "21.42"}}},
			"Beleg [{NORMAL 21.42}] [{CASH 21.42 EUR}]"},
		{tse.Receipt{ReceiptType: "ANNULATION", AmountsPerVATRate: []tse.AmountPerVATRate{{VATRate: "REDUCED_1", Amount: "-5.35"}, {VATRate: "NULL", Amount: "-2.00"}},
			AmountsPerPaymentType: []tse.AmountPerPayment{{PaymentType: "NON_CASH", Amount: "-7.35"}}},
			"AVBelegstorno [{REDUCED_1 -5.35} {NULL -2.00}] [{NON_CASH -7.35 EUR}]"},
		{tse.Receipt{ReceiptType: "RECEIPT", AmountsPerVATRate: []tse.AmountPerVATRate{{VATRate: "NORMAL", Amount: "10.00"}},
			AmountsPerPaymentType: []tse.AmountPerPayment{{PaymentType: "CASH", Amount: "5.00"}, {PaymentType: "CASH", Amount: "6.00", CurrencyCode: "chf"}}},
			"Beleg [{NORMAL 10.00}] [{CASH 5.00 EUR} {CASH 6.00 CHF}]"},
		{tse.Receipt{ReceiptType: "TRAINING", AmountsPerVATRate: []tse.AmountPerVATRate{{VATRate: "NORMAL", Amount: "1.00"}}},
			"AVTraining [{NORMAL 1.00}] []"},
	} {
		kind, vat, pay := receipt(tse.ProcessTypeReceipt, tse.ProcessData(&c.r))
		if got := fmt.Sprintf("%s %v %v", kind, vat, pay); got != c.want {
			t.Errorf("%s: got %s, want %s", tse.ProcessData(&c.r), got, c.want)
		}
	}
	// An order, or processData of another form: nothing read, the raw
	// text stays on the list.
	for _, c := range [][2]string{
		{tse.ProcessTypeOrder, "1;\"Bier\";4.50"},
		{tse.ProcessTypeReceipt, "Beleg^21.42_0.00^21.42:Bar"},
		{tse.ProcessTypeReceipt, "Beleg^21.42_0.00_0.00_0.00_0.00^21.42:Karte"},
		{tse.ProcessTypeReceipt, ""},
	} {
		if kind, vat, pay := receipt(c[0], c[1]); kind != "" || len(vat) != 0 || len(pay) != 0 {
			t.Errorf("%q: read %s %v %v", c[1], kind, vat, pay)
		}
	}
}
