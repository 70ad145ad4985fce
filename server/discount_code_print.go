package server

import (
	"bytes"
	_ "embed" // the code list's print template
	"html/template"
	"net/http"
	"strconv"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// discountCodesCSV is GET /api/discounts/:id/codes.csv: the codes as a
// file a German Excel opens as it is (UTF-8 with BOM, semicolons, CRLF,
// dates as 23.11.2026 15:04), e.g. for a mail merge of vouchers.
func (s *Server) discountCodesCSV(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	out, err := newExcelCSV(r.URL.Query(),
		[]string{"Code", "Charge vom", "Eingelöst", "Einlösungen höchstens", "Einmal je Gast", "Zuletzt eingelöst"},
		[]string{"Code", "Batch of", "Used", "Uses at most", "Once per guest", "Last used"})
	if err != nil {
		return err
	}
	_, codes, err := s.discountCodes(r, p)
	if err != nil {
		return err
	}
	loc := caller(r.Context()).restaurant.Location()
	for _, c := range codes {
		last := ""
		if c.LastUsedAt != nil {
			last = c.LastUsedAt.In(loc).Format(csvDateTime)
		}
		out.row(c.Code, c.BatchCreatedAt.In(loc).Format(csvDateTime), strconv.FormatInt(c.Uses, 10),
			strconv.FormatInt(c.MaxUses, 10), out.flag(c.OncePerGuest), last)
	}
	return out.send(w, "rabattcodes-"+s.store.Now().In(loc).Format(time.DateOnly)+".csv")
}

// discountCodesPrint is GET /api/discounts/:id/codes/print: the codes as
// a list to print on A4, in German, with what the discount gives (no
// script, the console's CSP and print.css, like the Z-report).
func (s *Server) discountCodesPrint(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	d, codes, err := s.discountCodes(r, p)
	if err != nil {
		return err
	}
	rest := caller(r.Context()).restaurant
	loc := rest.Location()
	page := codesPage{Restaurant: rest.Name, Discount: d, Codes: codes, Value: discountValueText(d),
		Printed: s.store.Now().In(loc).Format("02.01.2006, 15:04") + " Uhr"}
	for _, c := range codes {
		page.Used += c.Uses
	}
	tpl, err := codesTemplate.Clone()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := tpl.Funcs(codesFuncs(loc)).Execute(&buf, page); err != nil {
		return err
	}
	return writePrintPage(w, buf.Bytes())
}

// codesPage is what the template reads.
type codesPage struct {
	Restaurant string
	Discount   *store.Discount
	Value      string
	Codes      []*store.DiscountCode
	Used       int64
	Printed    string
}

// discountValueText is what the discount takes off, in German: "10 %"
// or "2,50 €".
func discountValueText(d *store.Discount) string {
	if d.Type == store.DiscountPercentage {
		return percentText(d.Value)
	}
	return euroText(d.Value)
}

// percentText is hundredths of a percent in German: 1250 → "12,5 %".
func percentText(v int64) string {
	s := strconv.FormatInt(v/100, 10)
	if frac := v % 100; frac != 0 {
		f := strconv.FormatInt(frac+100, 10)[1:]
		if f[1] == '0' {
			f = f[:1]
		}
		s += "," + f
	}
	return s + " %"
}

// codesFuncs are the Z-report's functions and inc, the list's numbering
// from 1.
func codesFuncs(loc *time.Location) template.FuncMap {
	fm := zReportFuncs(loc)
	fm["inc"] = func(i int) int { return i + 1 }
	return fm
}

//go:embed templates/discount_codes.html
var codesHTML string

// codesTemplate is parsed once; each page is a clone whose time
// functions speak the restaurant's time.
var codesTemplate = template.Must(template.New("codes").Funcs(codesFuncs(time.UTC)).Parse(codesHTML))
