package server

import (
	"encoding/json"
	"strconv"
	"strings"
)

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
