package seed

import (
	"context"
	"slices"
	"time"

	"posbox/fiscal"
	"posbox/store"
	"posbox/tse"
)

// A day's business: 300 sales between 11:00 and 23:00 at three tills, a
// few of them orders taken at a table (signed as Bestellung-V1) and a
// few receipts reversed by a storno a little later.
const (
	salesPerDay       = 300
	ordersPerHundred  = 4
	stornosPerHundred = 2
	cashPerHundred    = 55
)

type till struct{ serial, clientID string }

type menuItem struct {
	text, number string
	cents        int64
	vat          string
}

// menu: eating in and drinks at 19 %, food to take away at 7 %.
var menu = []menuItem{
	{"Wiener Schnitzel", "101", 1690, "NORMAL"}, {"Currywurst mit Pommes", "102", 850, "NORMAL"},
	{"Salat der Saison", "103", 1120, "NORMAL"}, {"Spaghetti Carbonara", "104", 1350, "NORMAL"},
	{"Burger Classic", "105", 1490, "NORMAL"}, {"Tagessuppe", "106", 650, "NORMAL"}, {"Apfelstrudel", "107", 690, "NORMAL"},
	{"Pils 0,5 l", "201", 480, "NORMAL"}, {"Riesling 0,2 l", "202", 620, "NORMAL"}, {"Cola 0,33 l", "203", 340, "NORMAL"},
	{"Wasser 0,5 l", "204", 290, "NORMAL"}, {"Kaffee", "205", 280, "NORMAL"},
	{"Currywurst (außer Haus)", "301", 850, "REDUCED_1"}, {"Pizza Margherita (außer Haus)", "302", 1100, "REDUCED_1"},
}

// sale is one sale of a day before it is signed.
type sale struct {
	s    fiscal.Sale
	at   time.Time
	till *till
	txID string
}

