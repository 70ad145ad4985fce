package store

import (
	"context"
	"database/sql"
	"errors"
	"regexp"
	"strconv"
	"time"
	"unicode/utf8"
)

// FiscalMasterData is what the owner fills in for the tax office: the
// business and its location (DSFinV-K cashpointclosing.csv and
// location.csv, §146a (4) AO), the TSE's dates when posbox cannot know
// them, and per cash register its brand, model and dates.
type FiscalMasterData struct {
	BusinessName     string
	Street           string
	Postcode         string
	City             string
	Country          string // ISO 3166-1 alpha-3, DEU
	TaxNumber        string // Steuernummer
	VATID            string // USt-IdNr.
	LocationName     string
	LocationStreet   string
	LocationPostcode string
	LocationCity     string
	LocationCountry  string
	// TSEInServiceOn and TSEOutOfServiceOn override what posbox knows
	// (the first signed sale; none). Local dates, "" for none.
	TSEInServiceOn    string
	TSEOutOfServiceOn string
	Registers         []FiscalRegister
	UpdatedAt         time.Time // zero when never saved
}

// FiscalRegister is the owner's data of one cash register.
type FiscalRegister struct {
	ClientSerial     string
	Type             string // e.g. "PC-Kassensystem", "Tablet-/App-Kassensystem"
	Brand            string
	Model            string
	SoftwareBrand    string // default posbox's (the POS software's, when another)
	SoftwareVersion  string
	AcquiredOn       string // local dates, "" for none
	InServiceOn      string
	DecommissionedOn string
}

var countryRE = regexp.MustCompile(`^[A-Z]{3}$`)

// Validate names every bad field; the limits are DSFinV-K's column sizes.
func (m *FiscalMasterData) Validate() error {
	var f Fields
	for _, c := range []struct {
		field, v string
		max      int
	}{
		{"business_name", m.BusinessName, 60}, {"street", m.Street, 60}, {"postcode", m.Postcode, 10}, {"city", m.City, 62},
		{"tax_number", m.TaxNumber, 20}, {"vat_id", m.VATID, 15}, {"location_name", m.LocationName, 60},
		{"location_street", m.LocationStreet, 60}, {"location_postcode", m.LocationPostcode, 10}, {"location_city", m.LocationCity, 62},
	} {
		if utf8.RuneCountInString(c.v) > c.max {
			f.Add(c.field, FTooLong, "must be at most "+itoa(c.max)+" characters", "max", c.max)
		}
	}
	for _, c := range []struct{ field, v string }{{"country", m.Country}, {"location_country", m.LocationCountry}} {
		if !countryRE.MatchString(c.v) {
			f.Add(c.field, FNotCountry, "must be an ISO 3166-1 alpha-3 code such as DEU")
		}
	}
	checkDate := func(field, v string) {
		if v == "" {
			return
		}
		if _, err := time.Parse(DateFormat, v); err != nil {
			f.Add(field, FNotDate, "must be a date YYYY-MM-DD")
		}
	}
	checkDate("tse_in_service_on", m.TSEInServiceOn)
	checkDate("tse_out_of_service_on", m.TSEOutOfServiceOn)
	if m.TSEInServiceOn != "" && m.TSEOutOfServiceOn != "" && m.TSEOutOfServiceOn < m.TSEInServiceOn {
		f.Add("tse_out_of_service_on", FBeforeField, "must not be before tse_in_service_on", "field", "tse_in_service_on")
	}
	seen := map[string]bool{}
	for i, r := range m.Registers {
		at := "registers[" + itoa(i) + "]"
		if r.ClientSerial == "" || utf8.RuneCountInString(r.ClientSerial) > 70 {
			f.Add(at+".client_serial", FLength, "must be 1-70 characters", "min", 1, "max", 70)
		} else if seen[r.ClientSerial] {
			f.Add(at+".client_serial", FDuplicate, "appears twice")
		}
		seen[r.ClientSerial] = true
		for _, c := range []struct{ field, v string }{{"type", r.Type}, {"brand", r.Brand}, {"model", r.Model},
			{"software_brand", r.SoftwareBrand}, {"software_version", r.SoftwareVersion}} {
			if utf8.RuneCountInString(c.v) > 50 {
				f.Add(at+"."+c.field, FTooLong, "must be at most 50 characters", "max", 50)
			}
		}
		checkDate(at+".acquired_on", r.AcquiredOn)
		checkDate(at+".in_service_on", r.InServiceOn)
		checkDate(at+".decommissioned_on", r.DecommissionedOn)
		if r.DecommissionedOn != "" && r.AcquiredOn != "" && r.DecommissionedOn < r.AcquiredOn {
			f.Add(at+".decommissioned_on", FBeforeField, "must not be before acquired_on", "field", at+".acquired_on")
		}
	}
	return f.Err()
}

func itoa(n int) string { return strconv.Itoa(n) }

