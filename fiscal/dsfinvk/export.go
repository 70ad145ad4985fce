package dsfinvk

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"posbox/fiscal"
	"posbox/store"
	"posbox/tse"
)

// TaxonomyVersion is the DSFinV-K version the export follows (2.4, current
// since 2024; its tables are 2.3's), named in index.xml and written as
// cashpointclosing.csv's TAXONOMIE_VERSION: posbox writes no DFKA
// taxonomy data whose version it could name there (docs/FISCAL.md).
const TaxonomyVersion = "2.4"

// SoftwareBrand names posbox in cashregister.csv when the owner named no
// other POS software.
const SoftwareBrand = "posbox"

// Exporter builds the DSFinV-K export of a restaurant's closings: a ZIP
// with the 20 CSV files, index.xml and the GDPdU DTD. main builds it and
// hands it to the server (server.DSFinVK).
type Exporter struct {
	St              *store.Store
	SoftwareVersion string // posbox's release (KASSE_SW_VERSION by default)
}

// dateTime is the export's one form of an instant: the restaurant's
// wall clock with its offset, to the second (RFC 3339), e.g.
// 2026-11-22T10:00:00+01:00.
const dateTime = "2006-01-02T15:04:05Z07:00"

// build holds the sheets and what every row needs.
type build struct {
	ctx    context.Context
	st     *store.Store
	loc    *time.Location
	sheets map[*table]*sheet
}

func (b *build) at(t time.Time) string { return t.In(b.loc).Format(dateTime) }

func (b *build) add(t *table, vals ...any) { b.sheets[t].row(vals...) }

// Export writes the ZIP of the closings f selects to w. The selection may
// be empty: the files then hold their header rows only.
func (x *Exporter) Export(ctx context.Context, r *store.Restaurant, f store.ClosingFilter, tss store.TSEInfo, w io.Writer) error {
	closings, err := x.St.TSEClosings(ctx, r.ID, f)
	if err != nil {
		return err
	}
	master, err := x.St.FiscalMasterData(ctx, r.ID)
	if err != nil {
		return err
	}
	b := &build{ctx: ctx, st: x.St, loc: r.Location(), sheets: map[*table]*sheet{}}
	for _, t := range tables {
		b.sheets[t] = newSheet(t)
	}
	for _, c := range closings {
		if err := x.closing(b, r, master, tss, c); err != nil {
			return err
		}
	}
	supplier := master.BusinessName
	if supplier == "" {
		supplier = r.Name
	}
	zw := zip.NewWriter(w)
	now := x.St.Now()
	put := func(name string, data []byte) error {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: now})
		if err != nil {
			return err
		}
		_, err = fw.Write(data)
		return err
	}
	comment := fmt.Sprintf("DSFinV-K %s, posbox %s, %d Kassenabschlüsse", TaxonomyVersion, x.SoftwareVersion, len(closings))
	if err := put("index.xml", indexXML(supplier, master.City, comment)); err != nil {
		return err
	}
	if err := put("gdpdu-01-09-2004.dtd", []byte(gdpduDTD)); err != nil {
		return err
	}
	for _, t := range tables {
		if err := put(t.file, b.sheets[t].buf.Bytes()); err != nil {
			return err
		}
	}
	return zw.Close()
}

// closing writes one closing: its sales (single-record module), its
// master data and its totals (closing module).
func (x *Exporter) closing(b *build, r *store.Restaurant, m *store.FiscalMasterData, tss store.TSEInfo, c *store.TSEClosing) error {
	sales, err := b.st.ClosingSales(b.ctx, c.ID)
	if err != nil {
		return err
	}
	k := []any{c.ClientSerial, b.at(c.CreatedAt), c.ZNr}
	row := func(t *table, vals ...any) { b.add(t, append(append([]any{}, k...), vals...)...) }
	for _, s := range sales {
		d := fiscal.SaleDetail(s)
		if err := x.sale(b, row, s, d, fiscal.SaleLines(d)); err != nil {
			return err
		}
	}
	x.masterData(row, r, m, tss, c)
	closingTotals(row, c, fiscal.ClosingBusinessCases(sales))
	return nil
}

