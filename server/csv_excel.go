package server

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"net/url"
	"strings"

	"posbox/store"
)

// excelCSV is a CSV file that a German Excel (and a payroll program)
// opens as it is: UTF-8 with a byte order mark, semicolons, CRLF, dates
// as 23.11.2026, numbers with a decimal comma (docs/API.md, section 3).
// The language (de, the default, or en) names the columns and yes/no.
type excelCSV struct {
	buf     bytes.Buffer
	w       *csv.Writer
	yes, no string
}

// Formats a German Excel reads as a date and as a date with a time.
const (
	csvDate     = "02.01.2006"
	csvDateTime = "02.01.2006 15:04"
)

// newExcelCSV reads ?lang= and starts the file with the header in that
// language.
func newExcelCSV(q url.Values, de, en []string) (*excelCSV, error) {
	lang := q.Get("lang")
	if lang != "" && lang != "de" && lang != "en" {
		return nil, store.Invalid("lang", store.FOneOf, "must be de or en", "values", []string{"de", "en"})
	}
	c := &excelCSV{yes: "ja", no: "nein"}
	header := de
	if lang == "en" {
		header, c.yes, c.no = en, "yes", "no"
	}
	c.buf.WriteString("\ufeff")
	c.w = csv.NewWriter(&c.buf)
	c.w.Comma, c.w.UseCRLF = ';', true
	c.row(header...)
	return c, nil
}

// row adds one line (writes to a buffer cannot fail; Flush reports).
func (c *excelCSV) row(fields ...string) { _ = c.w.Write(fields) }

// flag is yes or no in the file's language.
func (c *excelCSV) flag(b bool) string {
	if b {
		return c.yes
	}
	return c.no
}

// send answers the file as an attachment named name.
func (c *excelCSV) send(w http.ResponseWriter, name string) error {
	c.w.Flush()
	if err := c.w.Error(); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(c.buf.Bytes())
	return err
}

// decimalComma writes 7.5 as 7,5.
func decimalComma(s string) string { return strings.Replace(s, ".", ",", 1) }
