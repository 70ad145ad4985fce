package discount_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"posbox/discount"
	"posbox/fiscal"
	"posbox/store"
)

// The package repeats fiscal's rounding and rate names rather than
// import fiscal (docs/DESIGN.md, "Layers"); these hold them equal.
func TestVATRatesAreFiscals(t *testing.T) {
	if !slices.Equal(discount.VATRates, fiscal.VATRates) {
		t.Errorf("discount.VATRates = %v, fiscal.VATRates = %v", discount.VATRates, fiscal.VATRates)
	}
}

func TestLineTotalIsFiscals(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 19))
	pairs := [][2]int64{{0, 0}, {1, 1}, {500, 1}, {499, 1}, {1500, 333}, {-1, 1 << 62}, {-1, -1 << 62}, {-1, -1<<62 - 1},
		{discount.MaxQuantityMilli, discount.MaxUnitCents}, {1 << 32, 1 << 31}, {-2000, 395}}
	for range 5000 {
		pairs = append(pairs, [2]int64{r.Int64N(2*discount.MaxQuantityMilli) - discount.MaxQuantityMilli,
			r.Int64N(2*discount.MaxUnitCents) - discount.MaxUnitCents})
	}
	for _, p := range pairs {
		got, gotOK := discount.LineTotal(p[0], p[1])
		want, wantOK := fiscal.LineTotal(p[0], p[1])
		if got != want || gotOK != wantOK {
			t.Fatalf("LineTotal(%d, %d) = %d, %v; fiscal's is %d, %v", p[0], p[1], got, gotOK, want, wantOK)
		}
	}
}

func TestBasketValidate(t *testing.T) {
	const id = "019a8f5e-3c1d-7b2a-9e4f-6a5b4c3d2e1f"
	good := discount.Line{ItemID: id, CategoryID: id, QuantityMilli: 1000, UnitPriceCents: 390, VATRate: "NORMAL"}
	with := func(f func(*discount.Line)) discount.Basket {
		l := good
		f(&l)
		return discount.Basket{Lines: []discount.Line{good, l}}
	}
	for _, tc := range []struct {
		name   string
		basket discount.Basket
		fields []string // "field code"
	}{
		{"good", with(func(*discount.Line) {}), nil},
		{"no ids, price 0", with(func(l *discount.Line) { l.ItemID, l.CategoryID, l.UnitPriceCents = "", "", 0 }), nil},
		{"empty", discount.Basket{}, []string{"lines too_few"}},
		{"too many", discount.Basket{Lines: make([]discount.Line, discount.MaxLines+1)}, []string{"lines too_many"}},
		{"bad ids", with(func(l *discount.Line) { l.ItemID, l.CategoryID = "x", strings.ToUpper(id) }),
			[]string{"lines[1].item_id not_uuid", "lines[1].category_id not_uuid"}},
		{"quantity 0", with(func(l *discount.Line) { l.QuantityMilli = 0 }), []string{"lines[1].quantity not_positive"}},
		{"return", with(func(l *discount.Line) { l.QuantityMilli = -1000 }), []string{"lines[1].quantity not_positive"}},
		{"quantity too large", with(func(l *discount.Line) { l.QuantityMilli = discount.MaxQuantityMilli + 1 }),
			[]string{"lines[1].quantity too_large"}},
		{"negative price", with(func(l *discount.Line) { l.UnitPriceCents = -1 }), []string{"lines[1].unit_price too_small"}},
		{"price too large", with(func(l *discount.Line) { l.UnitPriceCents = discount.MaxUnitCents + 1 }),
			[]string{"lines[1].unit_price too_large"}},
		{"product too large", with(func(l *discount.Line) {
			l.QuantityMilli, l.UnitPriceCents = discount.MaxQuantityMilli, discount.MaxUnitCents
		}), []string{"lines[1] too_large"}},
		{"rate", with(func(l *discount.Line) { l.VATRate = "7" }), []string{"lines[1].vat_rate one_of"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.basket.Validate()
			var got []string
			if e, ok := err.(*store.Error); ok {
				for _, f := range e.Fields {
					got = append(got, f.Field+" "+f.Code.String())
				}
			} else if err != nil {
				t.Fatalf("Validate: %v is no store error", err)
			}
			if !slices.Equal(got, tc.fields) {
				t.Errorf("Validate = %v, want %v", got, tc.fields)
			}
		})
	}
}