// masterData writes the closing's master data module: the closing's
// head, the location, the register, the VAT table and the TSE.
func (x *Exporter) masterData(row func(*table, ...any), r *store.Restaurant, m *store.FiscalMasterData, tss store.TSEInfo, c *store.TSEClosing) {
	name, street, postcode, city, country := m.BusinessName, m.Street, m.Postcode, m.City, m.Country
	if name == "" {
		name = r.Name
	}
	// Both sums are in euro, foreign payments at their euro value; one
	// whose euro value posbox never learnt (before migration 00025) makes
	// the sum unknown, written empty rather than short (docs/FISCAL.md).
	row(&tCashPointClosing, c.BusinessDate, TaxonomyVersion, c.FirstTxID, c.LastTxID, name, street, postcode, city, country,
		m.TaxNumber, m.VATID, euro(c.PaidEUR()), euro(c.CashEUR()))
	locName, locStreet, locPostcode, locCity, locCountry := m.LocationName, m.LocationStreet, m.LocationPostcode, m.LocationCity, m.LocationCountry
	if locName == "" && locStreet == "" && locCity == "" {
		locName, locStreet, locPostcode, locCity, locCountry = name, street, postcode, city, country
	}
	row(&tLocation, locName, locStreet, locPostcode, locCity, locCountry, m.VATID)
	reg := registerOf(m, c.ClientSerial)
	swBrand, swVersion := reg.SoftwareBrand, reg.SoftwareVersion
	if swBrand == "" {
		swBrand = SoftwareBrand
	}
	if swVersion == "" {
		swVersion = x.SoftwareVersion
	}
	row(&tCashRegister, reg.Brand, reg.Model, c.ClientSerial, swBrand, swVersion, "EUR", "0")
	for _, v := range vatTable {
		row(&tVAT, v.key, v.bp, v.desc)
	}
	// TSE_ZERTIFIKAT_I holds 1000 characters; the rest goes to _II.
	cert := tss.Certificate
	certI, certII := cert, ""
	if len(cert) > 1000 {
		certI, certII = cert[:1000], cert[1000:]
	}
	row(&tTSE, 1, tss.SerialNumber, tse.SignatureAlgorithm, "unixTime", "UTF-8", tss.PublicKey, certI, certII)
}

// closingTotals writes the closing module: the business cases (in
// fiscal.ClosingBusinessCases's order: Umsatz first, then by name and VAT key),
// the EUR payments and the cash per currency.
func closingTotals(row func(*table, ...any), c *store.TSEClosing, cases []fiscal.BusinessCase) {
	for _, bc := range cases {
		key := vatKeys[bc.VATRate]
		gross := c5(bc.GrossCents)
		net, vat := netOf(gross, rateBP(key))
		row(&tBusinessCases, bc.Type, "", blank{}, key, gross, net, vat)
	}
	// payment.csv: one row per payment type, in euro (Z_ZAHLART_BETRAG is
	// "Betrag in der Basiswährung"), every currency at its euro value.
	var types []string
	for _, p := range c.Payments {
		if !slices.Contains(types, p.PaymentType) {
			types = append(types, p.PaymentType)
		}
	}
	for _, typ := range types {
		row(&tPayment, zahlart(typ), "", euro(c.EURSum(typ)))
	}
	// cash_per_currency.csv: the cash in each currency, in that currency
	// (the till's cash count per currency).
	cash := map[string]int64{}
	var cashOrder []string
	for _, p := range c.Payments {
		if p.PaymentType == "CASH" {
			if _, ok := cash[p.CurrencyCode]; !ok {
				cashOrder = append(cashOrder, p.CurrencyCode)
			}
			cash[p.CurrencyCode] += p.Cents
		}
	}
	if len(cashOrder) == 0 {
		cashOrder, cash["EUR"] = []string{"EUR"}, 0
	}
	for _, cur := range cashOrder {
		row(&tCashPerCurrency, cur, cash[cur])
	}
}

