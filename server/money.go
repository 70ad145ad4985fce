package server

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"posbox/store"
)

// decimal2 is a JSON number kept as its literal, so no binary float ever
// touches money. cents turns it into an exact integer.
type decimal2 string

// UnmarshalJSON accepts only a JSON number; anything else is a type error
// that names the field (422).
func (d *decimal2) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "" || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) {
		return &json.UnmarshalTypeError{Value: "non-number", Type: reflect.TypeFor[float64]()}
	}
	*d = decimal2(s)
	return nil
}

// cents converts a number with at most two decimals into hundredths
// (cents, or hundredths of a percent); more decimals are a field error.
func (d decimal2) cents(f *store.Fields, field string) int64 {
	s := string(d)
	if strings.ContainsAny(s, "eE") {
		// 1e2 is valid JSON, but tills send plain decimals and one plain
		// rule is easier to document than exponent arithmetic.
		f.Add(field, store.FNotDecimal, "must be a plain decimal number such as 12.5")
		return 0
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	frac = strings.TrimRight(frac, "0")
	if len(frac) > 2 {
		f.Add(field, store.FTooManyDecimals, "must have at most 2 decimal places", "places", 2)
		return 0
	}
	for len(frac) < 2 {
		frac += "0"
	}
	v, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil || len(whole) > 13 {
		f.Add(field, store.FTooLarge, "is too large", "max", "9999999999999.99")
		return 0
	}
	if neg {
		v = -v
	}
	return v
}

// money renders hundredths as a JSON number with at most two decimals:
// 1250 → 12.5, 499 → 4.99, 1000 → 10.
func money(c int64) json.Number {
	neg := c < 0
	if neg {
		c = -c
	}
	s := strconv.FormatInt(c/100, 10)
	if frac := c % 100; frac != 0 {
		fs := strconv.FormatInt(frac+100, 10)[1:]
		s += "." + strings.TrimRight(fs, "0")
	}
	if neg {
		s = "-" + s
	}
	return json.Number(s)
}

// moneyPtr renders an optional amount; nil stays null.
func moneyPtr(c *int64) *json.Number {
	if c == nil {
		return nil
	}
	m := money(*c)
	return &m
}
