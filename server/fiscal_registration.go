package server

import (
	"bytes"
	"context"
	"html/template"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
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
	out := &registrationJSON{
		Taxpayer:      taxpayerJSON{m.BusinessName, m.Street, m.Postcode, m.City, m.Country, m.TaxNumber, m.VATID},
		Location:      locationJSON{m.LocationName, m.LocationStreet, m.LocationPostcode, m.LocationCity, m.LocationCountry},
		CashRegisters: []regRegisterJSON{}, TSEs: []regTSEJSON{}, Missing: []string{}, GeneratedAt: ts(s.store.Now()),
	}
	if out.Location.Name == "" && out.Location.Street == "" {
		out.Location = locationJSON{m.BusinessName, m.Street, m.Postcode, m.City, m.Country}
	}
	miss := func(cond bool, what string) {
		if cond {
			out.Missing = append(out.Missing, what)
		}
	}
	miss(m.BusinessName == "", "business_name")
	miss(m.Street == "" || m.Postcode == "" || m.City == "", "address")
	miss(m.TaxNumber == "" && m.VATID == "", "tax_number")
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
		miss(r.Type == "" || r.Brand == "" || r.Model == "", "registers["+serial+"].type, brand and model")
		miss(r.AcquiredOn == "", "registers["+serial+"].acquired_on")
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
				Provider: t.Kind(), InServiceOn: strPtr(m.TSEInServiceOn), OutOfServiceOn: strPtr(m.TSEOutOfServiceOn)}
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
			miss(x.BSICertificationID == "", "tse.bsi_certification_id (the provider reports none: a simulator, or ask fiskaly)")
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
// page to print. No script, no style sheet and no inline style: it works
// under the console's Content-Security-Policy, which it also carries.
func (s *Server) printRegistration(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	rep, err := s.registration(r.Context())
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := registrationPage.Execute(&buf, struct {
		*registrationJSON
		Restaurant string
	}{rep, caller(r.Context()).restaurant.Name}); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", consoleCSP)
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(buf.Bytes())
	return err
}

var registrationPage = template.Must(template.New("registration").Funcs(template.FuncMap{
	"d": func(p *string) string {
		if p == nil {
			return "–"
		}
		return *p
	},
	"or": func(s string) string {
		if s == "" {
			return "–"
		}
		return s
	},
}).Parse(`<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<title>Mitteilung nach § 146a Abs. 4 AO – {{.Restaurant}}</title>
</head>
<body>
<h1>Mitteilung elektronischer Aufzeichnungssysteme (§ 146a Abs. 4 AO)</h1>
<p>Angaben für das ELSTER-Formular „Mitteilung über elektronische Aufzeichnungssysteme“. Erstellt {{.GeneratedAt}} von posbox.</p>
{{if .Missing}}<h2>Noch auszufüllen</h2>
<ul>{{range .Missing}}<li>{{.}}</li>{{end}}</ul>{{end}}
<h2>Steuerpflichtiger</h2>
<table border="1" cellpadding="4">
<tr><th scope="row">Name</th><td>{{or .Taxpayer.Name}}</td></tr>
<tr><th scope="row">Anschrift</th><td>{{or .Taxpayer.Street}}, {{.Taxpayer.Postcode}} {{.Taxpayer.City}} ({{.Taxpayer.Country}})</td></tr>
<tr><th scope="row">Steuernummer</th><td>{{or .Taxpayer.TaxNumber}}</td></tr>
<tr><th scope="row">USt-IdNr.</th><td>{{or .Taxpayer.VATID}}</td></tr>
</table>
<h2>Betriebsstätte</h2>
<table border="1" cellpadding="4">
<tr><th scope="row">Bezeichnung</th><td>{{or .Location.Name}}</td></tr>
<tr><th scope="row">Anschrift</th><td>{{or .Location.Street}}, {{.Location.Postcode}} {{.Location.City}} ({{.Location.Country}})</td></tr>
</table>
<h2>Elektronische Aufzeichnungssysteme (Kassen)</h2>
<table border="1" cellpadding="4">
<thead><tr><th>Seriennummer</th><th>Art</th><th>Hersteller</th><th>Modell</th><th>Software</th><th>Version</th><th>Anschaffung</th><th>Inbetriebnahme</th><th>Außerbetriebnahme</th></tr></thead>
<tbody>{{range .CashRegisters}}<tr><td>{{.ClientSerial}}</td><td>{{or .Type}}</td><td>{{or .Brand}}</td><td>{{or .Model}}</td><td>{{.Software}}</td><td>{{or .SoftwareVersion}}</td><td>{{d .AcquiredOn}}</td><td>{{d .InServiceOn}}</td><td>{{d .DecommissionedOn}}</td></tr>
{{else}}<tr><td colspan="9">Keine Kasse bekannt.</td></tr>{{end}}</tbody>
</table>
<h2>Technische Sicherheitseinrichtungen (TSE)</h2>
<table border="1" cellpadding="4">
<thead><tr><th>Seriennummer</th><th>BSI-Zertifizierungs-ID</th><th>Art</th><th>Anbieter</th><th>Inbetriebnahme</th><th>Außerbetriebnahme</th><th>Zertifikat gültig bis</th></tr></thead>
<tbody>{{range .TSEs}}<tr><td>{{.SerialNumber}}</td><td>{{or .BSICertificationID}}</td><td>{{.Type}}</td><td>{{.Provider}}</td><td>{{d .InServiceOn}}</td><td>{{d .OutOfServiceOn}}</td><td>{{d .CertificateExpires}}</td></tr>
{{else}}<tr><td colspan="7">Keine TSE bekannt.</td></tr>{{end}}</tbody>
</table>
</body>
</html>
`))