// sale writes one sale's single records.
func (x *Exporter) sale(b *build, row func(*table, ...any), s *store.ClosedSale, d *store.TSESaleDetail, lines []store.TSESaleLine) error {
	bonTyp := tse.BonTyp(s.ReceiptType)
	if s.State == "CANCELLED" {
		bonTyp = tse.BonTyp("ABORT") // AVBelegabbruch: the TSE transaction was cancelled
	}
	// A storno is a receipt that reverses one (fiscal.IsStorno).
	isStorno := fiscal.IsStorno(s)
	storno := "0"
	if isStorno {
		storno = "1"
	}
	at := b.at(s.BusinessTime)
	row(&tTransactions, s.TxID, s.ReceiptNo, bonTyp, "", s.ClientSerial, storno, at, at, d.OperatorID, d.OperatorName,
		s.TotalCents, "", "", "", "", "", "", "", "", "")
	for _, v := range d.VAT {
		key := vatKeys[v.VATRate]
		net, vat := netOf(c5(v.Cents), rateBP(key))
		row(&tTransactionsVAT, s.TxID, key, c5(v.Cents), net, vat)
	}
	if d.AllocationGroup != "" {
		row(&tAllocationGroups, s.TxID, d.AllocationGroup)
	}
	inHouse := "0"
	if d.AllocationGroup != "" {
		inHouse = "1"
	}
	for _, l := range lines {
		pos := strconv.Itoa(l.LineNo)
		key := vatKeys[l.VATRate]
		row(&tLines, s.TxID, pos, "", l.Text, s.ClientSerial, l.BusinessCase, l.DiscountID, inHouse, "0", blank{}, l.ItemNumber,
			"", "", "", l.QuantityMilli, blank{}, "", c5(l.UnitPriceCents))
		net, vat := netOf(c5(l.TotalCents), rateBP(key))
		row(&tLinesVAT, s.TxID, pos, key, c5(l.TotalCents), net, vat)
	}
	salePayments(row, s.TxID, d.Payments)
	if isStorno {
		if err := x.reference(b, row, s, d); err != nil {
			return err
		}
	}
	x.tseRow(b, row, s)
	return nil
}

// salePayments writes a sale's datapayment.csv rows: one per payment
// type and currency. EUR is named too: ZAHLWAEH_CODE is the payment's
// currency, ZAHLWAEH_BETRAG the amount in a foreign one only, and
// BASISWAEH_BETRAG always the euro value (empty for a foreign payment
// recorded before posbox knew it, migration 00025).
func salePayments(row func(*table, ...any), txID string, payments []store.TSESalePayment) {
	type payKey struct{ typ, cur string }
	type sum struct {
		cents, eur int64
		known      bool
	}
	paid := map[payKey]*sum{}
	var payOrder []payKey
	for _, p := range payments {
		pk := payKey{p.PaymentType, p.CurrencyCode}
		if paid[pk] == nil {
			payOrder = append(payOrder, pk)
			paid[pk] = &sum{known: true}
		}
		eur, ok := p.EUR()
		paid[pk].cents += p.Cents
		paid[pk].eur += eur
		paid[pk].known = paid[pk].known && ok
	}
	for _, pk := range payOrder {
		p := paid[pk]
		base := euro(p.eur, p.known)
		if pk.cur == "EUR" {
			row(&tDataPayment, txID, zahlart(pk.typ), "", "EUR", blank{}, base)
		} else {
			row(&tDataPayment, txID, zahlart(pk.typ), "", pk.cur, p.cents, base)
		}
	}
}

