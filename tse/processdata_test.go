package tse

import "testing"

func TestProcessData(t *testing.T) {
	r := &Receipt{
		ReceiptType: "RECEIPT",
		AmountsPerVATRate: []AmountPerVATRate{
			{VATRate: "REDUCED_1", Amount: "3.50"}, {VATRate: "NORMAL", Amount: "10.00"},
			{VATRate: "REDUCED_1", Amount: "1.005"}, {VATRate: "NULL", Amount: "-2.00"},
		},
		AmountsPerPaymentType: []AmountPerPayment{
			{PaymentType: "NON_CASH", Amount: "5.00"}, {PaymentType: "CASH", Amount: "2.00", CurrencyCode: "USD"},
			{PaymentType: "CASH", Amount: "5.505"},
		},
	}
	if err := ValidateReceipt(r); err != nil {
		t.Fatal(err)
	}
	want := "Beleg^10.00_4.505_0.00_0.00_-2.00^5.505:Bar_2.00:Bar:USD_5.00:Unbar"
	if got := ProcessData(r); got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
	r.ReceiptType = "ABORT"
	r.AmountsPerPaymentType = nil
	if got := ProcessData(r); got != "AVBelegabbruch^10.00_4.505_0.00_0.00_-2.00^" {
		t.Fatal(got)
	}
}
