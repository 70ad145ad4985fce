package dsfinvk

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"posbox/fiscal"
)

// The CSV dialect index.xml declares (DSFinV-K, GDPdU "VariableLength"):
// UTF-8 without a byte order mark, ";" between columns, CRLF after every
// record, a header row of the column names, alphanumeric values in
// double quotes (a quote inside doubled), numbers unquoted with a decimal
// comma, exactly the column's decimals and no digit grouping. An empty
// numeric value is an empty field.

// blank is an empty value in any column.
type blank struct{}

// sheet is one CSV file being written.
type sheet struct {
	t    *table
	buf  bytes.Buffer
	rows int
}

func newSheet(t *table) *sheet {
	s := &sheet{t: t}
	for i, c := range t.cols {
		if i > 0 {
			s.buf.WriteByte(';')
		}
		s.buf.WriteString(c.name)
	}
	s.buf.WriteString("\r\n")
	return s
}

// row writes one record: a string for each alphanumeric column, an int64
// scaled to the column's decimals (cents for N2, 10^-5 for N5, ...) or an
// int for each numeric one, blank{} for an empty value. A wrong count or
// type is a bug in this package and panics.
func (s *sheet) row(vals ...any) {
	if len(vals) != len(s.t.cols) {
		panic(fmt.Sprintf("dsfinvk: %s: %d values for %d columns", s.t.file, len(vals), len(s.t.cols)))
	}
	for i, v := range vals {
		if i > 0 {
			s.buf.WriteByte(';')
		}
		c := s.t.cols[i]
		switch x := v.(type) {
		case blank:
		case string:
			if c.numeric {
				panic(fmt.Sprintf("dsfinvk: %s.%s: text in a numeric column", s.t.file, c.name))
			}
			s.buf.WriteByte('"')
			s.buf.WriteString(strings.ReplaceAll(clip(x, c.size), `"`, `""`))
			s.buf.WriteByte('"')
		case int64:
			s.number(c, x)
		case int:
			s.number(c, int64(x))
		default:
			panic(fmt.Sprintf("dsfinvk: %s.%s: value of type %T", s.t.file, c.name, v))
		}
	}
	s.buf.WriteString("\r\n")
	s.rows++
}

func (s *sheet) number(c column, v int64) {
	if !c.numeric {
		panic(fmt.Sprintf("dsfinvk: %s.%s: a number in an alphanumeric column", s.t.file, c.name))
	}
	s.buf.WriteString(decimal(v, c.size))
}

// decimal writes v (in units of 10^-dec) with a decimal comma and exactly
// dec decimals: 1234, 2 → "12,34"; -5, 2 → "-0,05".
func decimal(v int64, dec int) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	s := strconv.FormatInt(v, 10)
	if dec == 0 {
		return sign + s
	}
	for len(s) <= dec {
		s = "0" + s
	}
	return sign + s[:len(s)-dec] + "," + s[len(s)-dec:]
}

// clip cuts text to the column's maximum length in characters, so that an
// over-long value (a text a till sent before a limit existed) cannot make
// the file unreadable for the auditor's software.
func clip(s string, max int) string {
	if max <= 0 {
		return s
	}
	n := 0
	for i := range s {
		if n == max {
			return s[:i]
		}
		n++
	}
	return s
}

// c5 is cents in units of 10^-5 (an N5 column).
func c5(cents int64) int64 { return cents * 1000 }

// netOf splits a gross amount (10^-5 units) at a rate (hundredths of a
// percent) into net and VAT, the net rounded half away from zero.
func netOf(gross5, bp int64) (net5, vat5 int64) { return fiscal.SplitGross(gross5, bp) }