// euro is a euro amount's cell: empty when the amount is not known.
func euro(cents int64, known bool) any {
	if !known {
		return blank{}
	}
	return cents
}

// reference links a storno to the sale it reverses and the closing that
// covers it: REF_DATUM is that closing's Z_ERSTELLUNG (DSFinV-K 2.4). A
// sale no closing covers yet (another register's, not closed) has no
// closing to name: REF_DATUM and REF_Z_NR stay empty, its register and id
// still find it, and an export after its closing fills both.
func (x *Exporter) reference(b *build, row func(*table, ...any), s *store.ClosedSale, d *store.TSESaleDetail) error {
	orig, err := b.st.TSETransaction(b.ctx, s.RestaurantID, d.CancelsTxID)
	if err != nil {
		return err
	}
	var refZ any = blank{}
	refKasse, refDatum := orig.ClientSerial, ""
	ref, err := b.st.ClosingRef(b.ctx, s.RestaurantID, orig.TxID)
	switch {
	case err == nil:
		refZ, refKasse, refDatum = ref.ZNr, ref.ClientSerial, b.at(ref.CreatedAt)
	case !store.IsNotFound(err):
		return err
	}
	row(&tReferences, s.TxID, "", "Transaktion", "Storno", refDatum, refKasse, refZ, orig.TxID)
	return nil
}

// tseRow writes the sale's TSE transaction, or its failure: a sale whose
// receipt went out without TSE data names the outage in TSE_TA_FEHLER,
// also once it was signed late (its TSE data then follow).
func (x *Exporter) tseRow(b *build, row func(*table, ...any), s *store.ClosedSale) {
	fault := ""
	outage := s.OutageCode
	if s.OutageReason != "" {
		outage += ": " + s.OutageReason
	}
	signed := s.Number != nil && s.SignatureValue != "" && s.TimeEnd != nil
	switch {
	case s.ReceiptWithoutTSE && signed:
		fault = "TSE-Ausfall (" + outage + "); Beleg ohne TSE-Daten ausgegeben, nachträglich signiert"
	case s.ReceiptWithoutTSE:
		fault = "TSE-Ausfall (" + outage + "); Beleg ohne TSE-Daten ausgegeben, nicht signiert"
	case !signed:
		fault = "Noch nicht von der TSE signiert (in der Warteschlange)"
	}
	if !signed {
		row(&tTransactionsTSE, s.TxID, 1, blank{}, "", "", "", blank{}, "", fault, "")
		return
	}
	processType, processData := qrProcess(s.QRCodeData)
	var start, end string
	if s.TimeStart != nil {
		start = b.at(*s.TimeStart)
	}
	if s.TimeEnd != nil {
		end = b.at(*s.TimeEnd)
	}
	var counter any = blank{}
	if s.SignatureCounter != nil {
		counter = *s.SignatureCounter
	}
	row(&tTransactionsTSE, s.TxID, 1, *s.Number, start, end, processType, counter, s.SignatureValue, fault, processData)
}

// qrProcess reads processType and processData from a QR code string
// (DSFinV-K Annex I: V0;serial;processType;processData;number;counter;
// start;end;algorithm;time format;signature;public key). processData may
// itself hold ";" (an order's lines), so it is everything between the
// third field and the last eight.
func qrProcess(qr string) (processType, processData string) {
	f := strings.Split(qr, ";")
	if len(f) < 12 {
		return "", ""
	}
	return f[2], strings.Join(f[3:len(f)-8], ";")
}

// zahlart is the DSFinV-K ZAHLART_TYP of fiskaly's payment type.
func zahlart(paymentType string) string {
	if paymentType == "CASH" {
		return "Bar"
	}
	return "Unbar"
}

func registerOf(m *store.FiscalMasterData, serial string) store.FiscalRegister {
	for _, r := range m.Registers {
		if r.ClientSerial == serial {
			return r
		}
	}
	return store.FiscalRegister{ClientSerial: serial}
}
