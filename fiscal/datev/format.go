package datev

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
)

// The EXTF header's fixed values for a Buchungsstapel (docs/FISCAL.md:
// DATEV's format description as the ledermann/datev gem reproduces it).
const (
	formatVersion = 700 // Versionsnummer of the interface
	category      = 21  // Datenkategorie: Buchungsstapel
	formatName    = "Buchungsstapel"
	categoryVer   = 9 // Formatversion of the Buchungsstapel: the 116 columns below
)

// text is a cell DATEV reads as text: quoted, quotes doubled.
type text string

// csvWriter gathers rows: text cells quoted, others as they are, cells
// separated by semicolons, rows ended by CRLF.
type csvWriter struct{ b strings.Builder }

func (w *csvWriter) row(cells []any) {
	for i, c := range cells {
		if i > 0 {
			w.b.WriteByte(';')
		}
		switch v := c.(type) {
		case text:
			w.b.WriteString(`"` + strings.ReplaceAll(string(v), `"`, `""`) + `"`)
		case nil:
		default:
			fmt.Fprint(&w.b, v)
		}
	}
	w.b.WriteString("\r\n")
}

// windows1252 is the file in DATEV's ANSI code page; a character it
// lacks becomes "?" (the texts are posbox's own, the register serials
// and the cash book's entries as typed: only these may lack one).
func (w *csvWriter) windows1252() ([]byte, error) {
	return encoding.ReplaceUnsupported(charmap.Windows1252.NewEncoder()).Bytes([]byte(w.b.String()))
}

// header is the EXTF header row, its 31 fields in order.
func header(b Batch) []any {
	s := b.Settings
	skr := "03"
	if s.Chart == SKR04 {
		skr = "04"
	}
	compact := func(d string) string { return strings.ReplaceAll(d, "-", "") }
	return []any{
		text("EXTF"), formatVersion, category, text(formatName), categoryVer,
		b.CreatedAt.UTC().Format("20060102150405") + fmt.Sprintf("%03d", b.CreatedAt.Nanosecond()/1e6), // Erzeugt am
		nil, text(""), text("posbox"), text(""), // importiert, Herkunft, exportiert von, importiert von
		s.Consultant, s.Client, b.From[:4] + "0101", s.AccountLength, compact(b.From), compact(b.To),
		text("Kasse " + b.From[:7]), text(""), 1, 0, // Bezeichnung, Diktatkürzel, Buchungstyp Finanzbuchhaltung, Rechnungslegungszweck
		nil, text("EUR"), nil, text(""), nil, nil, // reserviert, WKZ, reserviert ×4
		text(skr), nil, nil, text(""), text(""), // SKR, Branchenlösung, reserviert ×2, Anwendungsinformation
	}
}

// columnNames is the Buchungsstapel's column row (116 columns).
func columnNames() []any {
	names := []string{"Umsatz (ohne Soll/Haben-Kz)", "Soll/Haben-Kennzeichen", "WKZ Umsatz", "Kurs", "Basisumsatz", "WKZ Basisumsatz",
		"Konto", "Gegenkonto (ohne BU-Schlüssel)", "BU-Schlüssel", "Belegdatum", "Belegfeld 1", "Belegfeld 2", "Skonto", "Buchungstext",
		"Postensperre", "Diverse Adressnummer", "Geschäftspartnerbank", "Sachverhalt", "Zinssperre", "Beleglink"}
	for i := 1; i <= 8; i++ {
		names = append(names, fmt.Sprintf("Beleginfo – Art %d", i), fmt.Sprintf("Beleginfo – Inhalt %d", i))
	}
	names = append(names, "KOST1 – Kostenstelle", "KOST2 – Kostenstelle", "Kost Menge", "EU-Land u. USt-IdNr.", "EU-Steuersatz",
		"Abw. Versteuerungsart", "Sachverhalt L+L", "Funktionsergänzung L+L", "BU 49 Hauptfunktionstyp", "BU 49 Hauptfunktionsnummer",
		"BU 49 Funktionsergänzung")
	for i := 1; i <= 20; i++ {
		names = append(names, fmt.Sprintf("Zusatzinformation – Art %d", i), fmt.Sprintf("Zusatzinformation – Inhalt %d", i))
	}
	names = append(names, "Stück", "Gewicht", "Zahlweise", "Forderungsart", "Veranlagungsjahr", "Zugeordnete Fälligkeit", "Skontotyp",
		"Auftragsnummer", "Buchungstyp", "USt-Schlüssel (Anzahlungen)", "EU-Mitgliedstaat (Anzahlungen)", "Sachverhalt L+L (Anzahlungen)",
		"EU-Steuersatz (Anzahlungen)", "Erlöskonto (Anzahlungen)", "Herkunft-Kz", "Leerfeld", "KOST-Datum", "SEPA-Mandatsreferenz",
		"Skontosperre", "Gesellschaftername", "Beteiligtennummer", "Identifikationsnummer", "Zeichnernummer", "Postensperre bis",
		"Bezeichnung", "Kennzeichen", "Festschreibung", "Leistungsdatum", "Datum Zuord.")
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = text(n)
	}
	return out
}

// Columns is the number of a booking row's fields.
const Columns = 116

// bookingRow is one booking's 116 fields: the first fourteen, the
// Festschreibung (0: the adviser locks the batch after checking it) and
// the Leistungsdatum (the business date with its year, since Belegdatum
// has none).
func bookingRow(b Booking) []any {
	row := make([]any, Columns)
	row[0] = euro(b.Cents)
	row[1] = text(b.Side)
	row[2] = text("EUR")
	row[6] = b.Account
	row[7] = b.Contra
	row[8] = text("")
	row[9] = b.Date[8:10] + b.Date[5:7] // TTMM
	row[10] = text(b.Voucher)
	row[13] = text(b.Text)
	row[113] = 0
	row[114] = b.Date[8:10] + b.Date[5:7] + b.Date[:4] // TTMMJJJJ
	return row
}

// euro is cents as DATEV's amount: a decimal comma, no thousands
// separator, two places.
func euro(c int64) string {
	return strconv.FormatInt(c/100, 10) + "," + fmt.Sprintf("%02d", c%100)
}
