package cashbook

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"posbox/fiscal"
	"posbox/store"
)

// Seller records and signs a sale (fiscal/queue's Queue).
type Seller interface {
	Sell(ctx context.Context, restaurantID string, s fiscal.Sale, idemKey string) (*store.TSETransaction, error)
}

// Desk books a restaurant's cash movements and counts.
type Desk struct {
	St     *store.Store
	Seller Seller
}

// Who is the user booking.
type Who struct {
	ID, Name string
}

// Booking is a movement to book: Cents is its size (> 0), the sign is
// the kind's.
type Booking struct {
	ClientSerial string
	Kind         string
	Cents        int64
	Reason       string
	VoucherNo    string
	By           Who
	// For is whose float or tip payout it is when not By's (a waiter the
	// admin hands the float to); the zero Who for By.
	For     Who
	IdemKey string // the request's Idempotency-Key, "" for none
}

// Validate checks a booking's members as field errors; the kind's rule
// for who may book it is the caller's (Kind.StaffMay).
func (b Booking) Validate() (Kind, error) {
	var f store.Fields
	checkSerial(&f, b.ClientSerial)
	k, ok := KindOf(b.Kind)
	if !ok || k.Sign == 0 {
		f.Add("kind", store.FOneOf, "must be one of "+strings.Join(Bookable(), ", "), "values", Bookable())
	}
	if b.Cents <= 0 {
		f.Add("amount", store.FNotPositive, "must be greater than 0 (the kind says which way the cash moves)")
	}
	text(&f, "reason", b.Reason, 200, ok && k.NeedsReason)
	text(&f, "voucher_no", b.VoucherNo, 50, ok && k.NeedsVoucher)
	if b.For.ID != "" && ok && !k.ForPerson {
		f.Add("for_user_id", store.FNotAllowed, "is given only for an opening_float or a tip_payout")
	}
	return k, f.Err()
}

// checkSerial holds a movement's register to a sale's rule: its receipt
// is signed for that client serial.
func checkSerial(f *store.Fields, serial string) {
	if !fiscal.ValidClientSerial(serial) {
		f.Add("client_serial", store.FBadFormat, "must be the register's serial: 1-70 characters of A-Z a-z 0-9 space ' ( ) + , - . : = ? (no / or _), without leading or trailing spaces")
	}
}

func text(f *store.Fields, field, s string, max int, required bool) {
	switch {
	case required && strings.TrimSpace(s) == "":
		f.Add(field, store.FRequired, "is required")
	case utf8.RuneCountInString(s) > max:
		f.Add(field, store.FTooLong, "must have at most "+strconv.Itoa(max)+" characters", "max", max)
	case strings.TrimSpace(s) != s || strings.ContainsAny(s, "\r\n\t"):
		f.Add(field, store.FBadFormat, "must not begin or end with spaces or hold line breaks")
	}
}

// Book books a movement as a signed receipt; the answer is its
// transaction (signed, or its receipt went out without TSE data, as a
// sale's) and the movement.
func (d *Desk) Book(ctx context.Context, restaurantID string, b Booking) (*store.TSETransaction, *store.CashMovement, error) {
	k, err := b.Validate()
	if err != nil {
		return nil, nil, err
	}
	cents := k.Sign * b.Cents
	m := &store.NewCashMovement{Kind: k.Name, Cents: cents, Reason: b.Reason, VoucherNo: b.VoucherNo, BookedBy: b.By.ID, BookedByName: b.By.Name}
	label := k.Label
	if b.For.ID != "" && b.For.ID != b.By.ID {
		// The receipt names whom the cash went to; the name is also in
		// the idempotency hash, so a retry for another waiter is refused.
		m.ForUser, label = b.For.ID, label+" für "+b.For.Name
	}
	sale := movementSale(b.ClientSerial, k, cents, lineText(label, b.Reason, b.VoucherNo), b.By)
	sale.CashMovement = m
	return d.sell(ctx, restaurantID, sale, b.IdemKey)
}