// FiscalMasterData reads a restaurant's master data; never saved is the
// defaults (empty, country DEU) and no registers.
func (s *Store) FiscalMasterData(ctx context.Context, restaurantID string) (*FiscalMasterData, error) {
	m := &FiscalMasterData{Country: "DEU", LocationCountry: "DEU", Registers: []FiscalRegister{}}
	var in, out sql.NullString
	var updated string
	err := s.rdb.QueryRowContext(ctx, `SELECT business_name, street, postcode, city, country, tax_number, vat_id, location_name,
		location_street, location_postcode, location_city, location_country, tse_in_service_on, tse_out_of_service_on, updated_at
		FROM fiscal_master_data WHERE restaurant_id = ?`, restaurantID).Scan(&m.BusinessName, &m.Street, &m.Postcode, &m.City, &m.Country,
		&m.TaxNumber, &m.VATID, &m.LocationName, &m.LocationStreet, &m.LocationPostcode, &m.LocationCity, &m.LocationCountry, &in, &out, &updated)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	if err == nil {
		m.TSEInServiceOn, m.TSEOutOfServiceOn, m.UpdatedAt = in.String, out.String, ParseTime(updated)
	}
	m.Registers, err = queryAll(ctx, s.rdb, func(sc scanner) (FiscalRegister, error) {
		var r FiscalRegister
		var acq, ins, dec sql.NullString
		err := sc.Scan(&r.ClientSerial, &r.Type, &r.Brand, &r.Model, &r.SoftwareBrand, &r.SoftwareVersion, &acq, &ins, &dec)
		r.AcquiredOn, r.InServiceOn, r.DecommissionedOn = acq.String, ins.String, dec.String
		return r, err
	}, `SELECT client_serial, register_type, brand, model, software_brand, software_version, acquired_on, in_service_on, decommissioned_on
		FROM fiscal_registers WHERE restaurant_id = ? ORDER BY client_serial`, restaurantID)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// SetFiscalMasterData replaces a restaurant's master data and its
// registers' data in one transaction (the registers not listed are
// removed: the owner's list is the whole list).
func (s *Store) SetFiscalMasterData(ctx context.Context, restaurantID string, m *FiscalMasterData) (*FiscalMasterData, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	err := s.write(ctx, func(tx *Tx) error {
		now := FormatTime(tx.Now)
		// What is put into or out of service is compared with what was
		// known before the save, in its transaction: two saves at once
		// report a change once (registration_due.go).
		if err := noteTSEDates(ctx, tx, restaurantID, m.TSEInServiceOn, m.TSEOutOfServiceOn); err != nil {
			return err
		}
		if err := noteRegisterChanges(ctx, tx, restaurantID, m.Registers); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO fiscal_master_data (restaurant_id, business_name, street, postcode, city, country,
			tax_number, vat_id, location_name, location_street, location_postcode, location_city, location_country, tse_in_service_on,
			tse_out_of_service_on, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (restaurant_id) DO UPDATE SET business_name = excluded.business_name, street = excluded.street,
			postcode = excluded.postcode, city = excluded.city, country = excluded.country, tax_number = excluded.tax_number,
			vat_id = excluded.vat_id, location_name = excluded.location_name, location_street = excluded.location_street,
			location_postcode = excluded.location_postcode, location_city = excluded.location_city,
			location_country = excluded.location_country, tse_in_service_on = excluded.tse_in_service_on,
			tse_out_of_service_on = excluded.tse_out_of_service_on, updated_at = excluded.updated_at`,
			restaurantID, m.BusinessName, m.Street, m.Postcode, m.City, m.Country, m.TaxNumber, m.VATID, m.LocationName, m.LocationStreet,
			m.LocationPostcode, m.LocationCity, m.LocationCountry, nullStr(m.TSEInServiceOn), nullStr(m.TSEOutOfServiceOn), now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM fiscal_registers WHERE restaurant_id = ?`, restaurantID); err != nil {
			return err
		}
		for _, r := range m.Registers {
			if _, err := tx.ExecContext(ctx, `INSERT INTO fiscal_registers (restaurant_id, client_serial, register_type, brand, model,
				software_brand, software_version, acquired_on, in_service_on, decommissioned_on, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, restaurantID, r.ClientSerial, r.Type, r.Brand, r.Model, r.SoftwareBrand,
				r.SoftwareVersion, nullStr(r.AcquiredOn), nullStr(r.InServiceOn), nullStr(r.DecommissionedOn), now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.FiscalMasterData(ctx, restaurantID)
}

// Register is a cash register posbox knows: a terminal serial that sold.
type Register struct {
	ClientSerial string
	FirstSaleAt  time.Time
	LastSaleAt   time.Time
}

// Registers lists the terminals that recorded sales, by serial.
func (s *Store) Registers(ctx context.Context, restaurantID string) ([]Register, error) {
	return queryAll(ctx, s.rdb, func(sc scanner) (Register, error) {
		var r Register
		var first, last string
		err := sc.Scan(&r.ClientSerial, &first, &last)
		r.FirstSaleAt, r.LastSaleAt = ParseTime(first), ParseTime(last)
		return r, err
	}, `SELECT client_serial, min(business_time), max(business_time) FROM tse_transactions
		WHERE restaurant_id = ? AND client_serial != '' GROUP BY client_serial ORDER BY client_serial`, restaurantID)
}

// FirstSignedAt is when the TSE first signed a sale of the restaurant
// (its date in service as posbox saw it); ok is false before any.
func (s *Store) FirstSignedAt(ctx context.Context, restaurantID, tssID string) (t time.Time, ok bool, err error) {
	var v sql.NullString
	err = s.rdb.QueryRowContext(ctx, `SELECT min(time_start) FROM tse_transactions WHERE restaurant_id = ? AND tss_id = ? AND number IS NOT NULL`,
		restaurantID, tssID).Scan(&v)
	if err != nil || !v.Valid {
		return time.Time{}, false, err
	}
	return ParseTime(v.String), true, nil
}
