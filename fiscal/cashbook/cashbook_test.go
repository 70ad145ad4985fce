package cashbook

import (
	"testing"

	"posbox/store"
)

// Every bookable kind names a DSFinV-K business case and a direction;
// staff may book exactly the float and tip payouts.
func TestKinds(t *testing.T) {
	var staff []string
	for _, k := range Kinds {
		if k.BusinessCase == "" || k.Label == "" {
			t.Errorf("%s has no business case or label", k.Name)
		}
		if k.StaffMay {
			staff = append(staff, k.Name)
		}
	}
	if len(staff) != 2 || staff[0] != "opening_float" || staff[1] != "tip_payout" {
		t.Fatalf("staff may book %v", staff)
	}
	for _, name := range Bookable() {
		if name == "difference" {
			t.Fatal("a difference is bookable by hand")
		}
	}
}

// A booking's fields are checked together: kind, amount, reason and
// voucher as each kind needs them.
func TestBookingValidate(t *testing.T) {
	cases := []struct {
		b     Booking
		field []string
	}{
		{Booking{ClientSerial: "K1", Kind: "opening_float", Cents: 100}, nil},
		{Booking{ClientSerial: "K1", Kind: "expense", Cents: 100, Reason: "Zitronen"}, []string{"voucher_no"}},
		{Booking{ClientSerial: "K1", Kind: "wage", Cents: 100}, []string{"reason"}},
		{Booking{ClientSerial: "K1", Kind: "difference", Cents: 100}, []string{"kind"}},
		{Booking{ClientSerial: " K1", Kind: "deposit", Cents: 0}, []string{"client_serial", "amount"}},
		{Booking{ClientSerial: "K1", Kind: "deposit", Cents: 5, Reason: "a\nb"}, []string{"reason"}},
	}
	for _, c := range cases {
		_, err := c.b.Validate()
		var got []string
		if e, ok := err.(*store.Error); ok {
			for _, f := range e.Fields {
				got = append(got, f.Field)
			}
		}
		if len(got) != len(c.field) {
			t.Errorf("%+v: fields %v, want %v", c.b, got, c.field)
			continue
		}
		for i := range got {
			if got[i] != c.field[i] {
				t.Errorf("%+v: fields %v, want %v", c.b, got, c.field)
			}
		}
	}
}

// A count is one sum or denominations, never both; the denominations add
// up to the cent and only euro notes and coins count.
func TestCountingTotal(t *testing.T) {
	sum, pieces, err := Counting{ClientSerial: "K1", Pieces: map[int64]int64{5000: 2, 1: 3, 200: 0}}.total()
	if err != nil || sum != 10003 || len(pieces) != 2 {
		t.Fatalf("sum %d pieces %v err %v", sum, pieces, err)
	}
	ten := int64(1000)
	for _, c := range []Counting{
		{ClientSerial: "K1"},
		{ClientSerial: "K1", Counted: &ten, Pieces: map[int64]int64{100: 1}},
		{ClientSerial: "K1", Pieces: map[int64]int64{300: 1}},
		{ClientSerial: "K1", Pieces: map[int64]int64{100: -1}},
	} {
		if _, _, err := c.total(); store.ErrorCode(err) != store.EValidation {
			t.Errorf("%+v: %v, want validation_failed", c, err)
		}
	}
}
