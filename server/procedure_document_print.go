package server

import (
	"bytes"
	_ "embed" // the print page's template
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"time"

	"posbox/fiscal"
	"posbox/store"
	"posbox/tse"
)

// writeProcDocPage writes version v as the printable page in German:
// read from the stored JSON, so an old version prints as it was (in
// this program's words). Like the registration's page it has no script
// and no inline style, carries the console's CSP and uses its print.css.
func (s *Server) writeProcDocPage(w http.ResponseWriter, r *http.Request, v *store.ProcDocVersion) error {
	var d fiscal.ProcedureDocument
	if err := json.Unmarshal([]byte(v.Content), &d); err != nil {
		return err
	}
	loc := caller(r.Context()).restaurant.Location()
	page := procDocPageData{Doc: &d, Version: v.Version, SHA256: v.SHA256,
		ValidFrom: v.GeneratedAt.In(loc).Format("02.01.2006, 15:04") + " Uhr",
		Printed:   s.store.Now().In(loc).Format("02.01.2006, 15:04") + " Uhr"}
	tpl, err := procDocPage.Clone()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := tpl.Funcs(procDocFuncs(loc)).Execute(&buf, page); err != nil {
		return err
	}
	return writePrintPage(w, buf.Bytes())
}

// procDocPageData is what the template reads.
type procDocPageData struct {
	Doc                *fiscal.ProcedureDocument
	Version            int64
	SHA256             string
	ValidFrom, Printed string
}

// ownerSection is one of the owner's sections: the text, or what to
// write about when it is empty.
type ownerSection struct{ Title, Text, Questions string }

func (d procDocPageData) Organisation() ownerSection {
	return ownerSection{"Organisation des Betriebs", d.Doc.OwnerText.Organisation,
		"Rechtsform und Inhaber; wer für die Kasse verantwortlich ist und wer ihn vertritt; Öffnungszeiten; Bereiche (Restaurant, Außer-Haus, Lieferung); welche Belege außerhalb der Kasse entstehen und wer sie bucht (Steuerberater, Buchhaltung)."}
}

func (d procDocPageData) TillOperation() ownerSection {
	return ownerSection{"Bedienung der Kassen (Kassieranweisung)", d.Doc.OwnerText.TillOperation,
		"Wer an welcher Kasse verkauft; wie sich eine Bedienung anmeldet; wie Stornos, Rabatte, Gutscheine, Trinkgeld und Außer-Haus-Verkäufe gebucht werden; was bei Ausfall der Kasse oder der TSE zu tun ist (Notbelege)."}
}

func (d procDocPageData) CashCounting() ownerSection {
	return ownerSection{"Kassensturz und Bargeld", d.Doc.OwnerText.CashCounting,
		"Wann und von wem das Bargeld gezählt wird (Zählprotokoll); Wechselgeldbestand; wie Differenzen behandelt werden; Einlagen, Entnahmen und Bankeinzahlungen; wie die Bedienungen abrechnen."}
}

func (d procDocPageData) InternalControl() ownerSection {
	return ownerSection{"Kontrollen des Unternehmers", d.Doc.OwnerText.InternalControl,
		"Wer die Tagesabschlüsse und Stornos prüft und wie oft; wer Benutzer und Rollen vergibt; wer Stammdaten und Preise ändert; wie Datensicherung und TSE-Archiv kontrolliert werden; wie neue Mitarbeiter eingewiesen werden."}
}

//go:embed templates/procedure_document.html
var procDocTemplate string

// procDocPage is parsed once; each page is a clone whose instant
// functions speak the restaurant's time.
var procDocPage = template.Must(template.New("procdoc").Funcs(procDocFuncs(time.UTC)).Parse(procDocTemplate))

func procDocFuncs(loc *time.Location) template.FuncMap {
	instant := func(s string) string {
		t, err := time.Parse(store.TimeFormat, s)
		if err != nil {
			return s
		}
		return t.In(loc).Format("02.01.2006, 15:04") + " Uhr"
	}
	return template.FuncMap{
		"date": func(p *string) string {
			if p == nil {
				return "–"
			}
			if t, err := time.Parse(store.DateFormat, *p); err == nil {
				return t.Format("02.01.2006")
			}
			return *p
		},
		"or": func(s string) string {
			if s == "" {
				return "–"
			}
			return s
		},
		"country": func(c string) string {
			if c == "DEU" {
				return "Deutschland"
			}
			return c
		},
		"provider": func(kind string) string {
			switch kind {
			case tse.KindSimulator:
				return "Simulator (keine TSE)"
			case tse.KindFiskaly:
				return "Cloud-TSE von fiskaly (SIGN DE)"
			}
			return kind
		},
		"instant":    instant,
		"instantPtr": func(p *string) string { return instant(*p) },
		"deref":      func(p *int64) int64 { return *p },
		"join":       func(names []string) string { return strings.Join(names, ", ") },
		// schema says a program change's database schema: the version, and
		// the migration that led there.
		"schema": func(from *int64, to int64) string {
			switch {
			case from == nil:
				return fmt.Sprintf("Version %d", to)
			case *from == 0:
				return fmt.Sprintf("Version %d (Datenbank neu angelegt)", to)
			}
			return fmt.Sprintf("Version %d (umgestellt von Version %d)", to, *from)
		},
		"target": func(kind string) string {
			switch kind {
			case "file":
				return "ein Ordner (Netzlaufwerk oder angeschlossener Datenträger)"
			case "sftp":
				return "ein Server über SFTP"
			case "s3":
				return "ein S3-Objektspeicher"
			}
			return "ein anderes Ziel"
		},
		"roleName":   roleName,
		"roleRights": roleRights,
	}
}

// roleName and roleRights say in German what a role is and may do.
func roleName(role string) string {
	switch role {
	case store.RoleAdmin:
		return "Verwaltung (Administrator)"
	case store.RoleStaff:
		return "Bedienung"
	case "auditor":
		return "Prüfer"
	}
	return "Weitere Rolle"
}

func roleRights(role string) string {
	switch role {
	case store.RoleAdmin:
		return "Alles in der Verwaltung: Stammdaten, Benutzer und Rollen, Rabatte, Dienstplan und Arbeitszeiten; alle Belege, Tagesabschlüsse und " +
			"Exporte (DSFinV-K, TSE-Archiv); TSE-Prüfungen; diese Verfahrensdokumentation. An der Kasse wie die Bedienung."
	case store.RoleStaff:
		return "An der Kasse verkaufen und stornieren (ein Storno ist ein eigener Beleg), den Tagesabschluss der Kasse auslösen, " +
			"ein- und ausstempeln, den eigenen Dienstplan sehen. Keine Stammdaten, keine Benutzer, keine Exporte."
	case "auditor":
		return "Kassendaten, Tagesabschlüsse und Exporte nur lesen; nichts ändern."
	}
	return "–"
}
