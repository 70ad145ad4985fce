package datev

import (
	"strings"
	"testing"

	"posbox/store"
)

func eur(c int64) *int64 { return &c }

// A day with vouchers sold and redeemed, a tip to the employer, more
// stornos than sales at 7 % and a long register serial: vouchers book
// net to their account, the employer's tip is revenue, the negative sum
// books the other side, Belegfeld 1 keeps the serial's end.
func TestBookingsOfVouchersTipsAndNegativeSums(t *testing.T) {
	c := Closing{TSEClosing: &store.TSEClosing{ClientSerial: "restaurant-terrace-07", ZNr: 123, BusinessDate: "2026-11-03",
		Payments: []store.TSESalePayment{{PaymentType: "CASH", CurrencyCode: "EUR", Cents: 4000, EURCents: eur(4000)},
			{PaymentType: "NON_CASH", CurrencyCode: "EUR", Cents: 500, EURCents: eur(500)}}},
		Lines: []store.TSESaleLine{
			{TotalCents: 5000, VATRate: "NULL", BusinessCase: "MehrzweckgutscheinKauf"},
			{TotalCents: -2000, VATRate: "NULL", BusinessCase: "MehrzweckgutscheinEinloesung"},
			{TotalCents: 2000, VATRate: "NORMAL", BusinessCase: "Umsatz"},
			{TotalCents: 300, VATRate: "NORMAL", BusinessCase: "TrinkgeldAG"},
			{TotalCents: -800, VATRate: "REDUCED_1", BusinessCase: "Umsatz"},
		}}
	got, err := Bookings(c, Defaults(SKR03))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, b := range got {
		lines = append(lines, strings.Join([]string{euro(b.Cents), b.Side, b.Account, b.Contra, b.Voucher}, " "))
	}
	want := []string{
		"23,00 S 1360 8400 race-07-Z123",
		"8,00 H 1360 8300 race-07-Z123",
		"30,00 S 1360 1796 race-07-Z123",
		"40,00 S 1000 1360 race-07-Z123",
		"5,00 S 1361 1360 race-07-Z123",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("bookings\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if len(got[0].Voucher) > 12 || got[0].Text != "Erlöse 19 %, Z 123 Kasse restaurant-terrace-07" {
		t.Fatalf("voucher %q text %q", got[0].Voucher, got[0].Text)
	}

	// SKR04 has no voucher default: the closing is refused, by name.
	if _, err := Bookings(c, Defaults(SKR04)); store.ErrorCode(err) != EAccountMissing || !strings.Contains(err.Error(), "Mehrzweckgutscheine") {
		t.Fatalf("SKR04 without a voucher account: %v", err)
	}
	// A foreign payment without its euro value cannot be booked.
	c.Payments = append(c.Payments, store.TSESalePayment{PaymentType: "CASH", CurrencyCode: "CHF", Cents: 100})
	if _, err := Bookings(c, Defaults(SKR03)); store.ErrorCode(err) != EEuroUnknown {
		t.Fatalf("unknown euro value: %v", err)
	}
}

// Amounts are written as DATEV reads them: decimal comma, two places.
func TestEuro(t *testing.T) {
	for c, want := range map[int64]string{0: "0,00", 5: "0,05", 120: "1,20", 123456789: "1234567,89"} {
		if got := euro(c); got != want {
			t.Errorf("euro(%d) = %q, want %q", c, got, want)
		}
	}
}
