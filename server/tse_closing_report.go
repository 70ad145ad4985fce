package server

import (
	"bytes"
	_ "embed" // the Z-report's template
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/fiscal"
	"posbox/fiscal/cashbook"
	"posbox/store"
)

// closingReport is GET /api/tse/closings/:id/report: the closing's
// Z-report (Z-Bon) as a page to print, in German, gathered by
// fiscal.GatherZReport. ?layout=a4 (the default) is a sheet of A4,
// ?layout=receipt a strip for an 80 mm receipt printer. Like the
// registration's page: no script, no inline style, the console's CSP, one
// style sheet of the console's (print.css or receipt.css).
func (s *Server) closingReport(w http.ResponseWriter, r *http.Request, p httprouter.Params) error {
	id, err := pathID(p, "closing")
	if err != nil {
		return err
	}
	layout := r.URL.Query().Get("layout")
	switch layout {
	case "":
		layout = "a4"
	case "a4", "receipt":
	default:
		return store.Invalid("layout", store.FOneOf, "must be a4 or receipt", "values", []string{"a4", "receipt"})
	}
	who := caller(r.Context())
	var tss store.TSEInfo
	if t := s.cfg.TSE; t != nil {
		// The TSS the box knows now names the TSE only when no sale of
		// the closing is signed; a failure leaves it unnamed.
		if info, _, err := t.TSS(r.Context(), who.restaurant.ID); err == nil {
			tss = info
		}
	}
	z, err := fiscal.GatherZReport(r.Context(), s.store, who.restaurant.ID, id, tss)
	if err != nil {
		return err
	}
	loc := who.restaurant.Location()
	page := zReportPage{ZReport: z, Restaurant: who.restaurant.Name, Receipt: layout == "receipt", MovementKinds: zMovementKinds(z),
		Printed: s.store.Now().In(loc).Format("02.01.2006, 15:04") + " Uhr"}
	tpl, err := zReportTemplate.Clone()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := tpl.Funcs(zReportFuncs(loc)).Execute(&buf, page); err != nil {
		return err
	}
	return writePrintPage(w, buf.Bytes())
}

// zReportPage is what the template reads.
type zReportPage struct {
	*fiscal.ZReport
	Restaurant string
	Receipt    bool // the 80 mm layout
	Printed    string
	// MovementKinds are the closing's movement sums in the cash book's
	// order of kinds; the opening float always, named even when none.
	MovementKinds []zMovementKind
}

// zMovementKind is one kind's line of the Kassenbewegungen.
type zMovementKind struct {
	Label string
	fiscal.ZMovementKind
}

func zMovementKinds(z *fiscal.ZReport) []zMovementKind {
	var out []zMovementKind
	for _, k := range cashbook.Kinds {
		if m, ok := z.Cash.Kinds[k.Name]; ok || k.Name == "opening_float" {
			out = append(out, zMovementKind{Label: k.Label, ZMovementKind: m})
		}
	}
	return out
}

//go:embed templates/tse_closing_report.html
var zReportHTML string

var zReportTemplate = template.Must(template.New("zreport").Funcs(zReportFuncs(time.UTC)).Parse(zReportHTML))

// zReportFuncs are the template's words and numbers in German, times in
// the restaurant's zone.
func zReportFuncs(loc *time.Location) template.FuncMap {
	return template.FuncMap{
		"eur": euroText,
		// amount is a payment in its currency: 12,00 € or 12,00 CHF.
		"amount": func(c int64, cur string) string {
			if cur == "EUR" {
				return euroText(c)
			}
			return strings.TrimSuffix(euroText(c), "€") + cur
		},
		"time":     func(t time.Time) string { return t.In(loc).Format("15:04:05") },
		"datetime": func(t time.Time) string { return t.In(loc).Format("02.01.2006, 15:04") + " Uhr" },
		"day": func(d string) string {
			if t, err := time.Parse(store.DateFormat, d); err == nil {
				return t.Format("02.01.2006")
			}
			return d
		},
		"rate": func(bp int64) string {
			return strings.Replace(strings.TrimSuffix(strings.TrimSuffix(strconv.FormatFloat(float64(bp)/100, 'f', 2, 64), "0"), ".0"), ".", ",", 1) + " %"
		},
		"rateOf":  func(name string) int64 { return fiscal.VATRateBP(name) },
		"payType": func(t string) string { return map[string]string{"CASH": "Bar", "NON_CASH": "Unbar (Karte u. a.)"}[t] },
		"kind":    func(bonTyp string) string { return orText(zKindWords[bonTyp], bonTyp) },
		"case":    func(gvTyp string) string { return orText(zCaseWords[gvTyp], gvTyp) },
		"movement": func(kind string) string {
			k, _ := cashbook.KindOf(kind)
			return orText(k.Label, "Kassenbewegung")
		},
	}
}

// zKindWords name the DSFinV-K BON_TYP values.
var zKindWords = map[string]string{"Beleg": "Beleg", "AVTraining": "Trainingsbeleg", "AVTransfer": "Transfer",
	"AVBestellung": "Bestellung", "AVBelegabbruch": "Belegabbruch", "AVSachbezug": "Sachbezug", "AVRechnung": "Rechnung",
	"AVSonstige": "Sonstiger Vorgang", "AVBelegstorno": "Belegstorno"}

// zCaseWords name the GV_TYP values whose DSFinV-K name is not a word.
var zCaseWords = map[string]string{"TrinkgeldAG": "Trinkgeld (Arbeitgeber)", "TrinkgeldAN": "Trinkgeld (Arbeitnehmer)",
	"PfandRueckzahlung": "Pfandrückzahlung", "ZuschussEcht": "Zuschuss (echt)", "ZuschussUnecht": "Zuschuss (unecht)",
	"EinzweckgutscheinKauf": "Einzweckgutschein: Kauf", "EinzweckgutscheinEinloesung": "Einzweckgutschein: Einlösung",
	"MehrzweckgutscheinKauf": "Mehrzweckgutschein: Kauf", "MehrzweckgutscheinEinloesung": "Mehrzweckgutschein: Einlösung",
	"Forderungsaufloesung": "Forderungsauflösung", "Anzahlungsaufloesung": "Anzahlungsauflösung",
	"DifferenzSollIst": "Differenz Soll/Ist"}

func orText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// euroText is cents in German: 1.234,56 € (a minus in front when
// negative).
func euroText(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	units := strconv.FormatInt(c/100, 10)
	var b strings.Builder
	for i, d := range units {
		if i > 0 && (len(units)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteRune(d)
	}
	return sign + b.String() + "," + strconv.FormatInt(c%100+100, 10)[1:] + " €"
}
