package datev

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"posbox/store"
)

// Error codes of the export (docs/API.md).
const (
	// ENumbersMissing: the consultant's or the client's number is not set.
	ENumbersMissing = "datev_numbers_missing"
	// EAccountMissing: a closing has an amount whose account is empty.
	EAccountMissing = "datev_account_missing"
	// EEuroUnknown: a closing has a foreign payment without its euro value.
	EEuroUnknown = "datev_euro_unknown"
)

// Closing is one closing with the lines of the sales it counts.
type Closing struct {
	*store.TSEClosing
	Lines []store.TSESaleLine // every counted sale's lines
}

// Booking is one line of the batch (the Buchungsstapel's first fields).
type Booking struct {
	Cents      int64  // positive
	Side       string // S or H, of Account
	Account    string // Konto
	Contra     string // Gegenkonto
	Date       string // business date YYYY-MM-DD
	Voucher    string // Belegfeld 1
	Text       string // Buchungstext
	accountKey string
}

// Bookings is the closing's bookings (docs/FISCAL.md, "The DATEV batch"):
// the revenue per VAT rate, the employees' tips and the multi-purpose
// vouchers into the transit account, then the takings in cash and the
// non-cash payments out of it; then each cash movement, cash against its
// account. An amount of zero books nothing; a negative one (more stornos
// than sales, money out of the till) books the other side.
func Bookings(c Closing, accounts map[string]string) ([]Booking, error) {
	revenue := map[string]int64{}
	var tips, vouchers, moved int64
	var movements []store.TSESaleLine
	for _, l := range c.Lines {
		switch {
		case isMovement(l):
			// Paid in cash by its single payment, so inside CashEUR.
			movements = append(movements, l)
			moved += l.TotalCents
		case l.BusinessCase == "TrinkgeldAN":
			tips += l.TotalCents
		case strings.HasPrefix(l.BusinessCase, "Mehrzweckgutschein"):
			vouchers += l.TotalCents
		default:
			revenue[l.VATRate] += l.TotalCents
		}
	}
	cash, ok := c.CashEUR()
	nonCash, ok2 := c.EURSum("NON_CASH")
	if !ok || !ok2 {
		return nil, store.Errorf(EEuroUnknown, "closing Z %d of register %s has a foreign payment without its euro value", c.ZNr, c.ClientSerial)
	}
	voucher := voucherField(c.ClientSerial, c.ZNr)
	where := fmt.Sprintf("Z %d Kasse %s", c.ZNr, c.ClientSerial)
	var out []Booking
	add := func(cents int64, acc, contra, text string) {
		if cents == 0 {
			return
		}
		side := "S"
		if cents < 0 {
			side, cents = "H", -cents
		}
		out = append(out, Booking{Cents: cents, Side: side, Account: accounts[acc], Contra: accounts[contra], Date: c.BusinessDate,
			Voucher: voucher, Text: cut(text+", "+where, 60), accountKey: contra})
	}
	for _, rate := range []string{"NORMAL", "REDUCED_1", "SPECIAL_RATE_1", "SPECIAL_RATE_2", "NULL"} {
		add(revenue[rate], "transit", revenueKey[rate], Label(revenueKey[rate]))
	}
	add(tips, "transit", "tips", "Trinkgeld Personal")
	add(vouchers, "transit", "vouchers", "Mehrzweckgutscheine")
	add(cash-moved, "cash", "transit", "Bareinnahmen")
	add(nonCash, "non_cash", "transit", "Unbare Zahlungen")
	for _, l := range movements {
		add(l.TotalCents, "cash", movementKey[l.BusinessCase], movementText(l))
	}
	for _, b := range out {
		if b.Contra == "" {
			return nil, store.Errorf(EAccountMissing, "closing Z %d of register %s books %q, which has no account: set it in the DATEV settings",
				c.ZNr, c.ClientSerial, Label(b.accountKey))
		}
	}
	return out, nil
}

// voucherField is Belegfeld 1 (12 characters): the register and the Z
// number, the register's serial shortened from the left when too long.
func voucherField(serial string, z int64) string {
	tail := "-Z" + strconv.FormatInt(z, 10)
	r := []rune(serial)
	if keep := 12 - len(tail); len(r) > keep {
		r = r[len(r)-max(keep, 0):]
	}
	return string(r) + tail
}

func cut(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}

// Batch is one month's booking batch.
type Batch struct {
	Settings  Settings
	From, To  string // YYYY-MM-DD, the month's first and last day
	CreatedAt time.Time
	Closings  []Closing
}

// FileName is the batch's file name, as DATEV's import expects a
// Buchungsstapel's to begin.
func (b Batch) FileName() string {
	return "EXTF_Buchungsstapel_" + strings.ReplaceAll(b.From, "-", "") + "_" + strings.ReplaceAll(b.To, "-", "") + ".csv"
}

// File is the batch as DATEV imports it: Windows-1252, CRLF, the EXTF
// header, the column names, one line per booking (docs/FISCAL.md).
func (b Batch) File() ([]byte, error) {
	s := b.Settings
	if s.Consultant == 0 || s.Client == 0 {
		return nil, store.Errorf(ENumbersMissing, "set the adviser's consultant number and the client number in the DATEV settings first")
	}
	closings := slices.Clone(b.Closings)
	slices.SortStableFunc(closings, func(p, q Closing) int {
		if c := strings.Compare(p.BusinessDate, q.BusinessDate); c != 0 {
			return c
		}
		if c := strings.Compare(p.ClientSerial, q.ClientSerial); c != 0 {
			return c
		}
		return int(p.ZNr - q.ZNr)
	})
	var w csvWriter
	w.row(header(b))
	w.row(columnNames())
	for _, c := range closings {
		bs, err := Bookings(c, s.Accounts)
		if err != nil {
			return nil, err
		}
		for _, bk := range bs {
			w.row(bookingRow(bk))
		}
	}
	return w.windows1252()
}

// ClosingOf is a closing with the lines of the sales it counts (those
// store.ClosingCountedTypes names, not cancelled); a sale recorded
// without lines counts its VAT totals under its business case.
func ClosingOf(c *store.TSEClosing, sales []*store.ClosedSale) Closing {
	out := Closing{TSEClosing: c}
	for _, s := range sales {
		d := s.Detail
		if d == nil || d.Kind != store.SaleKindReceipt || !slices.Contains(store.ClosingCountedTypes, s.ReceiptType) || s.State == "CANCELLED" {
			continue
		}
		if len(d.Lines) > 0 {
			out.Lines = append(out.Lines, d.Lines...)
			continue
		}
		for _, v := range d.VAT {
			out.Lines = append(out.Lines, store.TSESaleLine{TotalCents: v.Cents, VATRate: v.VATRate, BusinessCase: d.BusinessCase})
		}
	}
	return out
}
