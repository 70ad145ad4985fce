package server

import (
	"net/http"

	"github.com/julienschmidt/httprouter"

	"posbox/store"
)

// masterDataJSON is the owner's fiscal master data (GET and PUT
// /api/fiscal/master-data).
type masterDataJSON struct {
	BusinessName      string         `json:"business_name"`
	Street            string         `json:"street"`
	Postcode          string         `json:"postcode"`
	City              string         `json:"city"`
	Country           string         `json:"country"`
	TaxNumber         string         `json:"tax_number"`
	VATID             string         `json:"vat_id"`
	LocationName      string         `json:"location_name"`
	LocationStreet    string         `json:"location_street"`
	LocationPostcode  string         `json:"location_postcode"`
	LocationCity      string         `json:"location_city"`
	LocationCountry   string         `json:"location_country"`
	TSEInServiceOn    *string        `json:"tse_in_service_on"`
	TSEOutOfServiceOn *string        `json:"tse_out_of_service_on"`
	Registers         []registerJSON `json:"registers"`
	UpdatedAt         *string        `json:"updated_at"`
}

type registerJSON struct {
	ClientSerial     string  `json:"client_serial"`
	Type             string  `json:"type"`
	Brand            string  `json:"brand"`
	Model            string  `json:"model"`
	SoftwareBrand    string  `json:"software_brand"`
	SoftwareVersion  string  `json:"software_version"`
	AcquiredOn       *string `json:"acquired_on"`
	InServiceOn      *string `json:"in_service_on"`
	DecommissionedOn *string `json:"decommissioned_on"`
}

func masterDataView(m *store.FiscalMasterData) masterDataJSON {
	out := masterDataJSON{BusinessName: m.BusinessName, Street: m.Street, Postcode: m.Postcode, City: m.City, Country: m.Country,
		TaxNumber: m.TaxNumber, VATID: m.VATID, LocationName: m.LocationName, LocationStreet: m.LocationStreet,
		LocationPostcode: m.LocationPostcode, LocationCity: m.LocationCity, LocationCountry: m.LocationCountry,
		TSEInServiceOn: strPtr(m.TSEInServiceOn), TSEOutOfServiceOn: strPtr(m.TSEOutOfServiceOn), Registers: []registerJSON{}}
	if !m.UpdatedAt.IsZero() {
		v := ts(m.UpdatedAt)
		out.UpdatedAt = &v
	}
	for _, r := range m.Registers {
		out.Registers = append(out.Registers, registerJSON{ClientSerial: r.ClientSerial, Type: r.Type, Brand: r.Brand, Model: r.Model,
			SoftwareBrand: r.SoftwareBrand, SoftwareVersion: r.SoftwareVersion, AcquiredOn: strPtr(r.AcquiredOn),
			InServiceOn: strPtr(r.InServiceOn), DecommissionedOn: strPtr(r.DecommissionedOn)})
	}
	return out
}

// masterDataRequest is PUT /api/fiscal/master-data: the whole record; a
// member left out is empty (country DEU).
type masterDataRequest struct {
	BusinessName      string            `json:"business_name"`
	Street            string            `json:"street"`
	Postcode          string            `json:"postcode"`
	City              string            `json:"city"`
	Country           *string           `json:"country"`
	TaxNumber         string            `json:"tax_number"`
	VATID             string            `json:"vat_id"`
	LocationName      string            `json:"location_name"`
	LocationStreet    string            `json:"location_street"`
	LocationPostcode  string            `json:"location_postcode"`
	LocationCity      string            `json:"location_city"`
	LocationCountry   *string           `json:"location_country"`
	TSEInServiceOn    *string           `json:"tse_in_service_on"`
	TSEOutOfServiceOn *string           `json:"tse_out_of_service_on"`
	Registers         []registerRequest `json:"registers"`
}

type registerRequest struct {
	ClientSerial     string  `json:"client_serial"`
	Type             string  `json:"type"`
	Brand            string  `json:"brand"`
	Model            string  `json:"model"`
	SoftwareBrand    string  `json:"software_brand"`
	SoftwareVersion  string  `json:"software_version"`
	AcquiredOn       *string `json:"acquired_on"`
	InServiceOn      *string `json:"in_service_on"`
	DecommissionedOn *string `json:"decommissioned_on"`
}

func deref(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}

// getMasterData is GET /api/fiscal/master-data.
func (s *Server) getMasterData(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	m, err := s.store.FiscalMasterData(r.Context(), caller(r.Context()).restaurant.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"master_data": masterDataView(m)})
}

// putMasterData is PUT /api/fiscal/master-data.
func (s *Server) putMasterData(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req masterDataRequest
	if err := decode(r, &req, false); err != nil {
		return err
	}
	m := &store.FiscalMasterData{BusinessName: req.BusinessName, Street: req.Street, Postcode: req.Postcode, City: req.City,
		Country: deref(req.Country, "DEU"), TaxNumber: req.TaxNumber, VATID: req.VATID, LocationName: req.LocationName,
		LocationStreet: req.LocationStreet, LocationPostcode: req.LocationPostcode, LocationCity: req.LocationCity,
		LocationCountry: deref(req.LocationCountry, "DEU"), TSEInServiceOn: deref(req.TSEInServiceOn, ""),
		TSEOutOfServiceOn: deref(req.TSEOutOfServiceOn, "")}
	for _, x := range req.Registers {
		m.Registers = append(m.Registers, store.FiscalRegister{ClientSerial: x.ClientSerial, Type: x.Type, Brand: x.Brand, Model: x.Model,
			SoftwareBrand: x.SoftwareBrand, SoftwareVersion: x.SoftwareVersion, AcquiredOn: deref(x.AcquiredOn, ""),
			InServiceOn: deref(x.InServiceOn, ""), DecommissionedOn: deref(x.DecommissionedOn, "")})
	}
	saved, err := s.store.SetFiscalMasterData(r.Context(), caller(r.Context()).restaurant.ID, m)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, envelope{"master_data": masterDataView(saved)})
}
