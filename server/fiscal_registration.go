package server

import (
	"bytes"
	"context"
	_ "embed" // the print page's template
	"html/template"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
	"posbox/tse"
)

// registrationJSON is what the ELSTER form of §146a (4) AO asks, from
// what posbox knows and what the owner filled in (docs/FISCAL.md).
type registrationJSON struct {
	Taxpayer      taxpayerJSON      `json:"taxpayer"`
	Location      locationJSON      `json:"location"`
	CashRegisters []regRegisterJSON `json:"cash_registers"`
	TSEs          []regTSEJSON      `json:"tses"`
	Missing       []string          `json:"missing"`
	GeneratedAt   string            `json:"generated_at"`

	// What the print page says: each missing item in German, and when
	// the report was made, in the restaurant's time.
	missingText []string
	generated   time.Time
}

type taxpayerJSON struct {
	Name      string `json:"name"`
	Street    string `json:"street"`
	Postcode  string `json:"postcode"`
	City      string `json:"city"`
	Country   string `json:"country"`
	TaxNumber string `json:"tax_number"`
	VATID     string `json:"vat_id"`
}

type locationJSON struct {
	Name     string `json:"name"`
	Street   string `json:"street"`
	Postcode string `json:"postcode"`
	City     string `json:"city"`
	Country  string `json:"country"`
}

type regRegisterJSON struct {
	ClientSerial     string  `json:"client_serial"`
	Type             string  `json:"type"`
	Brand            string  `json:"brand"`
	Model            string  `json:"model"`
	Software         string  `json:"software"`
	SoftwareVersion  string  `json:"software_version"`
	AcquiredOn       *string `json:"acquired_on"`
	InServiceOn      *string `json:"in_service_on"`
	DecommissionedOn *string `json:"decommissioned_on"`
	FirstSaleOn      *string `json:"first_sale_on"`
	LastSaleOn       *string `json:"last_sale_on"`
}

type regTSEJSON struct {
	SerialNumber       string  `json:"serial_number"`
	BSICertificationID string  `json:"bsi_certification_id"`
	Type               string  `json:"type"`
	Provider           string  `json:"provider"`
	InServiceOn        *string `json:"in_service_on"`
	OutOfServiceOn     *string `json:"out_of_service_on"`
	CertificateExpires *string `json:"certificate_expires_on"`
	// Simulated: the built-in simulator, which is no certified TSE and is
	// not to be registered.
	Simulated bool `json:"simulated"`
}

