package datev

import (
	"maps"
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

// A day with sales and every cash movement (one closing of KASSE-01):
// 19 % 250.00 and 7 % 130.00 (cash 360.00; 20.00 of the 19 % and a
// 10.00 tip for the staff by card), 6.00 of card tips paid out in cash,
// and the cash book's entries. The closing's cash: 360.00 - 6.00 +
// 150.00 + 50.00 + 100.00 - 80.00 - 200.00 + 20.00 - 120.00 - 23.80 -
// 1.30 = 248.90. Each movement books cash against its own account, the
// takings in cash are the cash less the movements (360.00 - 6.00 =
// 354.00), so cash nets to the closing's cash and transit to what is
// still on its way: 150.00 + 50.00 + 20.00 in from bank and safe, 200.00
// out to the bank.
func TestBookingsOfCashMovements(t *testing.T) {
	move := func(cents int64, gvTyp, text string) store.TSESaleLine {
		return store.TSESaleLine{TotalCents: cents, VATRate: "NULL", BusinessCase: gvTyp, Text: text}
	}
	c := Closing{TSEClosing: &store.TSEClosing{ClientSerial: "KASSE-01", ZNr: 7, BusinessDate: "2026-11-23",
		Payments: []store.TSESalePayment{{PaymentType: "CASH", CurrencyCode: "EUR", Cents: 24890, EURCents: eur(24890)},
			{PaymentType: "NON_CASH", CurrencyCode: "EUR", Cents: 3000, EURCents: eur(3000)}}},
		Lines: []store.TSESaleLine{
			{TotalCents: 25000, VATRate: "NORMAL", BusinessCase: "Umsatz", Text: "Menü"},
			{TotalCents: 13000, VATRate: "REDUCED_1", BusinessCase: "Umsatz", Text: "Schnitzel"},
			{TotalCents: 1000, VATRate: "NULL", BusinessCase: "TrinkgeldAN", Text: "Trinkgeld"},
			move(15000, "Anfangsbestand", "Anfangsbestand"),
			move(5000, "Einzahlung", "Wechselgeld von der Bank"),
			move(10000, "Privateinlage", "Privateinlage"),
			move(-8000, "Privatentnahme", "Privatentnahme\nInhaber"),
			move(-20000, "Geldtransit", "Geldtransit zur Bank"),
			move(2000, "Geldtransit", "Geldtransit aus dem Tresor"),
			move(-12000, "Lohnzahlung", "Lohn Aushilfe November"),
			move(-2380, "Auszahlung", "Auszahlung: Reinigungsmittel (Beleg 4711)"),
			move(-600, "TrinkgeldAN", "Trinkgeld Kartenzahlung ausgezahlt"),
			move(-130, "DifferenzSollIst", ""),
		}}
	accounts := Defaults(SKR03)
	accounts["cash_difference"] = "2300"
	got, err := Bookings(c, accounts)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	net := map[string]int64{} // S positive
	for _, b := range got {
		lines = append(lines, strings.Join([]string{euro(b.Cents), b.Side, b.Account, b.Contra, b.Text}, " | "))
		sign := int64(1)
		if b.Side == "H" {
			sign = -1
		}
		net[b.Account] += sign * b.Cents
		net[b.Contra] -= sign * b.Cents
	}
	want := []string{
		"250,00 | S | 1360 | 8400 | Erlöse 19 %, Z 7 Kasse KASSE-01",
		"130,00 | S | 1360 | 8300 | Erlöse 7 %, Z 7 Kasse KASSE-01",
		"4,00 | S | 1360 | 1590 | Trinkgeld Personal, Z 7 Kasse KASSE-01",
		"354,00 | S | 1000 | 1360 | Bareinnahmen, Z 7 Kasse KASSE-01",
		"30,00 | S | 1361 | 1360 | Unbare Zahlungen, Z 7 Kasse KASSE-01",
		"150,00 | S | 1000 | 1360 | Anfangsbestand, Z 7 Kasse KASSE-01",
		"50,00 | S | 1000 | 1360 | Wechselgeld von der Bank, Z 7 Kasse KASSE-01",
		"100,00 | S | 1000 | 1890 | Privateinlage, Z 7 Kasse KASSE-01",
		"80,00 | H | 1000 | 1800 | Privatentnahme Inhaber, Z 7 Kasse KASSE-01",
		"200,00 | H | 1000 | 1360 | Geldtransit zur Bank, Z 7 Kasse KASSE-01",
		"20,00 | S | 1000 | 1360 | Geldtransit aus dem Tresor, Z 7 Kasse KASSE-01",
		"120,00 | H | 1000 | 1755 | Lohn Aushilfe November, Z 7 Kasse KASSE-01",
		"23,80 | H | 1000 | 4900 | Auszahlung: Reinigungsmittel (Beleg 4711), Z 7 Kasse KASSE-0",
		"1,30 | H | 1000 | 2300 | Kassendifferenz Soll/Ist, Z 7 Kasse KASSE-01",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("bookings\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	cash, _ := c.CashEUR()
	wantNet := map[string]int64{"1000": cash, "1360": -2000, "8400": -25000, "8300": -13000, "1590": -400, "1361": 3000,
		"1890": -10000, "1800": 8000, "1755": 12000, "4900": 2380, "2300": 130}
	if cash != 24890 || !maps.Equal(net, wantNet) {
		t.Fatalf("cash %d, accounts' net\n%v\nwant\n%v", cash, net, wantNet)
	}

	// SKR04's accounts for the movements.
	accounts = Defaults(SKR04)
	accounts["vouchers"], accounts["cash_difference"] = "3272", "6969"
	got, err = Bookings(c, accounts)
	if err != nil {
		t.Fatal(err)
	}
	var contras []string
	for _, b := range got[5:] {
		contras = append(contras, b.Account+"/"+b.Contra)
	}
	if s := strings.Join(contras, " "); s != "1600/1460 1600/1460 1600/2180 1600/2100 1600/1460 1600/1460 1600/3790 1600/6300 1600/6969" {
		t.Fatalf("SKR04 movements %s", s)
	}

	// No default for cash differences: refused, by name, only when the
	// closing has one.
	if _, err := Bookings(c, Defaults(SKR03)); store.ErrorCode(err) != EAccountMissing || !strings.Contains(err.Error(), "Kassendifferenzen") {
		t.Fatalf("a cash difference without its account: %v", err)
	}
	c.Lines = c.Lines[:len(c.Lines)-1]
	c.Payments[0].Cents, c.Payments[0].EURCents = 25020, eur(25020)
	if _, err := Bookings(c, Defaults(SKR03)); err != nil {
		t.Fatalf("without a cash difference: %v", err)
	}
}

// A mapping saved before a key existed gets the chart's default for it;
// one the admin cleared stays empty.
func TestWithDefaults(t *testing.T) {
	saved := map[string]string{"cash": "1001", "private_withdrawal": "", "vouchers": "3272"}
	got := WithDefaults(SKR04, saved)
	if got["cash"] != "1001" || got["private_withdrawal"] != "" || got["vouchers"] != "3272" || got["wages"] != "3790" ||
		got["expenses"] != "6300" || got["transit"] != "1460" || got["cash_difference"] != "" || len(got) != len(Accounts) {
		t.Fatalf("SKR04 %v", got)
	}
	if got := WithDefaults(SKR03, saved); got["wages"] != "1755" || got["expenses"] != "4900" {
		t.Fatalf("SKR03 %v", got)
	}
	if _, ok := saved["wages"]; ok {
		t.Fatal("the saved mapping was changed")
	}
}