// daySales makes the day's sales in the order the tills sent them;
// today's only up to the present.
func (g *gen) daySales(day time.Time, today bool) []*sale {
	open := g.at(day, 11, 0)
	var out []*sale
	rnd := g.prod
	for range salesPerDay {
		at := open.Add(time.Duration(rnd.IntN(12*3600)) * time.Second).Add(time.Duration(rnd.IntN(1000)) * time.Millisecond)
		if today && !at.Before(g.o.Now) {
			continue
		}
		s := g.newSale(at, rnd.IntN(100) < ordersPerHundred)
		out = append(out, s)
		if s.s.Kind == fiscal.KindReceipt && rnd.IntN(100) < stornosPerHundred {
			at := at.Add(time.Duration(5+rnd.IntN(25)) * time.Minute)
			if !today || at.Before(g.o.Now) {
				out = append(out, storno(s, at))
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *sale) int { return a.at.Compare(b.at) })
	return out
}

// newSale is a receipt (or an order) of one to six lines; who sold it
// is chosen when it is written (writeDay), among who works there then.
func (g *gen) newSale(at time.Time, order bool) *sale {
	rnd := g.prod
	t := &g.tills[rnd.IntN(len(g.tills))]
	s := fiscal.Sale{ClientSerial: t.serial, Kind: fiscal.KindReceipt, ReceiptType: "RECEIPT"}
	if order {
		s.Kind, s.ReceiptType = fiscal.KindOrder, "ORDER"
		s.AllocationGroup = "Tisch " + string(rune('1'+rnd.IntN(9)))
	}
	for range 1 + rnd.IntN(6) {
		m := menu[rnd.IntN(len(menu))]
		q := int64(1+rnd.IntN(3)) * 1000
		total, _ := fiscal.LineTotal(q, m.cents)
		s.Lines = append(s.Lines, fiscal.Line{Text: m.text, QuantityMilli: q, UnitPriceCents: m.cents, TotalCents: total,
			VATRate: m.vat, ItemNumber: m.number, BusinessCase: "Umsatz"})
	}
	s.VAT = vatOf(s.Lines)
	for _, v := range s.VAT {
		s.TotalCents += v.Cents
	}
	if !order {
		p := "NON_CASH"
		if rnd.IntN(100) < cashPerHundred {
			p = "CASH"
		}
		s.Payments = []fiscal.Payment{{PaymentType: p, Cents: s.TotalCents}}
	}
	return &sale{s: s, at: at, till: t, txID: tse.NewUUID4()}
}

// storno reverses a receipt: every line, amount and payment negated.
func storno(orig *sale, at time.Time) *sale {
	s := orig.s
	s.Cancels, s.Lines, s.VAT, s.Payments = orig.txID, nil, nil, nil
	for _, l := range orig.s.Lines {
		l.QuantityMilli, l.TotalCents = -l.QuantityMilli, -l.TotalCents
		s.Lines = append(s.Lines, l)
	}
	for _, v := range orig.s.VAT {
		s.VAT = append(s.VAT, fiscal.VATAmount{VATRate: v.VATRate, Cents: -v.Cents})
	}
	for _, p := range orig.s.Payments {
		p.Cents = -p.Cents
		s.Payments = append(s.Payments, p)
	}
	s.TotalCents = -s.TotalCents
	return &sale{s: s, at: at, till: orig.till, txID: tse.NewUUID4()}
}

// vatOf sums lines per VAT rate, in fiscal.VATRates' order.
func vatOf(lines []fiscal.Line) []fiscal.VATAmount {
	var out []fiscal.VATAmount
	for _, rate := range fiscal.VATRates {
		var sum int64
		found := false
		for _, l := range lines {
			if l.VATRate == rate {
				sum, found = sum+l.TotalCents, true
			}
		}
		if found {
			out = append(out, fiscal.VATAmount{VATRate: rate, Cents: sum})
		}
	}
	return out
}

// fiscalDay is a day's sales, signed, and its closings: made ahead
// (prepareDay) while the day before is written.
type fiscalDay struct {
	day       time.Time
	today     bool
	list      []*sale
	signed    []store.SeedSale
	archiveAt time.Time // when its night's archive runs
	tar       *nightTAR // a history day's export for its night; nil: the night is still to come
	closings  []store.SeedClosing
}

// prepareDay makes and signs the day's sales and, for a day that is
// over, the automatic closing of each till at midnight and its night's
// export.
func (g *gen) prepareDay(ctx context.Context, day time.Time, today bool) (*fiscalDay, error) {
	fd := &fiscalDay{day: day, today: today, list: g.daySales(day, today), archiveAt: g.at(day.AddDate(0, 0, 1), archiveHour, 0)}
	signed, revs, err := g.sign(ctx, fd.list, today)
	if err != nil {
		return nil, err
	}
	fd.signed = signed
	if !today {
		fd.closings = g.closings(day, fd.list)
	}
	if !today && fd.archiveAt.Before(g.o.Now) {
		fd.tar, err = g.archiver.makeTAR(revs)
	}
	return fd, err
}

// writeDay stores a prepared day's sales, each sold by someone working
// there that day, and its closings: a week of history in one transaction
// (flushFiscal), the last reportDays days and today each at once, as the
// daily report reads them.
func (g *gen) writeDay(ctx context.Context, fd *fiscalDay) error {
	for i := range fd.signed {
		op := g.staff[g.rnd.IntN(len(g.staff))]
		fd.signed[i].Detail.OperatorID, fd.signed[i].Detail.OperatorName = op.ID, op.Name
		switch s := fd.list[i]; {
		case s.s.Kind == fiscal.KindOrder:
			g.res.Orders++
		case s.s.Cancels != "":
			g.res.Stornos++
		default:
			g.res.Receipts++
		}
	}
	g.res.Closings += len(fd.closings)
	g.pending.sales = append(g.pending.sales, fd.signed...)
	g.pending.closings = append(g.pending.closings, fd.closings...)
	if g.pending.days++; g.pending.days < fiscalBatchDays && fd.day.Before(g.today.AddDate(0, 0, -reportDays-1)) {
		return nil
	}
	return g.flushFiscal(ctx)
}

// fiscalBatchDays of history go in one transaction: random transaction
// ids touch a leaf of every index per sale, so a day's commit writes
// thousands of pages to the WAL (and later to the file), and a week's
// hardly more.
const fiscalBatchDays = 7

// pendingFiscal are the days written but not yet stored.
type pendingFiscal struct {
	sales    []store.SeedSale
	closings []store.SeedClosing
	days     int
}

// flushFiscal stores the pending days.
func (g *gen) flushFiscal(ctx context.Context) error {
	if g.pending.days == 0 {
		return nil
	}
	err := g.st.SeedFiscalDay(ctx, g.pending.sales, g.pending.closings)
	g.pending = pendingFiscal{}
	return err
}

// closings are the automatic closings of a day, one per till that sold.
func (g *gen) closings(day time.Time, list []*sale) []store.SeedClosing {
	midnight := g.at(day.AddDate(0, 0, 1), 0, 0)
	var out []store.SeedClosing
	for i := range g.tills {
		t := &g.tills[i]
		c := store.SeedClosing{ClientSerial: t.serial, BusinessDate: day.Format(store.DateFormat), Until: midnight, At: midnight.Add(time.Minute)}
		vat, pay := map[string]int64{}, map[string]int64{}
		for _, s := range list {
			if s.till != t {
				continue
			}
			c.TxIDs = append(c.TxIDs, s.txID)
			if s.s.Kind != fiscal.KindReceipt {
				continue
			}
			for _, v := range s.s.VAT {
				vat[v.VATRate] += v.Cents
				c.TotalCents += v.Cents
			}
			for _, p := range s.s.Payments {
				pay[p.PaymentType] += p.Cents
				if p.PaymentType == "CASH" {
					c.CashCents += p.Cents
				}
			}
		}
		if len(c.TxIDs) == 0 {
			continue
		}
		for _, rate := range fiscal.VATRates {
			if v, ok := vat[rate]; ok {
				c.VAT = append(c.VAT, store.TSESaleVAT{VATRate: rate, Cents: v})
			}
		}
		for _, p := range []string{"CASH", "NON_CASH"} {
			if v, ok := pay[p]; ok {
				c.Payments = append(c.Payments, store.TSESalePayment{PaymentType: p, CurrencyCode: "EUR", Cents: v})
			}
		}
		out = append(out, c)
	}
	return out
}