// registration gathers the report.
func (s *Server) registration(ctx context.Context) (*registrationJSON, error) {
	who := caller(ctx)
	loc := who.restaurant.Location()
	m, err := s.store.FiscalMasterData(ctx, who.restaurant.ID)
	if err != nil {
		return nil, err
	}
	regs, err := s.store.Registers(ctx, who.restaurant.ID)
	if err != nil {
		return nil, err
	}
	day := func(t time.Time) *string { v := t.In(loc).Format(store.DateFormat); return &v }
	now := s.store.Now()
	out := &registrationJSON{
		Taxpayer:      taxpayerJSON{m.BusinessName, m.Street, m.Postcode, m.City, m.Country, m.TaxNumber, m.VATID},
		Location:      locationJSON{m.LocationName, m.LocationStreet, m.LocationPostcode, m.LocationCity, m.LocationCountry},
		CashRegisters: []regRegisterJSON{}, TSEs: []regTSEJSON{}, Missing: []string{}, GeneratedAt: ts(now),
		generated: now.In(loc),
	}
	if out.Location.Name == "" && out.Location.Street == "" {
		out.Location = locationJSON{m.BusinessName, m.Street, m.Postcode, m.City, m.Country}
	}
	// miss records a gap: its key for the API, its words for the page.
	miss := func(cond bool, key, text string) {
		if cond {
			out.Missing = append(out.Missing, key)
			out.missingText = append(out.missingText, text)
		}
	}
	miss(m.BusinessName == "", "business_name", "Name des Unternehmens")
	miss(m.Street == "" || m.Postcode == "" || m.City == "", "address", "Anschrift (Straße, PLZ, Ort)")
	miss(m.TaxNumber == "" && m.VATID == "", "tax_number", "Steuernummer oder USt-IdNr.")
	owner := map[string]store.FiscalRegister{}
	for _, r := range m.Registers {
		owner[r.ClientSerial] = r
	}
	seen := map[string]bool{}
	add := func(serial string, first, last *string) {
		r := owner[serial]
		sw, ver := r.SoftwareBrand, r.SoftwareVersion
		if sw == "" {
			sw = "posbox"
		}
		if ver == "" {
			ver = s.cfg.Version
		}
		in := strPtr(r.InServiceOn)
		if in == nil {
			in = first
		}
		out.CashRegisters = append(out.CashRegisters, regRegisterJSON{ClientSerial: serial, Type: r.Type, Brand: r.Brand, Model: r.Model,
			Software: sw, SoftwareVersion: ver, AcquiredOn: strPtr(r.AcquiredOn), InServiceOn: in,
			DecommissionedOn: strPtr(r.DecommissionedOn), FirstSaleOn: first, LastSaleOn: last})
		miss(r.Type == "" || r.Brand == "" || r.Model == "", "registers["+serial+"].type, brand and model",
			"Kasse "+serial+": Art, Marke und Modell")
		miss(r.AcquiredOn == "", "registers["+serial+"].acquired_on", "Kasse "+serial+": Anschaffungsdatum")
		seen[serial] = true
	}
	for _, r := range regs {
		add(r.ClientSerial, day(r.FirstSaleAt), day(r.LastSaleAt))
	}
	for _, r := range m.Registers {
		if !seen[r.ClientSerial] {
			add(r.ClientSerial, nil, nil)
		}
	}
	if t := s.cfg.TSE; t != nil {
		if info, _, err := t.TSS(ctx, who.restaurant.ID); err == nil {
			x := regTSEJSON{SerialNumber: info.SerialNumber, BSICertificationID: info.BSICertificationID, Type: "Cloud-TSE",
				Provider: t.Kind(), InServiceOn: strPtr(m.TSEInServiceOn), OutOfServiceOn: strPtr(m.TSEOutOfServiceOn),
				Simulated: t.Kind() == tse.KindSimulator}
			if !info.CertNotAfter.IsZero() {
				x.CertificateExpires = day(info.CertNotAfter)
			}
			if x.InServiceOn == nil {
				first, ok, err := s.store.FirstSignedAt(ctx, who.restaurant.ID, info.ID)
				if err != nil {
					return nil, err
				}
				if ok {
					x.InServiceOn = day(first)
				}
			}
			if x.Simulated {
				miss(true, "tse.bsi_certification_id (the provider reports none: a simulator, or ask fiskaly)",
					"Eine zertifizierte TSE: Der Simulator ist keine. Richten Sie die TSE von fiskaly ein (Anleitung in docs/TSE.md, Befehl posbox tse setup).")
			} else {
				miss(x.BSICertificationID == "", "tse.bsi_certification_id (the provider reports none: a simulator, or ask fiskaly)",
					"BSI-Zertifizierungs-ID der TSE: Der Anbieter meldet keine; bitte bei fiskaly erfragen.")
			}
			out.TSEs = append(out.TSEs, x)
		}
	}
	return out, nil
}

// getRegistration is GET /api/fiscal/registration.
func (s *Server) getRegistration(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	rep, err := s.registration(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"registration": rep})
}

// printRegistration is GET /api/fiscal/registration/print: the same as a
// page to print, in German (dates as 22.11.2026, times in the
// restaurant's zone), with no internal key in it. No script and no inline
// style: it works under the console's Content-Security-Policy, which it
// also carries, styled by the console's print.css.
func (s *Server) printRegistration(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	rep, err := s.registration(r.Context())
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := registrationPage.Execute(&buf, registrationPageData{rep, caller(r.Context()).restaurant.Name}); err != nil {
		return err
	}
	return writePrintPage(w, buf.Bytes())
}

// registrationPageData is what the template reads.
type registrationPageData struct {
	*registrationJSON
	Restaurant string
}

// Generated is when the report was made: 22.11.2026, 10:00 Uhr.
func (d registrationPageData) Generated() string {
	return d.generated.Format("02.01.2006, 15:04") + " Uhr"
}

// MissingText is each gap in words.
func (d registrationPageData) MissingText() []string { return d.missingText }

//go:embed templates/fiscal_registration.html
var registrationTemplate string

var registrationPage = template.Must(template.New("registration").Funcs(template.FuncMap{
	// date is a YYYY-MM-DD (or nil) as 22.11.2026 (or a dash).
	"date": func(p *string) string {
		if p == nil {
			return "–"
		}
		t, err := time.Parse(store.DateFormat, *p)
		if err != nil {
			return *p
		}
		return t.Format("02.01.2006")
	},
	"or": func(s string) string {
		if s == "" {
			return "–"
		}
		return s
	},
	// country names the ISO 3166 alpha-3 code Germany has; any other
	// code is shown as entered.
	"country": func(c string) string {
		if c == "DEU" {
			return "Deutschland"
		}
		return c
	},
	"provider": func(kind string) string {
		if kind == tse.KindSimulator {
			return "Simulator (keine zertifizierte TSE)"
		}
		return kind
	},
}).Parse(registrationTemplate))

// writePrintPage answers a page to print (the registration, the procedure
// document): HTML without script under the console's CSP, never framed,
// never cached.
func writePrintPage(w http.ResponseWriter, page []byte) error {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", consoleCSP)
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(page)
	return err
}