// Reverse books the counter-entry of a movement: the same kind for the
// opposite amount, a storno of its receipt. A count's difference is not
// reversed: a wrong count is corrected by counting again.
func (d *Desk) Reverse(ctx context.Context, restaurantID, txID, reason string, by Who, idemKey string) (*store.TSETransaction, *store.CashMovement, error) {
	var f store.Fields
	text(&f, "reason", reason, 200, true)
	if err := f.Err(); err != nil {
		return nil, nil, err
	}
	orig, err := d.St.CashMovementOf(ctx, restaurantID, txID)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case orig.ReversesTxID != "":
		return nil, nil, store.Errorf(store.EConflict, "this movement is itself a counter-entry; book the movement again instead")
	case orig.CountID != "":
		return nil, nil, store.Errorf(store.EConflict, "a count's difference is not reversed: count the drawer again")
	case orig.ReversedBy != "" && idemKey == "":
		// With a key, a retry of the reversal that went through gets its
		// first answer (the queue's replay); a second reversal is still
		// refused by the store.
		return nil, nil, store.Errorf(store.EAlreadyCancelled, "this movement has already been reversed; a movement is reversed once")
	}
	k, _ := KindOf(orig.Kind)
	sale := movementSale(orig.ClientSerial, k, -orig.Cents, lineText("Storno "+k.Label+" Nr. "+strconv.FormatInt(orig.No, 10), reason, ""), by)
	sale.Cancels = orig.TxID
	sale.CashMovement = &store.NewCashMovement{Kind: k.Name, Cents: -orig.Cents, Reason: reason, ReversesTxID: orig.TxID,
		BookedBy: by.ID, BookedByName: by.Name}
	if k.ForPerson {
		// The counter-entry is the original's person's, whoever books it,
		// so their settlement nets the two.
		sale.CashMovement.ForUser = orig.ForUser
		if orig.ForUser == "" {
			sale.CashMovement.ForUser = orig.BookedBy
		}
	}
	return d.sell(ctx, restaurantID, sale, idemKey)
}

func (d *Desk) sell(ctx context.Context, restaurantID string, sale fiscal.Sale, idemKey string) (*store.TSETransaction, *store.CashMovement, error) {
	t, err := d.Seller.Sell(ctx, restaurantID, sale, idemKey)
	if err != nil {
		return nil, nil, err
	}
	m, err := d.St.CashMovementOf(ctx, restaurantID, t.TxID)
	if err != nil {
		return nil, nil, err
	}
	return t, m, nil
}

// movementSale is a movement's receipt: one line of its business case,
// not taxable (VAT rate NULL, DSFinV-K UST_SCHLUESSEL 5), paid in euro
// cash, signed; its operator is who booked it.
func movementSale(serial string, k Kind, cents int64, text string, by Who) fiscal.Sale {
	return fiscal.Sale{
		ClientSerial: serial, Kind: fiscal.KindReceipt, ReceiptType: "RECEIPT",
		VAT:        []fiscal.VATAmount{{VATRate: "NULL", Cents: cents}},
		Payments:   []fiscal.Payment{{PaymentType: "CASH", Cents: cents, EURCents: cents}},
		TotalCents: cents, BusinessCase: k.BusinessCase,
		Lines: []fiscal.Line{{Text: text, QuantityMilli: 1000, UnitPriceCents: cents, TotalCents: cents, VATRate: "NULL",
			BusinessCase: k.BusinessCase}},
		OperatorID: by.ID, OperatorName: by.Name,
	}
}

// lineText is the receipt line: the kind, the reason, the voucher.
func lineText(label, reason, voucher string) string {
	s := label
	if reason != "" {
		s += ": " + reason
	}
	if voucher != "" {
		s += " (Beleg " + voucher + ")"
	}
	if r := []rune(s); len(r) > 255 {
		s = string(r[:255])
	}
	return s
}
