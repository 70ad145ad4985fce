package queue

import (
	"encoding/json"
	"strings"
	"testing"

	"posbox/fiscal"
	"posbox/tse"
)

// The wire form and the idempotency hash of a sale are what earlier
// releases made when the sale travelled as tse.Sale: the finishing
// revision is signed and stored byte for byte, and keys stored then must
// still match. The bodies and the values were recorded with the code
// before the fiscal domain's sale carried cents.
func TestWireFormAndHashUnchanged(t *testing.T) {
	for _, c := range []struct{ name, body, hash, finish string }{
		{"plain receipt",
			`{"client_serial":"KASSE-01","receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":21.42}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":21.42}]}`,
			"949fdab383b05199ec302b6acbc14645ee628ec2f13e2a0ed19c239cf4df3b4d",
			`{"state":"FINISHED","client_id":"client-1","schema":{"standard_v1":{"receipt":{"receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":"21.42"}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":"21.42"}]}}}}`},
		// amount_eur is posbox's: fiskaly gets the francs alone, the hash
		// has the euro value too (a sale without one was refused since).
		{"foreign currency",
			`{"client_serial":"KASSE-01","receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":10}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":12,"currency_code":"CHF","amount_eur":10}]}`,
			"ba1c1043a6e14468c4b384f90658a9b6473d15471a9641e0b7f078b143c67c6f",
			`{"state":"FINISHED","client_id":"client-1","schema":{"standard_v1":{"receipt":{"receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":"10.00"}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":"12.00","currency_code":"CHF"}]}}}}`},
		{"receipt with lines and a table",
			`{"client_serial":"KASSE-01","receipt_type":"RECEIPT","allocation_group":"Tisch 4","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":7.80},{"vat_rate":"REDUCED_1","amount":9.33}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":17.13}],"line_items":[{"text":"Bier 0,5 l","quantity":2,"unit_price":3.90,"vat_rate":"NORMAL"},{"text":"Schnitzel","quantity":1,"unit_price":12.90,"vat_rate":"REDUCED_1","item_number":"A-1"},{"text":"Käse","quantity":0.333,"unit_price":10.00,"vat_rate":"REDUCED_1"},{"text":"Stammgast","quantity":1,"unit_price":-6.90,"vat_rate":"REDUCED_1","discount_id":"0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01"}]}`,
			"169d348c045702646fecba2eaa2a2b786ffb973bb1724e354584aa978d2e74fa",
			`{"state":"FINISHED","client_id":"client-1","schema":{"standard_v1":{"receipt":{"receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":"7.80"},{"vat_rate":"REDUCED_1","amount":"9.33"}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":"17.13"}]}}}}`},
		{"storno",
			`{"client_serial":"KASSE-01","receipt_type":"RECEIPT","cancels":"0b0a4c6e-4d0e-4a53-9b83-6f7d1c1f0a01","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":-1}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":-1}]}`,
			"a71c843fcd74d202c5b95f86ea74eb400850231795856618674d693644bf8768",
			`{"state":"FINISHED","client_id":"client-1","schema":{"standard_v1":{"receipt":{"receipt_type":"RECEIPT","amounts_per_vat_rate":[{"vat_rate":"NORMAL","amount":"-1.00"}],"amounts_per_payment_type":[{"payment_type":"CASH","amount":"-1.00"}]}}}}`},
		{"order",
			`{"client_serial":"KASSE-01","kind":"order","allocation_group":"Tisch 4","line_items":[{"text":"Bier \"Hell\"","quantity":2,"unit_price":3.90,"vat_rate":"NORMAL"},{"text":"Schnitzel","quantity":1.5,"unit_price":12.90,"vat_rate":"REDUCED_1"},{"text":"Wasser","quantity":-0.25,"unit_price":1,"vat_rate":"NORMAL"}]}`,
			"f761b6941b1d15a5f17102432f84e837892e953214b7ca14bafab5be7af29b5f",
			`{"state":"FINISHED","client_id":"client-1","schema":{"standard_v1":{"order":{"line_items":[{"quantity":"2","text":"Bier \"Hell\"","price_per_unit":"3.90"},{"quantity":"1.5","text":"Schnitzel","price_per_unit":"12.90"},{"quantity":"-0.25","text":"Wasser","price_per_unit":"1.00"}]}}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var req fiscal.Request
			dec := json.NewDecoder(strings.NewReader(c.body))
			dec.DisallowUnknownFields()
			dec.UseNumber()
			if err := dec.Decode(&req); err != nil {
				t.Fatal(err)
			}
			s, err := req.Validate()
			if err != nil {
				t.Fatal(err)
			}
			s.OperatorID, s.OperatorName = "someone", "Some One" // not part of the hash
			w := WireSale(&s)
			finish, err := tse.FinishBody("client-1", &w)
			if err != nil || string(finish) != c.finish {
				t.Errorf("finish body\n%s\nwant\n%s (%v)", finish, c.finish, err)
			}
			if h := requestHash(&s, w); h != c.hash {
				t.Errorf("hash %s, want %s", h, c.hash)
			}
		})
	}
}

// The store keeps the sale's cents as validated: VAT and payments as
// sent (EUR when no currency is named), the lines with their totals, and
// Umsatz when the sale names no business case.
func TestSaleDetailFromCents(t *testing.T) {
	s := fiscal.Sale{ClientSerial: "KASSE-01", Kind: fiscal.KindReceipt, ReceiptType: "RECEIPT", TotalCents: 1713,
		VAT:      []fiscal.VATAmount{{VATRate: "NORMAL", Cents: 780}, {VATRate: "REDUCED_1", Cents: 933}},
		Payments: []fiscal.Payment{{PaymentType: "CASH", Cents: 1000}, {PaymentType: "NON_CASH", CurrencyCode: "CHF", Cents: 713}},
		Lines: []fiscal.Line{{Text: "Bier", QuantityMilli: 2000, UnitPriceCents: 390, TotalCents: 780, VATRate: "NORMAL", BusinessCase: "Umsatz"},
			{Text: "Käse", QuantityMilli: 333, UnitPriceCents: 2800, TotalCents: 933, VATRate: "REDUCED_1", ItemNumber: "K-1", BusinessCase: "Umsatz"}},
		AllocationGroup: "Tisch 4", OperatorID: "u-1", OperatorName: "Sam"}
	d := SaleDetail(&s)
	if d.Kind != "receipt" || d.BusinessCase != "Umsatz" || d.AllocationGroup != "Tisch 4" || d.OperatorID != "u-1" || d.OperatorName != "Sam" ||
		len(d.VAT) != 2 || d.VAT[1].VATRate != "REDUCED_1" || d.VAT[1].Cents != 933 ||
		len(d.Payments) != 2 || d.Payments[0].CurrencyCode != "EUR" || d.Payments[1].CurrencyCode != "CHF" || d.Payments[1].Cents != 713 ||
		len(d.Lines) != 2 || d.Lines[1].TotalCents != 933 || d.Lines[1].ItemNumber != "K-1" {
		t.Fatalf("detail %+v", d)
	}
	s.Kind, s.BusinessCase = fiscal.KindOrder, "Pfand"
	if d := SaleDetail(&s); d.Kind != "order" || d.BusinessCase != "Pfand" {
		t.Fatalf("order detail %+v", d)
	}
}
